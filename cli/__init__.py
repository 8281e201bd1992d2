"""The ``hexhop`` command: thin click commands over notation, engine, render and records."""
