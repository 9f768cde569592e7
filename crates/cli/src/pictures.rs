//! Pictures of replays: `spielleiter render` draws one position as SVG or
//! PNG, `spielleiter replay show` prints a game move by move with the board
//! in the terminal. Both read replays through the archive
//! (`spielleiter_archive::StoredReplay`), as the web side does, and draw
//! with the one renderer (`spielleiter-render`).

use std::{
    io::IsTerminal,
    path::{Path, PathBuf},
};

use anyhow::{Context, bail};
use clap::{Args, Subcommand, ValueEnum};
use spielleiter_archive::{LoadedReplay, StoredReplay};
use spielleiter_render::{Labels, picture};
use spielleiter_rules::{AnyGame, Game};

use crate::{blksgf, show};

/// `spielleiter render`: one position of a replay as a picture.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// The replay file (`.xml`, or `.xml.gz`).
    replay: PathBuf,
    /// The position at this turn (the first one at or after it) [default:
    /// the last position].
    #[arg(long, value_name = "N")]
    turn: Option<u32>,
    /// Where the picture goes; the name's ending says the format: `.svg` or
    /// `.png`.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// PNG only: pixels per unit of the SVG (2 for a sharper picture).
    #[arg(long, default_value_t = 1.0, value_name = "FACTOR")]
    scale: f32,
}

/// `spielleiter replay …`.
#[derive(Debug, Subcommand)]
pub enum ReplayCommand {
    /// Print a replay move by move, with the board after every move.
    Show(ShowArgs),
    /// Write a replay in another format (classic Blokus: Pentobi's
    /// `.blksgf`).
    Export(blksgf::ExportArgs),
}

/// When to colour the terminal pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// When the output is a terminal.
    Auto,
    /// Always (ANSI colours).
    Always,
    /// Never (letters only).
    Never,
}

/// `spielleiter replay show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The replay file (`.xml`, or `.xml.gz`).
    replay: PathBuf,
    /// Only the position at this turn (the first one at or after it).
    #[arg(long, value_name = "N", conflicts_with = "moves")]
    turn: Option<u32>,
    /// The moves in words, one a line with who made it and its think time
    /// (as the server recorded it), instead of the boards.
    #[arg(long)]
    moves: bool,
    /// Colour the boards.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

fn load(path: &Path) -> anyhow::Result<LoadedReplay> {
    let replay = StoredReplay::open_path(path)?.load()?;
    if replay.positions.is_empty() {
        bail!("{} records no position", path.display());
    }
    Ok(replay)
}

/// The index of the first position at or after `turn`.
fn index_at_turn(replay: &LoadedReplay, turn: u32) -> anyhow::Result<usize> {
    replay
        .positions
        .iter()
        .position(|game| game.turn() >= turn)
        .with_context(|| {
            let last = replay.positions.last().map_or(0, Game::turn);
            format!("the replay ends at turn {last}")
        })
}

/// The labels of position `index`: the names, the move that led there in
/// words (from the position before, so that it names what was taken), and
/// the result under the last position.
fn labels(replay: &LoadedReplay, index: usize) -> Labels {
    let last = index + 1 == replay.positions.len();
    let notes = match (&replay.result, last) {
        (Some(result), true) => vec![format!(
            "result: {}",
            spielleiter_web::views::result(result, &replay.names).summary
        )],
        _ => Vec::new(),
    };
    Labels {
        names: replay.names.clone(),
        notes,
        ended: last && replay.result.is_some(),
        last_move: index
            .checked_sub(1)
            .and_then(|before| replay.positions.get(before))
            .and_then(|before| {
                spielleiter_render::last_move_in_words(before, &replay.positions[index])
            }),
    }
}

/// Draws one position of a replay into a file.
pub fn render(args: &RenderArgs) -> anyhow::Result<()> {
    let replay = load(&args.replay)?;
    let index = match args.turn {
        Some(turn) => index_at_turn(&replay, turn)?,
        None => replay.positions.len() - 1,
    };
    let svg = picture(&replay.positions[index], &labels(&replay, index)).svg();
    let extension = args
        .output
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let bytes = match extension.as_deref() {
        Some("svg") => svg.into_bytes(),
        Some("png") => png(&svg, args.scale)?,
        _ => bail!(
            "{}: the output's name must end in .svg or .png",
            args.output.display()
        ),
    };
    std::fs::write(&args.output, bytes)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    println!(
        "{}: turn {} of {}",
        args.output.display(),
        replay.positions[index].turn(),
        args.replay.display()
    );
    Ok(())
}

/// The SVG as a PNG.
#[cfg(feature = "png")]
fn png(svg: &str, scale: f32) -> anyhow::Result<Vec<u8>> {
    if !spielleiter_render::fonts_available() {
        eprintln!("spielleiter: no fonts found on this system; the PNG has no text");
    }
    Ok(spielleiter_render::png(svg, scale)?)
}

