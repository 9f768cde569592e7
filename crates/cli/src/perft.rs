//! `spielleiter perft`: replays a move file from the empty Blokus 2021 board
//! and counts the placement sequences of each length up to a depth.
//!
//! Counting rules are those of `spielleiter_rules::blokus::perft`: one node
//! per distinct placement, no voluntary skips, stuck colours removed without
//! a node, nothing counted past the end of the game.

use std::{fmt::Write as _, path::PathBuf, time::Instant};

use anyhow::Context;
use clap::Args;
use spielleiter_rules::blokus::{
    Blokus, Mistake, Move, PieceKind,
    notation::ParseMoveError,
    perft::{perft, perft_by_kind},
};

/// Arguments of `spielleiter perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The start piece shared by all colours, e.g. PENTO_L.
    #[arg(long, value_parser = parse_kind)]
    start_piece: PieceKind,
    /// A file of moves to play first, one per line:
    /// `COLOR KIND ROTATION FLIPPED X Y` or `COLOR SKIP`; blank lines and
    /// `#` comments are ignored.
    #[arg(long)]
    moves: Option<PathBuf>,
    /// Count up to this many placements deep.
    #[arg(long)]
    depth: u32,
    /// Also split perft(1) by piece kind.
    #[arg(long)]
    by_kind: bool,
}

fn parse_kind(name: &str) -> Result<PieceKind, String> {
    name.parse()
        .map_err(|_| format!("unknown piece kind `{name}` (e.g. PENTO_L)"))
}

/// A move file line that cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum MoveFileError {
    /// The line is not a move in the text form.
    #[error("line {line}: `{text}`: {source}")]
    Malformed {
        /// 1-based line number.
        line: usize,
        /// The line, trimmed.
        text: String,
        /// What is wrong with it.
        source: ParseMoveError,
    },
    /// The move is illegal in the position reached.
    #[error("line {line}: `{text}` is illegal at turn {turn}: {mistake} ({})", mistake.name())]
    Illegal {
        /// 1-based line number.
        line: usize,
        /// The line, trimmed.
        text: String,
        /// The turn at which it was tried.
        turn: u32,
        /// Why it is illegal.
        mistake: Mistake,
    },
}

/// Plays the moves of a move file's text from the initial position.
///
/// # Errors
///
/// The first malformed or illegal line.
pub fn replay(start_piece: PieceKind, text: &str) -> Result<Blokus, MoveFileError> {
    let mut game = Blokus::new(start_piece);
    for (index, raw) in text.lines().enumerate() {
        let content = raw.split('#').next().unwrap_or_default().trim();
        if content.is_empty() {
            continue;
        }
        let line = index + 1;
        let mv: Move = content.parse().map_err(|source| MoveFileError::Malformed {
            line,
            text: content.to_owned(),
            source,
        })?;
        game.play(&mv).map_err(|mistake| MoveFileError::Illegal {
            line,
            text: content.to_owned(),
            turn: game.turn(),
            mistake,
        })?;
    }
    Ok(game)
}

/// Runs the subcommand, printing to stdout.
///
/// # Errors
///
/// An unreadable, malformed or illegal move file.
pub fn run(args: &PerftArgs) -> anyhow::Result<()> {
    let text = match &args.moves {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read move file {}", path.display()))?,
        None => String::new(),
    };
    let source = args
        .moves
        .as_ref()
        .map_or_else(|| "(no move file)".to_owned(), |p| p.display().to_string());
    let game = replay(args.start_piece, &text).with_context(|| format!("in {source}"))?;
    print!("{}", report(&game, args.depth, args.by_kind));
    Ok(())
}

/// The report: the position's summary, perft(1) … perft(depth) with timing,
/// and optionally perft(1) by kind.
fn report(game: &Blokus, depth: u32, by_kind: bool) -> String {
    let mut out = String::new();
    let status = if game.is_over() { ", game over" } else { "" };
    let _ = writeln!(
        out,
        "start piece {}, turn {}, round {}, {} to move{status}",
        game.start_piece(),
        game.turn(),
        game.round(),
        game.current_color()
    );
    for d in 1..=depth {
        let started = Instant::now();
        let nodes = perft(game, d);
        let seconds = started.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        };
        let _ = writeln!(out, "perft {d} {nodes} ({seconds:.3} s, {rate:.0} nodes/s)");
    }
    if by_kind {
        for (kind, count) in PieceKind::ALL.iter().zip(perft_by_kind(game)) {
            if count > 0 {
                let _ = writeln!(out, "{} {count}", kind.name());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_file_with_comments_and_blank_lines_replays() {
        let text = "# opening\n\nBLUE PENTO_L LEFT false 16 0 # top right\nYELLOW PENTO_L NONE false 0 0\n";
        let game = replay(PieceKind::PentoL, text).expect("legal moves");
        assert_eq!(game.turn(), 2);
        let report = report(&game, 1, true);
        assert!(report.starts_with("start piece PENTO_L, turn 2, round 1, RED to move\nperft 1 "));
        assert!(report.contains("\nPENTO_L "));
    }

    #[test]
    fn errors_name_the_line() {
        let malformed = replay(PieceKind::PentoL, "\nBLUE PENTO_L SIDEWAYS false 0 0\n");
        let error = malformed.expect_err("bad rotation").to_string();
        assert!(
            error.starts_with("line 2: `BLUE PENTO_L SIDEWAYS false 0 0`: unknown rotation"),
            "{error}"
        );

        let illegal = replay(
            PieceKind::PentoL,
            "BLUE PENTO_L NONE false 0 0\nBLUE SKIP\n",
        );
        let error = illegal.expect_err("wrong colour").to_string();
        assert_eq!(
            error,
            "line 2: `BLUE SKIP` is illegal at turn 1: the move's colour is not on turn (WRONG_COLOR)"
        );
    }
}
