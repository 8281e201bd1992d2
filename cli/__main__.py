"""``python -m hexhop.cli`` runs the ``hexhop`` command."""

from .main import main

main()
