//! [`GreedyBot`]: the move whose worst reply leaves the best position.

use spielleiter_rules::ostseeschach::{Move, MoveList, Ostseeschach, Team};

use super::no_move::NO_MOVE;
use crate::Bot;

/// The value of a won game (less the turns it took, so that a quick win
/// is preferred); a lost game is worth its negation.
const WIN: i32 = 1_000_000;

/// The value of one amber: more than any difference on the board can be.
const AMBER: i32 = 10_000;

/// The value of a light piece on its own start line; each step forward
/// adds the square of the distance (a piece near the goal line is close to
/// an amber).
const LIGHT_PIECE: i32 = 40;

/// The value of a Robbe, which never scores by itself but captures.
const ROBBE: i32 = 60;

/// Looks two moves ahead, each of its own moves and every reply of the
/// opponent, and plays the move whose worst reply leaves the best position
/// for its team, valued in this order:
///
/// 1. a won game is worth more than anything else, a lost one less;
/// 2. each amber more than the opponent outweighs every difference on the
///    board: the bot takes an amber whenever it can, and never makes a
///    move after which the opponent can take one that another move would
///    have prevented;
/// 3. the pieces on the board, its own counted for and the opponent's
///    against it: a Robbe a fixed amount, a light piece the more the
///    further it has advanced from its own start line (towards an amber,
///    and the tie-break at the end), so that capturing pays and losing a
///    piece costs.
///
/// Among equally good moves it plays the first in the rules' move order, so
/// it is deterministic.
#[derive(Debug)]
pub struct GreedyBot {
    moves: MoveList,
    replies: MoveList,
}

impl GreedyBot {
    /// A greedy bot.
    pub fn new() -> GreedyBot {
        GreedyBot {
            moves: MoveList::new(),
            replies: MoveList::new(),
        }
    }

    /// The value of `game` for `me` after the opponent's best reply, or
    /// at once if the game is over. Stops looking as soon as a reply
    /// brings the value to `cut` or below (the move is then no better than
    /// one already found).
    fn after_best_reply(&mut self, game: &Ostseeschach, me: Team, cut: Option<i32>) -> i32 {
        if game.is_over() {
            return value(game, me);
        }
        game.legal_moves(&mut self.replies);
        let mut worst = i32::MAX;
        for reply in &self.replies {
            let mut after = game.clone();
            after.play_unchecked(&reply);
            worst = worst.min(value(&after, me));
            if cut.is_some_and(|cut| worst <= cut) {
                break;
            }
        }
        worst
    }
}

impl Default for GreedyBot {
    fn default() -> GreedyBot {
        GreedyBot::new()
    }
}

/// The value of `game` for team `me` (see [`GreedyBot`]).
fn value(game: &Ostseeschach, me: Team) -> i32 {
    if let Some(outcome) = game.outcome() {
        let quick = game.turn() as i32;
        return match outcome.winner {
            Some(winner) if winner == me => WIN - quick,
            Some(_) => quick - WIN,
            None => 0,
        };
    }
    let opponent = me.opponent();
    let mut total = AMBER * (game.ambers(me) as i32 - game.ambers(opponent) as i32);
    for (field, piece) in game.pieces() {
        let worth = if piece.kind.is_light() {
            let advanced = (field.x - piece.team.start_line()).abs();
            LIGHT_PIECE + advanced * advanced
        } else {
            ROBBE
        };
        total += if piece.team == me { worth } else { -worth };
    }
    total
}

impl Bot<Ostseeschach> for GreedyBot {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose_move(&mut self, game: &Ostseeschach) -> Move {
        let me = game.team_to_move();
        game.legal_moves(&mut self.moves);
        let moves = std::mem::take(&mut self.moves);
        let mut best: Option<(i32, Move)> = None;
        for mv in &moves {
            let mut after = game.clone();
            after.play_unchecked(&mv);
            let worth = self.after_best_reply(&after, me, best.map(|(v, _)| v));
            if best.is_none_or(|(v, _)| worth > v) {
                best = Some((worth, mv));
            }
        }
        self.moves = moves;
        best.map_or(NO_MOVE, |(_, mv)| mv)
    }
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::ostseeschach::{Piece, PieceKind, Setup};

