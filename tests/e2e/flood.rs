//! No connection can stall the server or the games on it: floods of
//! expensive, pipelined or unread requests next to the reference game,
//! which must end undisturbed.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Duration,
};

use spielleiter_e2e::{BackgroundGame, Received, TestServer};
use spielleiter_protocol::ServerMessage;

/// A `<join>` of about 1 MB carrying 100,000 attributes: checking them
/// pairwise took seconds per message.
fn attribute_bomb() -> Vec<u8> {
    let mut join = b"<protocol><join".to_vec();
    for i in 0..100_000 {
        join.extend_from_slice(format!(" a{i}=''").as_bytes());
    }
    join.extend_from_slice(b"/>");
    join
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attribute_bombs_in_a_loop_do_not_stall_a_game_at_the_normal_clock() {
    let server = TestServer::start(|_| {}).await;
    let bomb = Arc::new(attribute_bomb());
    let stop = Arc::new(AtomicBool::new(false));
    let sent = Arc::new(AtomicU64::new(0));
    let mut attackers = Vec::new();
    for _ in 0..2 {
        let (addr, bomb, stop, sent) = (
            server.addr,
            Arc::clone(&bomb),
            Arc::clone(&stop),
            Arc::clone(&sent),
        );
        attackers.push(tokio::spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let mut attacker = spielleiter_e2e::TestClient::connect(addr).await;
                // The server may close before the whole bomb is written.
                let _ = tokio::io::AsyncWriteExt::write_all(attacker.stream_mut(), &bomb).await;
                sent.fetch_add(1, Ordering::Relaxed);
                match attacker.next().await {
                    Received::Message(ServerMessage::ErrorPacket { message, .. }) => {
                        assert!(message.contains("more than 64 attributes"), "{message}")
                    }
                    other => panic!("expected an error packet, got {other:?}"),
                }
            }
        }));
    }
    // The reference game at the normal clock (2 s soft limit), its bots
    // thinking 20 ms per move so that the attack overlaps many moves.
    let reference = BackgroundGame::start(&server, Duration::from_millis(20)).await;
    let outcome = reference.finish().await;
    stop.store(true, Ordering::Relaxed);
    for attacker in attackers {
        attacker.await.unwrap();
    }
    assert!(sent.load(Ordering::Relaxed) >= 2, "the attack ran");
    assert!(outcome.moves > 20);
    let worst = server.stats.move_latency.quantile(1.0).unwrap();
    // Without the cap one bomb held a worker for seconds; 1 s leaves room
    // for a loaded test machine (the soak test measures the real figure).
    assert!(
        worst < Duration::from_secs(1),
        "server-added latency {worst:?}"
    );
    server.shutdown().await;
}
