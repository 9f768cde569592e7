//! The server's memory under floods, measured as the resident set of this
//! test process: its own binary, so that no other test's allocations count.
//! The tests take turns ([`ALONE`]); each compares the peak during the
//! flood with the idle value after the server started.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

use std::{
    net::{IpAddr, Ipv4Addr},
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Duration,
};

use spielleiter_e2e::{BackgroundGame, Received, TestClient, TestServer};
use spielleiter_protocol::ServerMessage;
use spielleiter_server::stats::ServerStats;

/// One test at a time: both measure the same process.
static ALONE: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// What the flood may add to the resident set (issue 9: 64 MiB).
const RSS_BOUND: u64 = 64 << 20;

/// The resident set of this process, from `/proc/self/status`.
fn rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmRSS line");
    kib * 1024
}

/// Samples the resident set every 10 ms until dropped; `peak()` is the
/// largest value seen.
struct PeakRss {
    peak: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
}

impl PeakRss {
    fn start() -> PeakRss {
        let peak = Arc::new(AtomicU64::new(rss_bytes()));
        let stop = Arc::new(AtomicBool::new(false));
        let (sampled, stopped) = (Arc::clone(&peak), Arc::clone(&stop));
        // A thread of its own: the runtime's workers may be busy with the
        // flood, and the samples must not wait for them.
        std::thread::spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                sampled.fetch_max(rss_bytes(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        PeakRss { peak, stop }
    }

    fn peak(&self) -> u64 {
        self.peak.load(Ordering::Relaxed).max(rss_bytes())
    }
}

impl Drop for PeakRss {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// An idle server and its reference game: the resident set to compare
/// with, taken once both run.
async fn idle_server(
    configure: impl FnOnce(&mut spielleiter_server::Config),
) -> (TestServer, BackgroundGame, u64) {
    let server = TestServer::start(configure).await;
    let reference = BackgroundGame::start(&server, Duration::from_millis(5)).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    (server, reference, rss_bytes())
}

// Issue 9, item 5: clients that send bad requests and never read their
// answers. Each answer waits in a byte-bounded outbox (4 MiB by default);
// once over it the connection is no longer read, and it is closed after the
// grace period (shortened here from 10 s to 2 s to keep the test short).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_clients_that_never_read_stay_within_64_mib_above_idle() {
    let _alone = ALONE.lock().await;
    let (server, reference, idle) =
        idle_server(|config| config.slow_reader_grace = Duration::from_secs(2)).await;
    let peak = PeakRss::start();
    // Each request is refused with an error packet of a few hundred bytes.
    let bad = format!("<joinRoom roomId=\"{}\"/>", "x".repeat(1000)).repeat(64);
    let mut offenders = Vec::new();
    for _ in 0..8 {
        let mut client = server.connect().await;
        let bad = bad.clone();
        offenders.push(tokio::spawn(async move {
            client.send_raw(b"<protocol>").await;
            loop {
                let write =
                    tokio::io::AsyncWriteExt::write_all(client.stream_mut(), bad.as_bytes());
                match tokio::time::timeout(Duration::from_secs(30), write).await {
                    Ok(Ok(())) => {}
                    Ok(Err(_)) => return,
                    Err(_) => panic!("the server kept a client that does not read"),
                }
            }
        }));
    }
    for offender in offenders {
        offender.await.unwrap();
    }
    let grown = peak.peak().saturating_sub(idle);
    assert_eq!(ServerStats::get(&server.stats.slow_readers), 8);
    assert!(
        grown < RSS_BOUND,
        "the resident set grew by {} MiB",
        grown >> 20
    );
    reference.finish().await;
    server.shutdown().await;
}

// Issue 9, item 6: one address opens many connections, each holding a
// 900 KB message that never ends. The address gets at most its 32
// connections (the rest are refused), the unfinished bytes of all
// connections are bounded (8 MiB here), and each unfinished message is cut
// off after the message timeout (shortened here from 10 s to 2 s) or at
// once when it would take the total over the bound. 300 offenders instead
// of the 1,100 keep the test short; the limits reached are the same.
/// The bound on unfinished messages in the test of item 6 (default 64 MiB),
/// small enough that 32 connections holding 900 KB each (29 MB, what the
/// limit per address alone allows) would break the test's bound.
const UNFINISHED_BOUND: usize = 8 << 20;

/// What the server may use beyond what it holds for its clients: its
/// runtime, the reference game, the test's own clients (about 4 MiB seen).
const SLACK: u64 = 12 << 20;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_unfinished_messages_from_one_address_are_refused_or_cut_off() {
    let _alone = ALONE.lock().await;
    let (server, reference, idle) = idle_server(|config| {
        config.message_timeout = Duration::from_secs(2);
        config.max_unfinished_bytes = UNFINISHED_BOUND;
    })
    .await;
    let peak = PeakRss::start();
    const OFFENDERS: u64 = 300;
    let unfinished = Arc::new(format!(
        "<protocol><join gameType=\"{}",
        "x".repeat(900_000)
    ));
    let offender_address = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 9));
    let told = Arc::new(AtomicU64::new(0));
    let mut offenders = Vec::new();
    for _ in 0..OFFENDERS {
        let mut client = TestClient::connect_from(server.addr, offender_address).await;
        let (unfinished, told) = (Arc::clone(&unfinished), Arc::clone(&told));
        offenders.push(tokio::spawn(async move {
            // A refused connection may be closed before all is written.
            let _ = tokio::io::AsyncWriteExt::write_all(client.stream_mut(), unfinished.as_bytes())
                .await;
            loop {
                match client.next_within(Duration::from_secs(30)).await {
                    Some(Received::Message(ServerMessage::ErrorPacket { message, .. })) => {
                        assert!(
                            message.contains("connections allowed (32)")
                                || message.contains("not completed within 2 seconds")
                                || message.contains("short of memory for unfinished messages"),
                            "{message}"
                        );
                        told.fetch_add(1, Ordering::Relaxed);
                    }
                    Some(Received::Message(ServerMessage::Close(_))) => {}
                    Some(Received::Message(other)) => panic!("unexpected {other:?}"),
                    Some(Received::End | Received::Eof) => return,
                    None => panic!("an unfinished message was held for 30 s"),
                }
            }
        }));
    }
    for offender in offenders {
        offender.await.unwrap();
    }
    let grown = peak.peak().saturating_sub(idle);
    let refused = ServerStats::get(&server.stats.refused_connections);
    let cut_off = ServerStats::get(&server.stats.slow_messages);
    assert_eq!(
        refused + cut_off,
        OFFENDERS,
        "{refused} refused, {cut_off} cut off"
    );
    assert!(cut_off >= 1, "{refused} refused, {cut_off} cut off");
    // Beyond 64 refusals in progress the server closes without a word, so
    // not every refused offender is told; every one that held a message is.
    assert!(told.load(Ordering::Relaxed) >= cut_off);
    assert!(
        grown < UNFINISHED_BOUND as u64 + SLACK,
        "the resident set grew by {} MiB",
        grown >> 20
    );
    reference.finish().await;
    server.shutdown().await;
}