    use super::*;

    fn position(turn: u32, pieces: &[(usize, usize, PieceKind, Team, u8)]) -> Ostseeschach {
        let mut setup = Setup::empty();
        setup.turn = turn;
        for &(x, y, kind, team, count) in pieces {
            setup.set(x, y, Some(Piece { kind, team, count }));
        }
        Ostseeschach::from_setup(&setup).expect("a consistent position")
    }

    #[test]
    fn it_takes_an_amber_when_it_can() {
        // ONE's Moewe on (6, 3) steps onto TWO's start line: an amber. Its
        // Robbe on (2, 2) could capture TWO's Robbe instead (which may take
        // it in return after the amber).
        let game = position(
            10,
            &[
                (6, 3, PieceKind::Moewe, Team::One, 1),
                (2, 2, PieceKind::Robbe, Team::One, 1),
                (0, 0, PieceKind::Robbe, Team::One, 1),
                (3, 4, PieceKind::Robbe, Team::Two, 1),
                (7, 0, PieceKind::Robbe, Team::Two, 1),
            ],
        );
        let mv = GreedyBot::new().choose_move(&game);
        assert_eq!(mv, Move::new(6, 3, 7, 3));
    }

    #[test]
    fn it_does_not_give_an_amber_away() {
        // ONE's tower on (3, 3) (a Moewe on top) is attacked by TWO's
        // Robbe on (5, 4): capturing it would make a stack of three, an
        // amber for TWO. Only a step of the tower saves it; no step lands
        // where a TWO piece reaches.
        let game = position(
            10,
            &[
                (3, 3, PieceKind::Moewe, Team::One, 2),
                (0, 0, PieceKind::Robbe, Team::One, 1),
                (5, 4, PieceKind::Robbe, Team::Two, 1),
                (7, 7, PieceKind::Robbe, Team::Two, 1),
            ],
        );
        let mv = GreedyBot::new().choose_move(&game);
        assert_eq!((mv.from.x, mv.from.y), (3, 3), "{mv}");
        let mut after = game.clone();
        after.play(&mv).expect("legal");
        let mut replies = MoveList::new();
        after.legal_moves(&mut replies);
        for reply in &replies {
            let mut next = after.clone();
            next.play(&reply).expect("legal");
            assert_eq!(next.ambers(Team::Two), 0, "{mv} lets {reply} score");
        }
    }

    /// Plays one game of `one` against `two` from a random start line.
    fn game(
        one: &mut dyn Bot<Ostseeschach>,
        two: &mut dyn Bot<Ostseeschach>,
        rng: &mut rand_pcg::Pcg64,
    ) -> Ostseeschach {
        let mut game = Ostseeschach::random(rng);
        while !game.is_over() {
            let mv = match game.team_to_move() {
                Team::One => one.choose_move(&game),
                Team::Two => two.choose_move(&game),
            };
            game.play(&mv).expect("bots play legal moves");
        }
        game
    }

    #[test]
    fn it_beats_random_in_at_least_90_percent_of_200_games() {
        let mut rng = rand_pcg::Pcg64::new(2022, 0x5851_f42d_4c95_7f2d);
        let mut wins = 0;
        for round in 0..200u64 {
            let mut greedy = GreedyBot::new();
            let mut random = super::super::RandomBot::new(rand_pcg::Pcg64::new(round.into(), 1));
            // Seats alternate: greedy is ONE in even rounds, TWO in odd.
            let greedy_team = Team::ALL[(round % 2) as usize];
            let end = if greedy_team == Team::One {
                game(&mut greedy, &mut random, &mut rng)
            } else {
                game(&mut random, &mut greedy, &mut rng)
            };
            if end.winner() == Some(greedy_team) {
                wins += 1;
            }
        }
        assert!(wins >= 180, "greedy won only {wins} of 200 games");
    }
}
