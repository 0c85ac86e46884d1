# Loads 18xx.games' engine for the drivers beside this file (undo_filter.rb, shortfall_runs.rb),
# from the ref18xx tools' extracted copy named by the first argument (LIB_DIR), with its log quiet.

require 'json'
require 'set' # Ruby 3.1 does not autoload Set; the site loads it before the engine

lib_dir = ARGV.fetch(0)
$LOAD_PATH.unshift(File.join(lib_dir, 'shim')) # the ref18xx tools' stand-in for the require_all gem
ENV['ENGINE_LOG_LEVEL'] ||= '4'
require File.join(lib_dir, 'lib', 'engine')
