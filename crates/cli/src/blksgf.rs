//! `spielleiter replay export REPLAY --format FORMAT [-o FILE]`: a replay
//! as a game record of another program, in a format its game's folder
//! defines (`blksgf`: Pentobi's, for the classic Blokus games), so that the
//! program opens and analyses the game. The replay is read through the
//! archive (`spielleiter_archive::StoredReplay`); the record is written by
//! the catalogue ([`Replay::record`](spielleiter_protocol::Replay::record)),
//! as the web's viewer offers it for download too.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, ValueEnum};
use spielleiter_archive::{StoredReplay, names};
use spielleiter_protocol::RecordFormat;
use spielleiter_rules::GameType;

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
    let name = args
        .format
        .to_possible_value()
        .context("every format has a name")?;
    let format = RecordFormat::named(name.get_name())?;
    let game = match args.game {
        Some(game) => game,
        None => game_of_file_name(&args.replay).with_context(|| {
            format!(
                "{}: the file name names no game (replay_<gameType>_…); give --game",
                args.replay.display()
            )
        })?,
    };
    let mut stored = StoredReplay::open_path(&args.replay)?;
    stored.game = Some(game);
    let (_, replay) = stored
        .read()
        .with_context(|| format!("{} is no {game} replay", args.replay.display()))?;
    let text = replay
        .record(game, format)
        .with_context(|| format!("{} cannot be exported", args.replay.display()))?;
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
        // Every game, also one whose id begins with another's.
        for &expected in GameType::ALL {
            let id = expected.id();
            assert_eq!(
                game(&format!("out/replay_{id}_2026-11-25_a_b_c.xml")),
                Some(expected)
            );
            assert_eq!(game(&format!("replay_{id}_2026.xml.gz")), Some(expected));
            assert_eq!(game(&format!("replay_{id}.xml")), Some(expected));
        }
        assert_eq!(game("game.xml"), None);
    }
}
