"""``python -m hexhop.messages``: compile the catalogues (``--pot FILE``:
write a template of every message id instead)."""

import sys

from .catalogue import main

sys.exit(main(sys.argv[1:]))
