//! The cases every [`GameArchive`] backend passes, for the backends' own
//! tests: the directory's here, SQLite's and PostgreSQL's in the season
//! crate, so that the three cannot drift apart. Each case panics with what
//! differs.

use std::time::SystemTime;

use crate::{
    game_archive::{ArchiveError, Fence, FinishedGame, GameArchive, Stored, StoredBytes},
    record::{Cause, GameRecord, ThinkTimes},
};

/// A finished game of `players` with a replay, a wire log and a log for
/// every player but the last (a built-in bot's: none).
pub fn sample_game(players: &[&str]) -> FinishedGame {
    let count = players.len();
    let record = GameRecord {
        game: 1,
        game_type: "swc_2021_blokus".to_owned(),
        players: players.iter().map(|&p| p.to_owned()).collect(),
        commands: players.iter().map(|p| format!("./{p}")).collect(),
        starter: 1,
        win_points: (0..count).map(|i| if i == 0 { 2 } else { 0 }).collect(),
        points: (0..count).map(|i| 50 - i as u32).collect(),
        causes: vec![Cause::Regular; count],
        reasons: vec![String::new(); count],
        duration_ms: 1234,
        room: format!(
            "room-{}",
            SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ),
        replay: None,
        think_times: vec![
            ThinkTimes {
                moves: 3,
                total_micros: 4500,
                max_micros: 2000,
            };
            count
        ],
    };
    let replay = format!(
        "<protocol>\n<room roomId=\"{}\">\n  <data class=\"x\"/>\n</room>\n</protocol>",
        record.room
    );
    FinishedGame {
        player_logs: (0..count)
            .map(|i| (i + 1 < count).then(|| format!("player {i} says hello\n").into_bytes()))
            .collect(),
        wire_log: Some(b"# Spielleiter wire log\nseat 0 (a): 5 bytes received\n".to_vec()),
        replay: Some(replay.into_bytes()),
        record,
    }
}

fn text(bytes: StoredBytes) -> Vec<u8> {
    bytes.read_all(1 << 24).expect("readable")
}

/// Stores `game` under `fence` and reads every part back through the
/// interface: the record as stored, the replay, each player's log (none
/// where the game has none), the wire log, the list; a key the archive
/// never gave is not found. Returns the game's key.
pub async fn stored_game_reads_back(
    archive: &dyn GameArchive,
    game: &FinishedGame,
    fence: Option<Fence>,
) -> String {
    let Stored::Kept(key) = archive.store(game, fence).await.expect("stored") else {
        panic!("{}: a valid store was refused", archive.describe());
    };
    assert_eq!(
        archive.record(&key).await.expect("the record"),
        game.record,
        "{}",
        archive.describe()
    );
    let replay = archive.replay(&key).await.expect("the replay");
    assert_eq!(
        Some(text(replay.bytes)),
        game.replay,
        "{}: the replay's bytes",
        archive.describe()
    );
    for (player, log) in game.player_logs.iter().enumerate() {
        let stored = archive.player_log(&key, player).await;
        match log {
            Some(log) => assert_eq!(&text(stored.expect("the log")), log),
            None => assert!(
                stored.as_ref().is_err_and(ArchiveError::is_not_found),
                "{}: player {player} has no log: {stored:?}",
                archive.describe()
            ),
        }
    }
    let contents = archive.contents(&key).await.expect("the contents");
    let with_logs: Vec<usize> = (game.player_logs.iter().enumerate())
        .filter_map(|(player, log)| log.as_ref().map(|_| player))
        .collect();
    assert_eq!(contents.player_logs, with_logs, "{}", archive.describe());
    assert_eq!(
        contents.wire_log,
        game.wire_log.is_some(),
        "{}",
        archive.describe()
    );
    let beyond = archive.player_log(&key, game.player_logs.len() + 5).await;
    assert!(
        beyond.as_ref().is_err_and(ArchiveError::is_not_found),
        "{beyond:?}"
    );
    let wire = archive.wire_log(&key).await;
    match &game.wire_log {
        Some(log) => assert_eq!(&text(wire.expect("the wire log")), log),
        None => assert!(
            wire.as_ref().is_err_and(ArchiveError::is_not_found),
            "{wire:?}"
        ),
    }
    let listed = archive.list().await.expect("the list");
    assert!(
        listed.iter().any(|g| g.key == key),
        "{}: {key} is not listed: {listed:?}",
        archive.describe()
    );
    for unknown in ["999999", "replay_none.xml"] {
        let record = archive.record(unknown).await;
        assert!(
            record.as_ref().is_err_and(ArchiveError::is_not_found),
            "{record:?}"
        );
        let replay = archive.replay(unknown).await;
        assert!(
            replay.as_ref().is_err_and(ArchiveError::is_not_found),
            "{replay:?}"
        );
    }
    key
}
