"""gmkit: the game master's kit for play-by-forum strategy games."""

__version__ = "0.1.0"
