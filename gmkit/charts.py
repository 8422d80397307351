"""The documented name of :mod:`gmkit.publish.charts` (where the code lives): ``gmkit.charts.NAME``
is ``gmkit.publish.charts.NAME``."""
from gmkit.publish.charts import *  # noqa: F401,F403
from gmkit.publish.charts import __all__  # noqa: F401
