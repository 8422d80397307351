"""The documented name of :mod:`gmkit.publish.history` (where the code lives): ``gmkit.history.NAME``
is ``gmkit.publish.history.NAME``."""
from gmkit.publish.history import *  # noqa: F401,F403
from gmkit.publish.history import __all__  # noqa: F401
