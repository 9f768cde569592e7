//! The rules crate's tic-tac-toe (feature `test-games`, never in a release
//! build) in the terminal: the plain view and perft's generic count.

use spielleiter_rules::{CatalogueEntry, entry};

use super::{GameView, Plain, Presentation};
use crate::perft::{PerftArgs, PerftReport, generic_report};

impl GameView for entry::TestTicTacToe {
    const PRESENTATION: &'static dyn Presentation = &Plain;
}

impl PerftReport for entry::TestTicTacToe {
    fn run(args: &PerftArgs) -> anyhow::Result<()> {
        generic_report(Self::GAME_TYPE, args)
    }
}
