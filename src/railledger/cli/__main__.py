"""Where the ``railledger`` command starts: the installed script calls :func:`main`, and so does
``python -m railledger``.

The start imports typer and the modules that declare the commands: tens of thousands of objects
the cyclic garbage collector tracks (modules' dicts, classes, functions, option declarations), all
living as long as the process. The collector would walk them many times while they are made, and
once more at exit, finding nothing to free; so it is off while they are made, and they are then
frozen (``gc.freeze``: kept out of every later collection) before it is on again for the command's
own work, whose garbage it collects as usual. The little garbage the imports leave (a few hundred
objects, under 100 KB) is frozen with them and kept to the end.
"""

import gc


def main() -> None:
    gc.disable()
    from railledger.cli.app import main as run_command_line

    gc.freeze()
    gc.enable()
    run_command_line()


if __name__ == "__main__":
    main()
