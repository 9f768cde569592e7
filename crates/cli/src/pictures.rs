//! Pictures of replays: `spielleiter render` draws one position as SVG or
//! PNG, `spielleiter replay show` prints a game move by move with the board
//! in the terminal. Both read replays through the replay store, as the web
//! side does, and draw with the one renderer (`spielleiter-render`).

use std::{
    io::IsTerminal,
    path::{Path, PathBuf},
};

use anyhow::{Context, bail};
use clap::{Args, Subcommand, ValueEnum};
use spielleiter_render::{Labels, picture};
use spielleiter_rules::{AnyGame, Game};
use spielleiter_server::replay::archive::{self as replays, LoadedReplay};

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
    #[arg(long, value_name = "N")]
    turn: Option<u32>,
    /// Colour the boards.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

fn load(path: &Path) -> anyhow::Result<LoadedReplay> {
    let replay = replays::load(path)?;
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

/// The labels of position `index`: the names, and the result under the
/// last position.
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
    for index in indices {
        let game: &AnyGame = &replay.positions[index];
        println!("{}", picture(game, &labels(&replay, index)).text(color));
    }
    for error in &replay.errors {
        println!("Error: {error}");
    }
    if let Some(result) = &replay.result {
        print!("{}", show::result_text(replay.game, result, &replay.names));
    }
    Ok(())
}
