//! The BLOKUS Champions League game for people: seats with their start
//! corner and cells as points. Its board is drawn by the renderer
//! (`spielleiter-render`).

use super::{GameView, Presentation};
use spielleiter_protocol::Decimal;
use spielleiter_rules::{blokus::bcl::BclPlayer, entry};

/// The [`Presentation`] of `blokus_bcl`.
#[derive(Clone, Copy, Debug)]
pub struct BclPresentation;

impl Presentation for BclPresentation {
    fn seat(&self, seat: usize, name: &str) -> String {
        let player = BclPlayer::ALL[seat.min(1)];
        let (row, col) = player.start_corner();
        if name.is_empty() {
            format!("{player} (from ({row},{col}))")
        } else {
            format!("{name} ({player}, from ({row},{col}))")
        }
    }

    fn points(&self, parts: &[Decimal]) -> String {
        let cells = parts
            .first()
            .map_or_else(|| "?".to_owned(), Decimal::to_string);
        format!("{cells} cells")
    }
}

impl GameView for entry::BlokusBcl {
    const PRESENTATION: &'static dyn Presentation = &BclPresentation;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_named_with_their_start_corner_and_points_are_cells() {
        assert_eq!(BclPresentation.seat(1, "bob"), "bob (TWO, from (9,9))");
        assert_eq!(BclPresentation.points(&[Decimal::integer(51)]), "51 cells");
    }
}
