"""The ``gmkit`` command: create a game, take orders, commit and reveal seeds, resolve, report,
verify and export history. Every failure exits non-zero with a one-line reason.

Importing it loads no ruleset and none of the libraries that draw or query (altair, marimo,
duckdb, vl-convert): each command imports what it uses when it runs, and a game loads the one
ruleset it names."""

from gmkit.cli.app import main
import gmkit.cli.folder  # noqa: F401  (each registers its commands on main)
import gmkit.cli.publishing  # noqa: F401
import gmkit.cli.turn  # noqa: F401

__all__ = ["main"]
