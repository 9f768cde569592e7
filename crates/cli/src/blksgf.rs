//! `spielleiter replay export REPLAY --format blksgf [-o FILE]`: a classic
//! Blokus replay as a game record of Pentobi (`.blksgf`, Pentobi's
//! `Pentobi-SGF.md`), so that Pentobi opens and analyses the game. The
//! record itself is the replay store's
//! ([`spielleiter_server::replay::blksgf`]), which the web's viewer offers
//! for download too.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, ValueEnum};
use spielleiter_rules::GameType;
use spielleiter_server::replay::{archive, blksgf::ClassicRecord, names};

/// The formats `replay export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// Pentobi's Blokus SGF (`.blksgf`), for the classic Blokus games.
    Blksgf,
}

/// `spielleiter replay export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The replay file (`.xml`, or `.xml.gz`).
    replay: PathBuf,
    /// The format written.
    #[arg(long, value_enum)]
    format: ExportFormat,
    /// Where the record goes [default: standard output].
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// The game of the replay [default: the one its file name names,
    /// `replay_<gameType>_…`].
    #[arg(long, value_name = "ID")]
    game: Option<GameType>,
}

/// Writes the replay in the asked format.
pub fn export(args: &ExportArgs) -> anyhow::Result<()> {
    let ExportFormat::Blksgf = args.format;
    let game = match args.game {
        Some(game) => game,
        None => game_of_file_name(&args.replay).with_context(|| {
            format!(
                "{}: the file name names no game (replay_<gameType>_…); give --game",
                args.replay.display()
            )
        })?,
    };
    let replay = archive::read_path(&args.replay, game)
        .with_context(|| format!("{} is no {game} replay", args.replay.display()))?;
    let record = ClassicRecord::of_replay(game, &replay)
        .with_context(|| format!("{} cannot be exported", args.replay.display()))?;
    let text = record.blksgf();
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(())
}

/// The game a replay's file name names, as the replay store reads names.
fn game_of_file_name(path: &std::path::Path) -> Option<GameType> {
    names::game_of_name(&path.file_name()?.to_string_lossy())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_is_read_from_the_file_name() {
        let game = |name: &str| game_of_file_name(std::path::Path::new(name));
        assert_eq!(
            game("out/replay_blokus_classic_3_2026-11-25_a_b_c.xml"),
            Some(GameType::BlokusClassic3)
        );
        assert_eq!(
            game("replay_blokus_classic_2026.xml.gz"),
            Some(GameType::BlokusClassic)
        );
        assert_eq!(
            game("replay_blokus_classic_2.xml"),
            Some(GameType::BlokusClassic2)
        );
        assert_eq!(game("game.xml"), None);
    }
}
