//! A player floods the game port with wrong passphrases while a league of
//! built-in bots (two games at a time) and a match run beside it on the same
//! in-process server: their games are the games they are without the flood,
//! because the runner administers the server in-process and waits for no
//! turn behind the guesses.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    net::{IpAddr, Ipv4Addr, SocketAddr},
    path::Path,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use spielleiter_arena::{
    GameRecord, LocalServer, LocalServerSettings, MatchSettings, Program, Quiet,
};
use spielleiter_bots::BotKind;
use spielleiter_protocol::GameType;
use spielleiter_season::run_match;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};
use tokio_util::sync::CancellationToken;

mod support;
use support::{player, settings};

/// Every run here ends long before this, or the test fails as a hang (as
/// the runs did when each game's administrator logged in over TCP: behind
/// the guesses, a turn was minutes away).
const LIMIT: Duration = Duration::from_secs(120);

/// Connections guessing at once, as a player's program can open them.
const GUESSERS: usize = 16;

const LOOPBACK: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// A server in this process that also takes a passphrase on its port (as
/// `serve` does), so that the guesses are checked and spaced out.
async fn server(dir: &Path) -> LocalServer {
    LocalServer::start(LocalServerSettings {
        port: 0,
        replay_dir: Some(dir.join("replays")),
        seed: Some(17),
        admin_over_tcp: true,
        ..LocalServerSettings::default()
    })
    .await
    .unwrap()
}

/// The league (greedy against random, two games at a time) and the match
/// beside it, on `server`, their files below `dir`.
fn runs(server: &LocalServer, dir: &Path) -> [MatchSettings; 2] {
    let bots = |first: &str, second: &str| {
        [
            player(first, Program::Builtin(BotKind::Greedy)),
            player(second, Program::Builtin(BotKind::Random)),
        ]
    };
    let mut league = settings(server, &dir.join("league"), bots("greedy", "random"));
    league.game = GameType::Ostseeschach2022;
    league.games = 6;
    league.parallel = 2;
    let mut beside = settings(server, &dir.join("match"), bots("first", "second"));
    beside.game = GameType::Ostseeschach2022;
    beside.games = 2;
    beside.seed = 9;
    [league, beside]
}

/// Plays both runs at once; their records in game order.
async fn play(runs: [MatchSettings; 2]) -> [Vec<GameRecord>; 2] {
    let [league, beside] = runs;
    for run in [&league, &beside] {
        std::fs::create_dir_all(run.results.parent().unwrap()).unwrap();
    }
    let (mut quiet, mut also_quiet) = (Quiet, Quiet);
    let both = async {
        tokio::join!(
            run_match(league, CancellationToken::new(), &mut quiet),
            run_match(beside, CancellationToken::new(), &mut also_quiet),
        )
    };
    let (league, beside) = tokio::time::timeout(LIMIT, both)
        .await
        .expect("the runs end");
    [league.unwrap().records, beside.unwrap().records].map(|mut records| {
        records.sort_by_key(|r| r.game);
        records
    })
}

/// What makes a game the game it was: everything but its times, room and
/// replay.
fn outcome(record: &GameRecord) -> String {
    format!(
        "game {} {:?} starter {} points {:?} win points {:?} causes {:?}",
        record.game,
        record.players,
        record.starter,
        record.points,
        record.win_points,
        record.causes
    )
}

/// Guesses wrong on `addr` from loopback, on fresh connections, until
/// `stop`; counts the refusals.
async fn guess(addr: SocketAddr, refused: Arc<AtomicU64>, stop: CancellationToken) {
    while !stop.is_cancelled() {
        let Ok(mut connection) = TcpStream::connect(addr).await else {
            continue;
        };
        let guess = b"<protocol><authenticate password=\"guess\"/>";
        if connection.write_all(guess).await.is_err() {
            continue;
        }
        let mut answer = Vec::new();
        tokio::select! {
            _ = connection.read_to_end(&mut answer) => {}
            () = stop.cancelled() => return,
        }
        if String::from_utf8_lossy(&answer).contains("Failed to authenticate") {
            refused.fetch_add(1, Ordering::Relaxed);
        }
    }
}

#[tokio::test]
async fn a_player_guessing_the_passphrase_slows_no_game_beside_it() {
    // Without a flood: what the games are.
    let dir = tempfile::tempdir().unwrap();
    let quiet = server(&dir.path().join("quiet")).await;
    let expected = play(runs(&quiet, &dir.path().join("quiet"))).await;
    quiet.stop().await;
    assert_eq!(expected[0].len(), 6);
    assert_eq!(expected[1].len(), 2);

    // The same games while a player guesses on sixteen connections at once
    // from loopback, the address every player on this machine has.
    let flooded = server(&dir.path().join("flooded")).await;
    let refused = Arc::new(AtomicU64::new(0));
    let stop = CancellationToken::new();
    let guessers: Vec<_> = (0..GUESSERS)
        .map(|_| tokio::spawn(guess(flooded.addr(), Arc::clone(&refused), stop.clone())))
        .collect();
    // The guesses are checked and spaced out: loopback waits its turn.
    while flooded.auth().failures(LOOPBACK) < 3 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Loopback's failures only grow while the games are played: nobody
    // logs in on the port the players share (a login there would reset
    // them, after waiting its turn behind the guesses).
    let lowest = Arc::new(AtomicU64::new(u64::MAX));
    let watching = CancellationToken::new();
    let watch = {
        let (auth, lowest, watching) = (
            Arc::clone(flooded.auth()),
            Arc::clone(&lowest),
            watching.clone(),
        );
        tokio::spawn(async move {
            while !watching.is_cancelled() {
                lowest.fetch_min(u64::from(auth.failures(LOOPBACK)), Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        })
    };
    let during = play(runs(&flooded, &dir.path().join("flooded"))).await;
    watching.cancel();
    watch.await.unwrap();
    stop.cancel();
    for guesser in guessers {
        guesser.await.unwrap();
    }
    // The guesses were refused, and loopback's back-off was never reset.
    assert!(lowest.load(Ordering::Relaxed) >= 3, "{lowest:?}");
    assert!(refused.load(Ordering::Relaxed) >= 3);
    // Every game is the game it is without the flood.
    for (during, expected) in during.iter().zip(&expected) {
        assert!(during.iter().all(GameRecord::is_regular), "{during:?}");
        let during: Vec<String> = during.iter().map(outcome).collect();
        let expected: Vec<String> = expected.iter().map(outcome).collect();
        assert_eq!(during, expected);
    }
    flooded.stop().await;
}
