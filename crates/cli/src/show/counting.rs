//! The three-seat test game (`test_counting`) in the terminal: the plain
//! view and perft's generic count.

use spielleiter_rules::{CatalogueEntry, entry};

use super::{GameView, Plain, Presentation};
use crate::perft::{PerftArgs, PerftReport, generic_report};

impl GameView for entry::TestCounting {
    const PRESENTATION: &'static dyn Presentation = &Plain;
}

impl PerftReport for entry::TestCounting {
    fn run(args: &PerftArgs) -> anyhow::Result<()> {
        generic_report(Self::GAME_TYPE, args)
    }
}
