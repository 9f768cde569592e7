//! The BLOKUS Champions League game in the terminal: for people, seats
//! with their start corner and cells as points (its board is drawn by the
//! renderer, `spielleiter-render`); and its report in `spielleiter perft`:
//! a move file in its own notation, counted as the Blokus seasons count
//! (one node per distinct kind and fields, stuck players skipped without a
//! node).

use std::fmt::Write as _;

use anyhow::{Context, bail};
use spielleiter_protocol::Decimal;
use spielleiter_rules::{
    blokus::{
        bcl::{Bcl, BclMistake, BclMove, BclPlayer, ParseBclMoveError},
        perft::perft,
    },
    entry,
};

use super::{GameView, Presentation};
use crate::perft::{MoveFileError, PerftArgs, PerftReport, counts, move_file, replay_lines};

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

impl PerftReport for entry::BlokusBcl {
    fn run(args: &PerftArgs) -> anyhow::Result<()> {
        run_bcl(args)
    }
}

/// Plays the moves of a BCL move file's text (one move per line in the
/// rules' notation, `#` comments) from the initial position. A pass of a
/// player the rules have already skipped is accepted, as in game records.
///
/// # Errors
///
/// The first malformed or illegal line.
pub fn replay_bcl(text: &str) -> Result<Bcl, MoveFileError<ParseBclMoveError, BclMistake>> {
    replay_lines(
        Bcl::new(),
        text,
        Bcl::turn,
        str::parse::<BclMove>,
        |game, mv| game.play_recorded(mv).map_err(|m| (m, m.name())),
    )
}

/// The BLOKUS Champions League game: a move file, the fast counter.
fn run_bcl(args: &PerftArgs) -> anyhow::Result<()> {
    if args.seed.is_some()
        || args.start_piece.is_some()
        || args.start_line.is_some()
        || args.by_kind
    {
        bail!("{} takes --moves and --depth only", args.game);
    }
    let (text, source) = move_file(args)?;
    let game = replay_bcl(&text).with_context(|| format!("in {source}"))?;
    print!("{}", bcl_report(&game, args.depth));
    Ok(())
}

/// The BCL report: the position's summary, then perft(1) … perft(depth)
/// with timing.
fn bcl_report(game: &Bcl, depth: u32) -> String {
    let mut out = String::new();
    let status = if game.is_over() { ", game over" } else { "" };
    let _ = writeln!(
        out,
        "turn {}, {} to move{status}",
        game.turn(),
        game.current_player()
    );
    counts(&mut out, depth, |d| perft(game, d));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_named_with_their_start_corner_and_points_are_cells() {
        assert_eq!(BclPresentation.seat(1, "bob"), "bob (TWO, from (9,9))");
        assert_eq!(BclPresentation.points(&[Decimal::integer(51)]), "51 cells");
    }

    #[test]
    fn a_bcl_move_file_takes_every_form() {
        // The rules' perft file's game after 6 blocks, in both forms.
        let text = "ONE BOOMERANG SINGLE NONE 2 0 # place_to\nTWO 9,9\n\
                    ONE CROWBAR DOUBLE HORIZONTAL 4 1\nTWO 5,8 5,9 6,8 6,9 7,8 8,8\n\
                    ONE HANDGUN DOUBLE HORIZONTAL 6 0\nTWO 7,6 8,6 9,6 9,7\n";
        let game = replay_bcl(text).expect("legal moves");
        let report = bcl_report(&game, 2);
        assert!(
            report.starts_with("turn 6, ONE to move\nperft 1 44 ("),
            "{report}"
        );
        assert!(report.contains("\nperft 2 764 ("), "{report}");
        let error = replay_bcl("ONE DOT NONE NONE 0 0\nTWO DOT NONE NONE 0 0\n")
            .expect_err("overlap")
            .to_string();
        assert_eq!(
            error,
            "line 2: `TWO DOT NONE NONE 0 0` is illegal at turn 1: the block would cover an occupied field (OVERLAP)"
        );
        let error = replay_bcl("ONE pass\n")
            .expect_err("a block fits")
            .to_string();
        assert!(error.ends_with("(PASS_WHILE_PLACEMENT_EXISTS)"), "{error}");
        let error = replay_bcl("ONE CIRCLE NONE NONE 0 0\n")
            .expect_err("no such kind")
            .to_string();
        assert!(
            error.starts_with("line 1: `ONE CIRCLE NONE NONE 0 0`: unknown block kind"),
            "{error}"
        );
    }
}
