# frozen_string_literal: true

# Loaded into 18xx.games' own engine by `railledger crosscheck` (RUBYOPT=-r this file, or ruby -r)
# when it traces railledger's generated games with ../shared/tools/ref18xx/reftrace and when it
# values the revenue audit's better runs (shortfall_runs.rb). Nothing of that engine is here: only
# the places where plain Ruby and the site's JavaScript build disagree.
#
# The site runs the engine compiled to JavaScript, where a method called with an extra argument
# ignores it. Plain Ruby raises ArgumentError instead, where the site goes on:
# - G18MS::Step::BuyTrain#process_buy_train calls can_sell_anything?(player, entity) on a
#   one-argument method: every 18MS emergency purchase that needs the president's loan.
# - G1871::Game#hex_route_distance calls hex_edge_cost(conn, train) on a one-argument method: the
#   revenue of every route of an 1871 hex train (2H-6H) that the engine computes itself rather
#   than reading it from a record.
# Accept and drop the extra argument, as JavaScript does (refplay shims both the same way).
module RailledgerOpalArity
  def require(path)
    loaded = super
    RailledgerOpalArity.patch if loaded && path.to_s.end_with?('/lib/engine')
    loaded
  end

  def self.patch
    drop_second_argument(Engine::Game::G18MS::Step::BuyTrain, :can_sell_anything?)
    drop_second_argument(Engine::Game::G1871::Game, :hex_edge_cost)
  end

  def self.drop_second_argument(klass, name)
    private = klass.private_method_defined?(name)
    return unless (private || klass.method_defined?(name)) && klass.instance_method(name).arity == 1

    klass.prepend(Module.new do
      define_method(name) { |first, _ignored = nil| super(first) }
      private name if private
    end)
  end
end

Object.prepend(RailledgerOpalArity)
