//! Ostseeschach as the server drives it: the [`Game`] implementation (seat
//! 0 is team ONE, seat 1 team TWO) and the catalogue's constructor.
//!
//! A team to move without a legal move ends the game: there is no pass, so
//! it loses ([`EndReason::NoMove`](super::EndReason::NoMove)), and the
//! server never asks a player who cannot move. The official server asks
//! anyway and lets the player lose by an invalid move or a timeout
//! (`ostseeschach-2022.md` §9); the server's documentation lists this as
//! a deviation.

use rand_core::Rng;

use super::{Mistake, Move, MoveList, Ostseeschach};
use crate::{
    game::{Game, PlayerSet, ScoreParts},
    team::Team,
};

/// A new game with a random start line (the catalogue's constructor for
/// `swc_2022_ostseeschach`).
pub fn new_random_game<R: Rng + ?Sized>(rng: &mut R) -> Ostseeschach {
    Ostseeschach::random(rng)
}

impl Game for Ostseeschach {
    type Move = Move;
    type Mistake = Mistake;

    fn player_count(&self) -> usize {
        Team::ALL.len()
    }

    fn turn(&self) -> u32 {
        Ostseeschach::turn(self)
    }

    fn player_to_move(&self) -> Option<usize> {
        self.has_legal_move().then(|| self.team_to_move().index())
    }

    fn play(&mut self, mv: &Move) -> Result<(), Mistake> {
        Ostseeschach::play(self, mv)
    }

    fn is_over(&self) -> bool {
        Ostseeschach::is_over(self)
    }

    fn has_legal_move(&self) -> bool {
        Ostseeschach::has_legal_move(self)
    }

    fn for_each_legal_move(&self, f: impl FnMut(Move)) {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.iter().for_each(f);
    }

    /// Two parts, as the official definition after the win points: the
    /// seat's ambers (`Bernsteine`) and its light pieces' lead
    /// (`Leichtfiguren Vorne`).
    ///
    /// # Panics
    ///
    /// If `seat` is not 0 or 1.
    fn score(&self, seat: usize) -> ScoreParts {
        ScoreParts::new(&self.score_parts(Team::ALL[seat]).map(i64::from))
    }

    /// The winner by ambers, then by the light pieces' positions, or both
    /// seats on a draw; a team that cannot move loses. No seat while the
    /// game runs.
    fn winners(&self) -> PlayerSet {
        match self.outcome() {
            Some(outcome) => match outcome.winner {
                Some(team) => PlayerSet::single(team.index()),
                None => PlayerSet::first(Team::ALL.len()),
            },
            None => PlayerSet::EMPTY,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ostseeschach::{EndReason, Piece, PieceKind, Setup, StartLine};

    #[test]
    fn seats_take_turns_and_every_listed_move_is_legal() {
        let mut game = Ostseeschach::new(StartLine::UNSHUFFLED);
        assert_eq!((game.player_count(), game.player_to_move()), (2, Some(0)));
        let mut moves = Vec::new();
        game.for_each_legal_move(|mv| moves.push(mv));
        assert_eq!(moves.len(), game.count_legal_moves());
        assert!(moves.iter().all(|mv| game.is_legal(mv).is_ok()));
        Game::play(&mut game, &moves[0]).expect("legal");
        assert_eq!((Game::turn(&game), game.player_to_move()), (1, Some(1)));
        assert_eq!(
            Game::play(&mut game, &Move::new(0, 0, 1, 0)),
            Err(Mistake::WrongColor)
        );
        assert_eq!(game.score(0).as_slice(), [0, i64::from(moves[0].to.x)]);
        assert_eq!(game.winners(), PlayerSet::EMPTY);
    }

    #[test]
    fn a_team_that_cannot_move_loses_and_is_not_asked() {
        // ONE has just captured TWO's last piece; TWO is to move with
        // nothing left to move.
        let mut setup = Setup::empty();
        setup.turn = 41;
        setup.ambers.0 = [1, 1];
        setup.set(
            3,
            3,
            Some(Piece {
                count: 2,
                ..Piece::new(PieceKind::Moewe, Team::One)
            }),
        );
        let game = Ostseeschach::from_setup(&setup).expect("a consistent position");
        assert_eq!(game.end_reason(), Some(EndReason::NoMove));
        assert!(Game::is_over(&game) && !Game::has_legal_move(&game));
        assert_eq!(game.player_to_move(), None);
        assert_eq!(game.winners(), PlayerSet::single(0));
        let mut moves = 0;
        game.for_each_legal_move(|_| moves += 1);
        assert_eq!(moves, 0);
    }

    #[test]
    fn a_regular_draw_names_both_seats() {
        // Round 30 is over with equal ambers and no light piece ahead.
        let mut setup = Setup::empty();
        setup.turn = 60;
        setup.set(0, 0, Some(Piece::new(PieceKind::Robbe, Team::One)));
        setup.set(7, 7, Some(Piece::new(PieceKind::Robbe, Team::Two)));
        let game = Ostseeschach::from_setup(&setup).expect("a consistent position");
        assert_eq!(game.end_reason(), Some(EndReason::RoundLimit));
        assert_eq!(game.winners(), PlayerSet::first(2));
        assert_eq!(game.score(1).as_slice(), [0, 0]);
    }

    #[test]
    fn the_catalogue_constructor_deals_a_fresh_game() {
        let mut rng = rand_pcg::Pcg64::new(3, 5);
        let game = new_random_game(&mut rng);
        assert_eq!(Game::turn(&game), 0);
        assert_eq!(game.piece_count(Team::One), 8);
        assert_eq!(game.piece_count(Team::Two), 8);
    }
}
