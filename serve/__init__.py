"""``hexhop serve``: the archive as a local web application.

Starlette (with uvicorn and Jinja2, the ``serve`` extra) over the SQLite
index: the archive's search, the game pages with the viewer's drawings,
players, events, and the editor. Nothing here knows the rules: legal
actions, canonical text and findings come from the engine and the checker.

    from hexhop.serve.app import create_app
    from hexhop.serve.settings import Settings
"""
