"""A player for Blokus 2027 built as the README of the organisers' Python SDK
(`socha` 5.x) shows: a `Logic` handed to the SDK's `Starter`, which connects,
joins (a bare `<join/>`, or `joinPrepared` with `--reservation`) and calls
the logic until the game is over. The logic plays a random possible move.

One exception: it never places a colour's last piece, but passes instead.
After a colour has placed all its pieces, the official server's state names
the colour in `lastMoveMono` as `<color>`, which this SDK cannot read (it
expects `<sc.plugin2027.Color>`); Spielleiter writes what the official server
writes (protocol/DEVIATIONS.md), so the test keeps away from that state.

Prints one line on the result, for the test script to check.
"""

import random

from socha import GameState, Move
from socha.api.networking.game_client import IClientHandler
from socha.starter import Starter


class Logic(IClientHandler):
    game_state: GameState

    def calculate_move(self) -> Move:
        color = self.game_state.current_color()
        if len(self.game_state.undeployed_piece_shapes(color)) == 1:
            return Move.skip_move(color)
        return random.choice(self.game_state.possible_moves())

    def on_update(self, state: GameState) -> None:
        self.game_state = state

    def on_game_over(self, roomMessage) -> None:
        winner = roomMessage.winner
        print(
            f"RESULT regular={winner.regular} team={winner.team} "
            f"reason={winner.reason}",
            flush=True,
        )


# The SDK asks PyPI for a newer version at start; the test runs offline.
Starter.check_socha_version = staticmethod(lambda: None)

if __name__ == "__main__":
    Starter(Logic())
