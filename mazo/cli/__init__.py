"""The ``mazo`` command line: ``mazo play | sim | replay | bench`` (see :mod:`mazo.cli.main`).

Each subcommand is a module with ``add_parser(subparsers)`` and ``run(args) -> int``.
"""
