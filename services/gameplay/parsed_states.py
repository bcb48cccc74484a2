"""The states this process parsed or committed last, by their stored JSON text.

A REST move is two requests on one version (legal moves, then the move), and the state a
commit stores is the one the next request loads: without this, each would validate the
same JSON again. Keyed by the text itself, so a hit is exactly the state stored, whatever
changed the record around it. Engine states are never changed in place (`apply` and
`resign` work on a copy, the contract tests check it), so one parsed state can serve
every reader."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from services.engine import Game

SIZE = 256
"""States kept, at most: a few hundred KB to a few MB, for the games being played on this
replica right now."""


class ParsedStates:
    def __init__(self, size: int = SIZE) -> None:
        self._size = size
        self._states: OrderedDict[tuple[str, str], Any] = OrderedDict()

    def load(self, game: Game, text: str) -> Any:
        """The state stored as `text`, parsed (and validated) only if it is not kept."""
        key = (game.id, text)
        state = self._states.get(key)
        if state is not None:
            self._states.move_to_end(key)
            return state
        state = game.load_state(text)
        self.remember(game, text, state)
        return state

    def remember(self, game: Game, text: str, state: Any) -> None:
        """Keep `state`, whose stored text is `text` (it must not change afterwards)."""
        key = (game.id, text)
        self._states[key] = state
        self._states.move_to_end(key)
        while len(self._states) > self._size:
            self._states.popitem(last=False)
