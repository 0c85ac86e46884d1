# frozen_string_literal: true

# 18xx.games' own undo and redo filtering, asked of its engine for railledger's comparison
# (railledger.crosscheck.undo): reads {case name => raw action list} as JSON on stdin and prints
# {case name => {"standing" => ids}} for the actions Engine::Game::Base.filtered_actions keeps
# (chat messages included), or {"refused" => error class} where loading such a game fails.
# Usage: ruby undo_filter.rb LIB_DIR < cases.json   (LIB_DIR: the ref18xx tools' extracted engine)

require_relative 'reference_engine'

filtered = JSON.parse($stdin.read).to_h do |name, actions|
  kept, = Engine::Game::Base.filtered_actions(actions)
  [name, { 'standing' => kept.compact.map { |action| action['id'] } }]
rescue StandardError => e
  [name, { 'refused' => e.class.name }]
end
puts JSON.generate(filtered)
