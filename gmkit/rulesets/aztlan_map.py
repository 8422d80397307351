"""The AZTLAN board's facts and checks, now :mod:`gmkit.rulesets.aztlan.board.geography`."""
from gmkit.rulesets.aztlan.board.geography import *  # noqa: F401,F403
