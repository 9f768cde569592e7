//! The picture of the three-seat test game (`test_counting`): no board,
//! its seats and totals only.

use spielleiter_rules::entry;

use crate::{GamePicture, Labels, Picture, seats_only};

impl GamePicture for entry::TestCounting {
    fn picture(game: &Self::Game, labels: &Labels) -> Picture {
        seats_only(game, spielleiter_rules::GameType::TestCounting, labels)
    }
}
