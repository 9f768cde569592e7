//! Faults of the machine, not of clients: a replay directory that goes
//! away, a full disk, replays a crash left unfinished. Every game still
//! gets its result, the fault is logged and counted, and the server goes on
//! serving.

use std::{path::PathBuf, process::Command, time::Duration};

use spielleiter_e2e::{
    BackgroundGame, CapturedLog, TestServer, blokus_of, first_legal_move, joined_pair, result_of,
};
use spielleiter_protocol::{ServerMessage, result::ScoreCause, room::RoomData};
use spielleiter_server::stats::ServerStats;

/// Plays a game of two scripted clients to its end (each plays its first
/// legal move), calling `meanwhile` after the first move; returns what
/// player one saw.
async fn game_with(server: &TestServer, meanwhile: impl FnOnce()) -> Vec<ServerMessage> {
    let (mut one, two, room) = joined_pair(server).await;
    let _welcome = one.room_data().await;
    let RoomData::Memento(state) = one.room_data().await else {
        panic!("expected the initial state");
    };
    assert!(matches!(one.room_data().await, RoomData::MoveRequest(_)));
    one.send_move(&room, first_legal_move(&blokus_of(&state)))
        .await;
    meanwhile();
    let two = tokio::spawn(spielleiter_e2e::play_out(two, room.clone(), Duration::ZERO));
    let seen = spielleiter_e2e::play_out(one, room, Duration::ZERO).await;
    two.await.unwrap();
    seen
}

#[tokio::test]
async fn a_replay_directory_that_goes_away_loses_replays_not_results() {
    let (log, _guard) = CapturedLog::install();
    let server = TestServer::start(|_| {}).await;
    // The reference game ends, with its replay, before the fault.
    BackgroundGame::start(&server, Duration::ZERO)
        .await
        .finish()
        .await;
    let dir = server.replay_dir.clone();
    let seen = game_with(&server, || {
        // The replay thread may be creating the game's file meanwhile.
        while std::fs::remove_dir_all(&dir).is_err() {
            std::thread::sleep(Duration::from_millis(5));
        }
        std::fs::write(&dir, b"no longer a directory").unwrap();
    })
    .await;
    let result = result_of(&seen).expect("the players still get the result");
    assert!(result.scores.iter().all(|s| s.cause == ScoreCause::Regular));
    // The room's end waits for the replay thread (real time).
    for _ in 0..200 {
        if ServerStats::get(&server.stats.replays_lost) > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(ServerStats::get(&server.stats.replays_lost), 1);
    // The room's end line follows the error.
    for _ in 0..200 {
        if log.text().contains("room closed") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let text = log.text();
    let line = text
        .lines()
        .find(|l| l.contains("the game's replay could not be written"))
        .unwrap_or_else(|| panic!("no error logged: {text}"));
    assert!(line.contains("ERROR"), "{line}");
    assert!(line.contains(&*dir.to_string_lossy()), "{line}");
    assert!(line.contains("cause="), "{line}");
    let closed = text
        .lines()
        .find(|l| l.contains("room closed") && l.contains("replay=lost"))
        .unwrap_or_else(|| panic!("no end line: {text}"));
    assert!(
        closed.contains("winners=") && closed.contains("scores="),
        "{closed}"
    );
    // Still serving: a new game starts.
    let (_one, _two, _room) = joined_pair(&server).await;
    std::fs::remove_file(&dir).ok();
    server.shutdown().await;
}

/// A small file system of its own (a tmpfs), unmounted and removed when
/// dropped.
struct SmallDisk(PathBuf);

impl SmallDisk {
    /// Mounts a tmpfs of `bytes` (needs root with CAP_SYS_ADMIN); `None` if
    /// this machine does not allow it.
    fn mount(bytes: usize) -> Option<SmallDisk> {
        let dir = std::env::temp_dir().join(format!("spielleiter-full-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={bytes}")])
            .arg("tmpfs")
            .arg(&dir)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if mounted {
            Some(SmallDisk(dir))
        } else {
            std::fs::remove_dir_all(&dir).ok();
            None
        }
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
        std::fs::remove_dir_all(&self.0).ok();
    }
}

#[tokio::test]
async fn a_full_disk_loses_the_replay_keeps_serving_and_leaves_no_cut_file() {
    let Some(disk) = SmallDisk::mount(4 << 20) else {
        // The replay writer's own tests simulate a full disk; this one
        // needs a real one.
        eprintln!("skipped: cannot mount a small tmpfs here (needs root and CAP_SYS_ADMIN)");
        return;
    };
    let replays = disk.0.join("replays");
    let server = TestServer::start(|config| config.replay_dir = replays.clone()).await;
    BackgroundGame::start(&server, Duration::ZERO)
        .await
        .finish()
        .await;
    // Fill the disk up to a few kilobytes.
    let filler = disk.0.join("filler");
    let _ = std::fs::write(&filler, vec![0u8; 4 << 20]);
    let seen = game_with(&server, || {}).await;
    assert!(
        result_of(&seen).is_some(),
        "the players still get the result"
    );
    for _ in 0..200 {
        if ServerStats::get(&server.stats.replays_lost) > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(ServerStats::get(&server.stats.replays_lost), 1);
    let partial: Vec<_> = std::fs::read_dir(&replays)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".partial"))
        .collect();
    assert!(partial.is_empty(), "a cut replay was left: {partial:?}");
    // Room again: the next game is recorded.
    std::fs::remove_file(&filler).unwrap();
    let before = server.replays().len();
    let seen = game_with(&server, || {}).await;
    assert!(result_of(&seen).is_some());
    assert_eq!(server.wait_for_replays(before + 1).await.len(), before + 1);
    server.shutdown().await;
}

#[tokio::test]
async fn replays_a_crash_left_unfinished_are_moved_aside_at_start() {
    let dir = std::env::temp_dir().join(format!("spielleiter-crashed-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("replay_swc_2021_blokus_2026-01-01_00-00-00_a_b.xml.partial"),
        "<protocol>\n<room roomId=\"r\">\n",
    )
    .unwrap();
    let (log, _guard) = CapturedLog::install();
    let server = TestServer::start(|config| config.replay_dir = dir.clone()).await;
    let unfinished = dir.join("replay_swc_2021_blokus_2026-01-01_00-00-00_a_b.xml.unfinished");
    // The server task checks when it first runs.
    for _ in 0..200 {
        if unfinished.exists() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(unfinished.exists());
    let text = log.text();
    assert!(
        text.lines()
            .any(|l| l.contains("WARN") && l.contains("moved=1") && l.contains("unfinished")),
        "{text}"
    );
    // A new game's replay is written as usual.
    BackgroundGame::start(&server, Duration::ZERO)
        .await
        .finish()
        .await;
    server.shutdown().await;
    std::fs::remove_dir_all(&dir).ok();
}
