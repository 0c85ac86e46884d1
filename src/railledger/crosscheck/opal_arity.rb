# frozen_string_literal: true

# Loaded into 18xx.games' own engine by `railledger crosscheck` (RUBYOPT=-r this file) when it
# traces railledger's generated games with ../shared/tools/ref18xx/reftrace. Nothing of that
# engine is here: only the one place where plain Ruby and the site's JavaScript build disagree.
#
# The site runs the engine compiled to JavaScript, where a method called with an extra argument
# ignores it. G18MS::Step::BuyTrain#process_buy_train calls can_sell_anything?(player, entity) on
# a one-argument method, so in plain Ruby every 18MS emergency purchase that needs the
# president's loan raises ArgumentError, while the site accepts it. Accept and drop the extra
# argument, as JavaScript does (refplay shims G1871#hex_edge_cost the same way).
module RailledgerOpalArity
  def require(path)
    loaded = super
    RailledgerOpalArity.patch if loaded && path.to_s.end_with?('/lib/engine')
    loaded
  end

  def self.patch
    step = Engine::Game::G18MS::Step::BuyTrain
    return unless step.private_method_defined?(:can_sell_anything?) &&
                  step.instance_method(:can_sell_anything?).arity == 1

    step.prepend(Module.new do
      private

      def can_sell_anything?(player, _entity = nil)
        super(player)
      end
    end)
  end
end

Object.prepend(RailledgerOpalArity)
