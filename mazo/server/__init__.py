"""``mazo serve``: card tables in the browser (an optional extra: ``pip install mazo[server]``).

:func:`mazo.server.app.create_app` builds the ASGI app; the protocol is in docs/protocol.md.
"""
