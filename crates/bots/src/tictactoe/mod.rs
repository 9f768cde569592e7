//! The bots of the rules crate's tic-tac-toe (feature `test-games`, never
//! in a release build): [`RandomBot`] marks a random empty cell,
//! [`GreedyBot`] completes its own line, else blocks the opponent's, else
//! takes the best free cell (centre, corners, edges).

use rand::RngExt;
use rand_pcg::Pcg64;
use spielleiter_rules::{
    Game, entry,
    tictactoe::{Mark, TicTacToe},
};

use crate::{Bot, BotKind, GameBots};

/// Marks an empty cell drawn uniformly.
#[derive(Debug)]
pub struct RandomBot {
    rng: Pcg64,
}

impl Bot<TicTacToe> for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose_move(&mut self, game: &TicTacToe) -> Mark {
        let mut moves = Vec::new();
        game.for_each_legal_move(|mv| moves.push(mv));
        // A game that is not over has an empty cell.
        moves[self.rng.random_range(0..moves.len())]
    }
}

/// Wins where it can, blocks where it must, else takes the centre, a
/// corner, an edge.
#[derive(Debug, Default)]
pub struct GreedyBot;

/// The cells in the order [`GreedyBot`] prefers them.
const PREFERENCE: [u8; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];

impl Bot<TicTacToe> for GreedyBot {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose_move(&mut self, game: &TicTacToe) -> Mark {
        let me = game.player_to_move().unwrap_or(0);
        let mut moves = Vec::new();
        game.for_each_legal_move(|mv| moves.push(mv));
        // A cell whose mark would give `seat` a line.
        let completes = |seat: usize| {
            moves
                .iter()
                .copied()
                .find(|&mv| game.completes_line(seat, mv))
        };
        completes(me)
            .or_else(|| completes(1 - me))
            .or_else(|| {
                PREFERENCE
                    .iter()
                    .map(|&cell| Mark(cell))
                    .find(|mv| moves.contains(mv))
            })
            .unwrap_or(moves[0])
    }
}

/// The game's bot of `kind`: `random` and `greedy`.
impl GameBots for entry::TestTicTacToe {
    fn bot(kind: BotKind, seed: u64) -> Option<Box<dyn Bot<TicTacToe> + Send>> {
        match kind {
            BotKind::Random => Some(Box::new(RandomBot {
                rng: Pcg64::new(u128::from(seed), 0x6c07_8965_5e3a_2b1d),
            })),
            BotKind::Greedy => Some(Box::new(GreedyBot)),
            BotKind::Illegal => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_wins_then_blocks() {
        let mut game = TicTacToe::default();
        // X 0, O 3, X 1: O must block at 2.
        for cell in [0, 3, 1] {
            game.play(&Mark(cell)).expect("legal");
        }
        assert_eq!(GreedyBot.choose_move(&game), Mark(2));
        // X 0 1, O 3 4: X completes its row at 2.
        game.play(&Mark(4)).expect("legal");
        assert_eq!(GreedyBot.choose_move(&game), Mark(2));
    }

    #[test]
    fn bots_finish_games_with_legal_moves() {
        for seed in 0..20 {
            let mut game = TicTacToe::default();
            let mut bots = [
                <entry::TestTicTacToe as GameBots>::bot(BotKind::Random, seed).expect("random"),
                <entry::TestTicTacToe as GameBots>::bot(BotKind::Greedy, seed).expect("greedy"),
            ];
            while let Some(seat) = game.player_to_move() {
                let mv = bots[seat].choose_move(&game);
                game.play(&mv).expect("bots play legal moves");
            }
        }
    }
}