/// Without the feature `png` (the container image's build), only SVG.
#[cfg(not(feature = "png"))]
fn png(_: &str, _: f32) -> anyhow::Result<Vec<u8>> {
    bail!("this build of spielleiter writes no PNG (built without the feature `png`); write .svg")
}

/// The replay's moves, one a line: the turn's number (numbered as the
/// replay viewer numbers them: the turns the rules skipped after a move
/// have lines of their own, so the numbers run on), who made it, the move
/// in words and its think time (`-` where the server recorded none, as in
/// replays of other servers); then each seat's think time in all.
/// Positions no move led to (a paused room records one twice) have no
/// line.
fn move_list(replay: &LoadedReplay) -> String {
    use std::fmt::Write;

    let seats = replay.game.player_count();
    let names: Vec<String> = (0..seats)
        .map(|seat| spielleiter_render::seat_name(&replay.names, seat))
        .collect();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    for (index, pair) in replay.positions.windows(2).enumerate() {
        let [before, after] = pair else { continue };
        let turns = spielleiter_render::turns_in_words(before, after);
        let Some((first, skipped)) = turns.split_first() else {
            continue;
        };
        let mover = replay
            .mover(index + 1)
            .and_then(|seat| names.get(seat))
            .map_or("?", String::as_str);
        let think = replay
            .think_times
            .get(index + 1)
            .copied()
            .flatten()
            .map_or_else(|| "-".to_owned(), think_text);
        let _ = writeln!(
            out,
            "turn {:>3}  {mover:<width$}  {think:>9}  {}",
            first.turn, first.words
        );
        // The turns the rules skipped after the move (a colour that could
        // place nothing), so that the numbers run on as on the pages.
        for turn in skipped {
            let _ = writeln!(
                out,
                "turn {:>3}  {:<width$}  {:>9}  {}",
                turn.turn, "", "", turn.words
            );
        }
    }
    let mut totals = vec![(std::time::Duration::ZERO, 0u32); seats];
    for (seat, think) in replay.seat_think_times() {
        if let Some(total) = totals.get_mut(seat) {
            total.0 += think;
            total.1 += 1;
        }
    }
    let totals: Vec<String> = names
        .iter()
        .zip(&totals)
        .filter(|(_, (_, moves))| *moves > 0)
        .map(|(name, (total, moves))| format!("{name} {} over {moves} moves", think_text(*total)))
        .collect();
    if !totals.is_empty() {
        let _ = writeln!(out, "think time in all: {}", totals.join(", "));
    }
    out
}

/// A think time for people: microseconds below a millisecond,
/// milliseconds below ten seconds, else seconds.
fn think_text(think: std::time::Duration) -> String {
    if think < std::time::Duration::from_millis(1) {
        format!("{} µs", think.as_micros())
    } else if think < std::time::Duration::from_secs(10) {
        format!("{:.1} ms", think.as_secs_f64() * 1000.0)
    } else {
        format!("{:.2} s", think.as_secs_f64())
    }
}

/// Runs a `replay` subcommand.
pub fn replay(command: &ReplayCommand) -> anyhow::Result<()> {
    match command {
        ReplayCommand::Show(args) => show_replay(args),
        ReplayCommand::Export(args) => blksgf::export(args),
    }
}

fn show_replay(args: &ShowArgs) -> anyhow::Result<()> {
    let replay = load(&args.replay)?;
    let color = match args.color {
        ColorChoice::Auto => std::io::stdout().is_terminal(),
        ColorChoice::Always => true,
        ColorChoice::Never => false,
    };
    let indices = match args.turn {
        Some(turn) => {
            let index = index_at_turn(&replay, turn)?;
            index..index + 1
        }
        None => 0..replay.positions.len(),
    };
    let names: Vec<String> = (0..replay.game.player_count())
        .map(|seat| spielleiter_render::seat_name(&replay.names, seat))
        .collect();
    // Printed with `print!`, whose failure on a closed pipe
    // (`replay show … | head`) ends the program quietly (see main.rs).
    println!(
        "{} ({}, room {}): {}; {} positions\n",
        args.replay.display(),
        replay.game,
        replay.room_id.as_deref().unwrap_or("?"),
        names.join(" vs "),
        replay.positions.len()
    );
    if args.moves {
        println!("{}", move_list(&replay));
    } else {
        for index in indices {
            let game: &AnyGame = &replay.positions[index];
            println!("{}", picture(game, &labels(&replay, index)).text(color));
        }
    }
    for error in &replay.errors {
        println!("Error: {error}");
    }
    if let Some(result) = &replay.result {
        print!("{}", show::result_text(replay.game, result, &replay.names));
    }
    Ok(())
}
