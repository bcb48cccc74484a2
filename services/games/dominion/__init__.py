"""Dominion: Rising Sun (on the base game's rules and basic cards)."""

from .game import DominionGame

game = DominionGame()

__all__ = ["DominionGame", "game"]
