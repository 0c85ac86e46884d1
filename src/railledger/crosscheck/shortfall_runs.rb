# frozen_string_literal: true

# 18xx.games' own engine asked about the better runs of railledger's revenue audit
# (railledger.crosscheck.shortfalls): for each, the game is loaded up to the run_routes action the
# audit found short, and the audit's better routes are sent there in its place, as a player on the
# site would send them, without their revenue, so that the engine checks every route and values it
# itself. Nothing of the engine is here: only its public Game.load and process_action.
#
# Reads on stdin {"cases": [{"case": name, "record": path, "action_id": id, "entity": corporation,
# "routes": [{"train": id, "connections": [[hex, ...], ...]}, ...]}, ...]} and prints one JSON line
# per case: {"case", "accepted": true, "revenues": [each route's revenue], "total": what the run
# pays} or {"case", "accepted": false, "error": why the engine refused the run (or could not reach
# its position)}.
# Usage: ruby -r opal_arity.rb shortfall_runs.rb LIB_DIR < cases.json
#   (LIB_DIR: the ref18xx tools' extracted engine)

require 'json'
require 'set' # Ruby 3.1 does not autoload Set; the site loads it before the engine

lib_dir = ARGV.fetch(0)
$LOAD_PATH.unshift(File.join(lib_dir, 'shim')) # the ref18xx tools' stand-in for the require_all gem
ENV['ENGINE_LOG_LEVEL'] ||= '4'
require File.join(lib_dir, 'lib', 'engine')
LOGGER.level = Logger::FATAL

# The record's actions before the one with this id, or nil when the record has no such action.
def actions_before(record, action_id)
  actions = record['actions'] || []
  at = actions.index { |action| action['id'] == action_id }
  at && actions[0...at]
end

# The engine's verdict on the case's routes in place of the declared run.
def check(case_, records)
  record = records[case_['record']] ||= JSON.parse(File.read(case_['record']))
  before = actions_before(record, case_['action_id'])
  return { 'accepted' => false, 'error' => "the record has no action #{case_['action_id']}" } unless before

  game = Engine::Game.load(record, actions: before)
  if game.exception
    return { 'accepted' => false, 'error' => "the engine refuses the record before the run: #{game.exception.message}" }
  end

  run = { 'type' => 'run_routes', 'entity' => case_['entity'], 'entity_type' => 'corporation',
          'routes' => case_['routes'].map { |route| route.slice('train', 'connections') } }
  game.process_action(run)
  return { 'accepted' => false, 'error' => game.exception.message.to_s } if game.exception

  routes = game.actions.last.routes
  { 'accepted' => true, 'revenues' => routes.map(&:revenue), 'stops' => routes.map(&:revenue_str),
    'total' => game.routes_revenue(routes) }
rescue StandardError => e
  { 'accepted' => false, 'error' => "#{e.class}: #{e.message}" }
end

records = {}
JSON.parse($stdin.read).fetch('cases').each do |case_|
  puts JSON.generate({ 'case' => case_['case'] }.merge(check(case_, records)))
  $stdout.flush
end
