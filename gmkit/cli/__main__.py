"""``python -m gmkit.cli``: the ``gmkit`` command."""

from gmkit.cli import main

main()
