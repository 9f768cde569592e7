//! The picture of the three-seat test game (`test_counting`): no board,
//! its seats and totals only.

use spielleiter_rules::entry;

use crate::{GamePicture, Labels, Picture, seat_name, seats_only};

impl GamePicture for entry::TestCounting {
    fn picture(game: &Self::Game, labels: &Labels) -> Picture {
        seats_only(game, spielleiter_rules::GameType::TestCounting, labels)
    }

    /// `TWO adds 3`: the seat whose total grew, by how much.
    fn last_move_in_words(before: &Self::Game, after: &Self::Game) -> Option<String> {
        let (seat, added) = after
            .totals
            .iter()
            .zip(before.totals)
            .enumerate()
            .find_map(|(seat, (&now, then))| (now > then).then(|| (seat, now - then)))?;
        Some(format!("{} adds {added}", seat_name(&[], seat)))
    }
}
