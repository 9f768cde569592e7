//! [`GreedyBot`]: the largest piece, where it keeps the most room to grow.

use spielleiter_rules::blokus::{Board, Color, Move, MoveList, Placement};

use super::game::{BlokusGame, free_corners};
use crate::Bot;

/// Places the largest piece it can, choosing among the placements of that
/// size by, in this order:
///
/// 1. the most free corners its colour has afterwards: empty fields
///    diagonally next to the colour that share no edge with it, i.e. the
///    fields where its next pieces can start;
/// 2. the most such corner fields of the opponents' colours covered, which
///    takes them away from the opponents;
/// 3. the first in the rules' move-list order (so the bot is deterministic).
///
/// Big pieces first is the classic Blokus rule of thumb: small pieces fit
/// into gaps late in the game, big ones do not. Passes only when nothing
/// fits.
#[derive(Debug)]
pub struct GreedyBot {
    moves: MoveList,
}

impl GreedyBot {
    /// A greedy bot.
    pub fn new() -> GreedyBot {
        GreedyBot {
            moves: MoveList::new(),
        }
    }
}

impl Default for GreedyBot {
    fn default() -> GreedyBot {
        GreedyBot::new()
    }
}

fn cells(placement: &Placement) -> Board {
    placement
        .cells()
        .map(|(x, y)| (x as usize, y as usize))
        .collect()
}

/// The evaluation of one placement, compared lexicographically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Score {
    size: u32,
    own_corners: u32,
    blocked: u32,
}

impl<G: BlokusGame> Bot<G> for GreedyBot {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose_move(&mut self, game: &G) -> Move {
        let color = game.current_color();
        game.legal_moves(&mut self.moves);
        let Some(largest) = self.moves.iter().map(|p| p.kind.size()).max() else {
            return Move::Skip(color);
        };
        let own = game.fields(color);
        let occupied = game.occupied();
        let opponent_corners = game
            .opponents(color)
            .iter()
            .fold(Board::EMPTY, |all, c: Color| {
                all | free_corners(game.fields(c), occupied)
            });
        let mut best: Option<(Score, Placement)> = None;
        for placement in self.moves.iter().filter(|p| p.kind.size() == largest) {
            let piece = cells(&placement);
            let score = Score {
                size: largest,
                own_corners: free_corners(&(*own | piece), &(*occupied | piece)).count(),
                blocked: (piece & opponent_corners).count(),
            };
            if best.is_none_or(|(top, _)| score > top) {
                best = Some((score, placement));
            }
        }
        match best {
            Some((_, placement)) => Move::Set(placement),
            None => Move::Skip(color),
        }
    }
}

#[cfg(test)]
mod tests {
    use rand_pcg::Pcg64;
    use spielleiter_rules::blokus::{Blokus, PieceKind, Team};

    use super::*;
    use crate::blokus::RandomBot;

    /// The corner count of `mv` computed the long way: play it and look at
    /// the resulting position.
    fn corners_after(game: &Blokus, mv: &Move) -> u32 {
        let color = game.current_color();
        let mut after = game.clone();
        after.play(mv).expect("legal");
        free_corners(after.fields(color), after.occupied()).count()
    }

    /// Plays random moves from the start to get a middle-game position.
    fn middle_game(seed: u128, turns: u32) -> Blokus {
        let mut game = Blokus::new(PieceKind::PentoT);
        let mut random = RandomBot::new(Pcg64::new(seed, 1));
        while game.turn() < turns && !game.is_over() {
            let mv = random.choose_move(&game);
            game.play(&mv).expect("legal");
        }
        game
    }

    #[test]
    fn plays_a_largest_piece_with_the_most_free_corners() {
        for seed in 0..20 {
            let game = middle_game(seed, 12 + seed as u32);
            if game.is_over() {
                continue;
            }
            let chosen = GreedyBot::new().choose_move(&game);
            let Move::Set(placement) = chosen else {
                panic!("a piece fits, so the bot places one");
            };
            let mut all = MoveList::new();
            game.legal_moves(&mut all);
            let largest = all.iter().map(|p| p.kind.size()).max().expect("moves");
            assert_eq!(placement.kind.size(), largest);
            let best = all
                .iter()
                .filter(|p| p.kind.size() == largest)
                .map(|p| corners_after(&game, &Move::Set(p)))
                .max()
                .expect("moves");
            assert_eq!(corners_after(&game, &chosen), best);
        }
    }

    #[test]
    fn greedy_beats_random_almost_always() {
        let (mut greedy_wins, games) = (0, 12);
        for seed in 0..games {
            let greedy_team = if seed % 2 == 0 { Team::One } else { Team::Two };
            let mut greedy = GreedyBot::new();
            let mut random = RandomBot::new(Pcg64::new(seed, 3));
            let mut game = Blokus::new(PieceKind::START_PIECES[seed as usize % 11]);
            while !game.is_over() {
                let mv = if game.current_team() == greedy_team {
                    greedy.choose_move(&game)
                } else {
                    random.choose_move(&game)
                };
                game.play(&mv).expect("bots play legal moves");
            }
            if game.team_points(greedy_team) > game.team_points(greedy_team.opponent()) {
                greedy_wins += 1;
            }
        }
        assert!(
            greedy_wins >= 10,
            "greedy won only {greedy_wins} of {games}"
        );
    }

    #[test]
    fn passes_only_when_the_game_offers_nothing() {
        let mut game = Blokus::new(PieceKind::PentoX);
        // PENTO_X cannot cover a corner: nobody can move and the game is over.
        assert!(game.is_over());
        assert_eq!(
            GreedyBot::new().choose_move(&game),
            Move::Skip(game.current_color())
        );
        game = Blokus::new(PieceKind::PentoV);
        assert!(matches!(GreedyBot::new().choose_move(&game), Move::Set(_)));
    }
}
