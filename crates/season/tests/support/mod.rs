//! What the match tests share: an in-process server, players, and the
//! settings of a match on it.
#![allow(dead_code)] // each test file uses its own part.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::path::Path;

use spielleiter_arena::{LocalServer, LocalServerSettings, MatchSettings, PlayerSpec, Program};

/// A server in this process writing replays below `dir`.
pub async fn server(dir: &Path) -> LocalServer {
    LocalServer::start(LocalServerSettings {
        port: 0,
        replay_dir: Some(dir.join("replays")),
        seed: Some(17),
        ..LocalServerSettings::default()
    })
    .await
    .unwrap()
}

/// A timed player.
pub fn player(name: &str, program: Program) -> PlayerSpec {
    PlayerSpec {
        name: name.to_owned(),
        program,
        timed: true,
    }
}

/// A match of `players` on `server`, its files below `dir`.
pub fn settings<const N: usize>(
    server: &LocalServer,
    dir: &Path,
    players: [PlayerSpec; N],
) -> MatchSettings {
    let mut settings = MatchSettings::new(
        players.to_vec(),
        "127.0.0.1".to_owned(),
        server.addr().port(),
        String::new(),
    );
    settings.in_process = Some(server.in_process().clone());
    settings.replay_dir = server.replay_dir().cloned();
    settings.results = dir.join("results.jsonl");
    settings.log_dir = dir.join("log");
    settings.seed = 3;
    settings
}
