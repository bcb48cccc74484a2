"""Game-agnostic bots. They see a game only through the contract in `services.engine`."""

from .bot import Bot, make_bot
from .match import MatchRecord, play_match
from .random_bot import RandomBot

__all__ = ["Bot", "MatchRecord", "RandomBot", "make_bot", "play_match"]
