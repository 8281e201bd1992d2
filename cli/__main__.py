"""The ``hexhop`` program: ``python -m hexhop.cli`` and the ``hexhop`` script.

Ctrl-C and SIGTERM end the program quietly from its first moment: until
:func:`~.main.main` sets the handlers that clean up, nothing has been
written, so there is nothing to clean up.
"""

import os
import signal


def _quit(signum: int, frame: object) -> None:
    os._exit(128 + signum)


signal.signal(signal.SIGINT, _quit)
signal.signal(signal.SIGTERM, _quit)


def run() -> None:
    from .main import main

    main()


if __name__ == "__main__":
    run()
