//! The BLOKUS Champions League game for people: seats with their start
//! corner, cells as points, and the board with (row, col) coordinates.

use std::fmt::Write;

use spielleiter_protocol::Decimal;
use spielleiter_rules::{
    AnyGame,
    blokus::bcl::{BCL_BOARD_SIZE, Bcl, BclPlayer},
};

use super::Presentation;

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

    fn picture(&self, game: &AnyGame) -> Option<String> {
        let AnyGame::BlokusBcl(game) = game else {
            return None;
        };
        let status = |player: BclPlayer| {
            game.out_reason(player)
                .map_or("in the game", |reason| reason.name())
        };
        Some(format!(
            "The game ended after {} turns; ONE: {} cells, {}; TWO: {} cells, {}.\n\n{}    1: ONE · 2: TWO\n",
            game.turn(),
            game.points(BclPlayer::One),
            status(BclPlayer::One),
            game.points(BclPlayer::Two),
            status(BclPlayer::Two),
            board_picture(game)
        ))
    }
}

/// The board with column numbers on top and row numbers on the left;
/// `1` and `2` for the players' blocks, `.` for an empty field.
pub fn board_picture(game: &Bcl) -> String {
    let mut out = String::from("    ");
    for col in 0..BCL_BOARD_SIZE {
        let _ = write!(out, "{col}");
    }
    out.push('\n');
    for row in 0..BCL_BOARD_SIZE as i32 {
        let _ = write!(out, "{row:>2}  ");
        for col in 0..BCL_BOARD_SIZE as i32 {
            out.push(match game.player_at(row, col) {
                Some(BclPlayer::One) => '1',
                Some(BclPlayer::Two) => '2',
                None => '.',
            });
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::blokus::bcl::BclMove;

    use super::*;

    #[test]
    fn the_board_shows_blocks_with_coordinates() {
        let mut game = Bcl::new();
        let shotgun: BclMove = "ONE SHOTGUN SINGLE NONE 3 0".parse().expect("a move");
        game.play(&shotgun).expect("legal");
        let picture = board_picture(&game);
        let lines: Vec<&str> = picture.lines().collect();
        assert_eq!(lines.len(), 1 + BCL_BOARD_SIZE);
        assert_eq!(lines[0], "    0123456789");
        assert_eq!(lines[1], " 0  11........");
        assert_eq!(lines[4], " 3  .1........");
        assert_eq!(picture.matches('1').count() - 2, 6);
        let text = BclPresentation
            .picture(&AnyGame::BlokusBcl(game))
            .expect("a picture");
        assert!(text.starts_with("The game ended after 1 turns; ONE: 6 cells, in the game;"));
        assert_eq!(BclPresentation.seat(1, "bob"), "bob (TWO, from (9,9))");
        assert_eq!(BclPresentation.points(&[Decimal::integer(51)]), "51 cells");
    }
}
