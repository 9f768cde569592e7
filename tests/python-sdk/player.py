"""A player for Blokus 2027 built as the README of the organisers' Python SDK
(`socha` 5.x) shows: a `Logic` handed to the SDK's `Starter`, which connects,
joins (a bare `<join/>`, or `joinPrepared` with `--reservation`) and calls
the logic until the game is over. The logic plays a random possible move,
from a fixed seed, so that a game against a deterministic opponent is
played the same way each time.

One correction of the SDK, as a team would make it: once a colour has placed
all its pieces, the official server's state names the colour in
`lastMoveMono` as `<color>`, which this SDK's model cannot read (it expects
`<sc.plugin2027.Color>` and stops at the unknown element, ending the
player). Spielleiter writes what the official server writes
(protocol/DEVIATIONS.md), so the player teaches the SDK's model the official
name (`read_official_last_move_mono`) before the SDK starts. Without it the
player left its game as soon as the other team finished a colour.

Prints one line on the result, for the test script to check.
"""

import dataclasses
import random
import types

from socha import GameState, Move
from socha.api.networking.game_client import IClientHandler
from socha.api.protocol.protocol import LastMoveMonoEntry
from socha.starter import Starter

SEED = 2027


def read_official_last_move_mono() -> None:
    """Lets the SDK read a `lastMoveMono` entry's colour as the official
    server writes it: `<color>BLUE</color>`. Must run before the SDK builds
    its XML parser (the parser reads the model's names once)."""
    for field in dataclasses.fields(LastMoveMonoEntry):
        if field.name == "color":
            field.metadata = types.MappingProxyType({**field.metadata, "name": "color"})


class Logic(IClientHandler):
    game_state: GameState

    def __init__(self) -> None:
        self.random = random.Random(SEED)

    def calculate_move(self) -> Move:
        return self.random.choice(self.game_state.possible_moves())

    def on_update(self, state: GameState) -> None:
        self.game_state = state

    def on_game_over(self, roomMessage) -> None:
        winner = roomMessage.winner
        print(
            f"RESULT regular={winner.regular} team={winner.team} "
            f"reason={winner.reason}",
            flush=True,
        )


read_official_last_move_mono()
# The SDK asks PyPI for a newer version at start; the test runs offline.
Starter.check_socha_version = staticmethod(lambda: None)

if __name__ == "__main__":
    Starter(Logic())
