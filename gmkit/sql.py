"""The documented name of :mod:`gmkit.publish.sql` (where the code lives): ``gmkit.sql.NAME``
is ``gmkit.publish.sql.NAME``."""
from gmkit.publish.sql import *  # noqa: F401,F403
from gmkit.publish.sql import __all__  # noqa: F401
