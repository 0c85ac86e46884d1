# frozen_string_literal: true

# 18xx.games' own engine asked about the better runs of railledger's revenue audit
# (railledger.crosscheck.shortfalls): for each, the game is loaded up to the run_routes action the
# audit found short, and the audit's better routes are sent there in its place, as a player on the
# site would send them, without their revenue, so that the engine checks every route and values it
# itself. Nothing of the engine is here: it is driven through Game.load, process_to_action and
# process_action, the calls the site makes (and its loading flag, set as Game.load sets it).
#
# Each record is loaded once and taken from one short run to the next; each run is sent to a copy
# of the game at its position (a forked child), so the game goes on as the record has it.
#
# Reads on stdin {"cases": [{"case": name, "record": path, "action_id": id, "entity": corporation,
# "routes": [{"train": id, "connections": [[hex, ...], ...]}, ...]}, ...]} and prints one JSON line
# per case: {"case", "accepted": true, "revenues": [each route's revenue], "total": what the run
# pays} or {"case", "accepted": false, "error": why the engine refused the run (or could not reach
# its position)}.
# Usage: ruby -r opal_arity.rb shortfall_runs.rb LIB_DIR < cases.json
#   (LIB_DIR: the ref18xx tools' extracted engine)

require_relative 'reference_engine'
LOGGER.level = Logger::FATAL

# The engine's verdict on one case at the position the game is in, worked out in a child process
# (a copy of the game that costs nothing to make), so that the game itself goes on unchanged to
# the next case: the run is sent as a player on the site sends it.
def verdict_at(game, case_)
  reader, writer = IO.pipe
  child = fork do
    reader.close
    writer.write(JSON.generate(run_in_place(game, case_)))
    writer.close
    exit!(0)
  end
  writer.close
  answer = reader.read
  reader.close
  Process.wait(child)
  answer.empty? ? { 'accepted' => false, 'error' => "the engine stopped (#{$?})" } : JSON.parse(answer)
end

def run_in_place(game, case_)
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

# Every case of one record, in the record's order: the game is loaded once and taken, as loading
# takes it, from each case's position to the next (the record's own actions, undos applied).
def check_record(path, cases)
  record = JSON.parse(File.read(path))
  actions = record['actions'] || []
  places = cases.to_h { |case_| [case_, actions.index { |action| action['id'] == case_['action_id'] }] }
  game = nil
  cases.sort_by { |case_| places[case_] || -1 }.each do |case_|
    at = places[case_]
    answer =
      if at.nil? || at.zero?
        { 'accepted' => false, 'error' => "the record has no action #{case_['action_id']} after its first" }
      else
        before = actions[at - 1]['id']
        if game.nil?
          game = Engine::Game.load(record, at_action: before)
        else
          game.instance_variable_set(:@loading, true) # as Game.load takes it there: the record is trusted
          game.process_to_action(before)
          game.instance_variable_set(:@loading, false)
        end
        if game.exception
          { 'accepted' => false, 'error' => "the engine refuses the record before the run: #{game.exception.message}" }
        else
          verdict_at(game, case_)
        end
      end
    puts JSON.generate({ 'case' => case_['case'] }.merge(answer))
    $stdout.flush
  end
rescue StandardError => e
  cases.each { |case_| puts JSON.generate({ 'case' => case_['case'], 'accepted' => false, 'error' => "#{e.class}: #{e.message}" }) }
end

JSON.parse($stdin.read).fetch('cases').group_by { |case_| case_['record'] }.each do |path, cases|
  check_record(path, cases)
end
