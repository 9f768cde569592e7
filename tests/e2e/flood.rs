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

/// The `message` of an error packet; fails on anything else.
fn error_text(received: Received) -> String {
    match received {
        Received::Message(ServerMessage::ErrorPacket { message, .. }) => message,
        other => panic!("expected an error packet, got {other:?}"),
    }
}

#[tokio::test]
async fn thousands_of_pipelined_requests_are_answered_with_back_pressure_not_a_disconnect() {
    // A small bound, so that the answers certainly outgrow it and the
    // kernel's socket buffers.
    let server = TestServer::start(|config| config.player_outbox_bytes = 64 * 1024).await;
    let reference = BackgroundGame::start(&server, Duration::from_millis(5)).await;
    // About 20 MB of answers, to a client with a small receive buffer:
    // far more than the kernel's socket buffers hold.
    const REQUESTS: usize = 10_000;
    let padding = "p".repeat(1000);
    let mut requests = b"<protocol>".to_vec();
    for i in 0..REQUESTS {
        requests.extend_from_slice(format!("<joinRoom roomId=\"{i}{padding}\"/>").as_bytes());
    }
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(64 * 1024).unwrap();
    let (mut reader, mut writer) = socket.connect(server.addr).await.unwrap().into_split();
    // All requests in one go; the server reads them only as fast as the
    // client takes its answers.
    let sending = tokio::spawn(async move {
        tokio::io::AsyncWriteExt::write_all(&mut writer, &requests)
            .await
            .unwrap();
        writer
    });
    let mut answers = spielleiter_e2e::ServerStream::default();
    // Not reading until the answers have piled up to the bound and the
    // server has stopped reading the requests.
    let paused = || spielleiter_server::stats::ServerStats::get(&server.stats.reads_paused) > 0;
    for _ in 0..600 {
        if paused() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for i in 0..REQUESTS {
        let text = error_text(answers.next(&mut reader).await);
        assert!(text.contains(&format!("id {i}pp")), "{i}: {text}");
    }
    let _writer = sending.await.unwrap();
    assert!(paused(), "the answers never reached the bound");
    assert_eq!(
        spielleiter_server::stats::ServerStats::get(&server.stats.slow_readers),
        0
    );
    reference.finish().await;
    server.shutdown().await;
}

#[tokio::test]
async fn clients_that_never_read_are_disconnected_after_the_grace_period() {
    let server = TestServer::start(|config| {
        config.player_outbox_bytes = 64 * 1024;
        config.slow_reader_grace = Duration::from_secs(1);
    })
    .await;
    let reference = BackgroundGame::start(&server, Duration::from_millis(5)).await;
    // Each bad request gets an error reply of about 2 KB.
    let bad = format!("<joinRoom roomId=\"{}\"/>", "x".repeat(1000)).repeat(32);
    let mut offenders = Vec::new();
    for _ in 0..8 {
        let mut client = server.connect().await;
        let bad = bad.clone();
        offenders.push(tokio::spawn(async move {
            client.send_raw(b"<protocol>").await;
            let started = tokio::time::Instant::now();
            // Never read; write until the server gives up on us.
            loop {
                let write =
                    tokio::io::AsyncWriteExt::write_all(client.stream_mut(), bad.as_bytes());
                match tokio::time::timeout(Duration::from_secs(30), write).await {
                    Ok(Ok(())) => {}
                    Ok(Err(_)) => return started.elapsed(),
                    Err(_) => panic!("the server kept a client that does not read"),
                }
            }
        }));
    }
    for offender in offenders {
        let lasted = offender.await.unwrap();
        assert!(lasted < Duration::from_secs(30), "{lasted:?}");
    }
    assert_eq!(
        spielleiter_server::stats::ServerStats::get(&server.stats.slow_readers),
        8
    );
    reference.finish().await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_message_sent_too_slowly_costs_the_connection_and_the_game() {
    let server = TestServer::start(|config| config.message_timeout = Duration::from_secs(1)).await;
    let reference = BackgroundGame::start(&server, Duration::from_millis(5)).await;
    let (mut one, mut two, room) = spielleiter_e2e::joined_pair(&server).await;
    // Player two starts a move and trickles it, a byte every 100 ms.
    two.send_raw(
        format!("<room roomId=\"{room}\"><data class=\"sc.plugin2021.SetMove\">").as_bytes(),
    )
    .await;
    let mut trickled = 0;
    let text = loop {
        trickled += 1;
        assert!(
            trickled < 100,
            "a message trickled for 10 s was not cut off"
        );
        two.send_raw(b" ").await;
        if let Some(received) = two.next_within(Duration::from_millis(100)).await
            && let Received::Message(ServerMessage::ErrorPacket { message, .. }) = received
        {
            break message;
        }
    };
    assert!(text.contains("not completed within 1 seconds"), "{text}");
    let rest = one.until_end().await;
    let result = spielleiter_e2e::result_of(&rest).expect("a result");
    assert_eq!(
        result.scores[1].cause,
        spielleiter_protocol::result::ScoreCause::Left
    );
    reference.finish().await;
    server.shutdown().await;
}

#[tokio::test]
async fn large_unfinished_messages_are_refused_beyond_the_total_bound() {
    let server = TestServer::start(|config| {
        config.max_unfinished_bytes = 1 << 20;
        config.message_timeout = Duration::from_secs(60);
    })
    .await;
    let reference = BackgroundGame::start(&server, Duration::from_millis(5)).await;
    // Each holds 600 KB of a message that never ends: the first fits, the
    // next ones would take the total over 1 MiB.
    let unfinished = format!("<protocol><join gameType=\"{}", "x".repeat(600_000));
    let mut holders = Vec::new();
    let mut refused = 0;
    for _ in 0..3 {
        let mut client = server.connect().await;
        client.send_raw(unfinished.as_bytes()).await;
        match client.next_within(Duration::from_secs(2)).await {
            None => holders.push(client),
            Some(received) => {
                let text = error_text(received);
                assert!(
                    text.contains("short of memory for unfinished messages"),
                    "{text}"
                );
                refused += 1;
            }
        }
    }
    assert_eq!((holders.len(), refused), (1, 2));
    reference.finish().await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_flood_of_bad_requests_logs_ten_lines_and_a_count() {
    let (log, _guard) = spielleiter_e2e::CapturedLog::install();
    let server = TestServer::start(|_| {}).await;
    let mut client = server.connect().await;
    // 500 unknown packets, each named with 5,000 characters.
    let name = format!("y{}", "a".repeat(5000));
    let flood = format!("<{name}/>").repeat(500);
    client.send_raw(b"<protocol>").await;
    client.send_raw(flood.as_bytes()).await;
    for _ in 0..500 {
        let text = error_text(client.next().await);
        assert!(text.len() < 1100, "{} bytes", text.len());
    }
    drop(client);
    server.shutdown().await;
    let text = log.text();
    let unknown = text
        .lines()
        .filter(|l| l.contains("unknown packet"))
        .count();
    assert_eq!(unknown, 10, "{text}");
    assert!(
        text.contains("suppressed=490"),
        "a count of the rest: {text}"
    );
    assert!(text.len() < 20_000, "{} bytes of log", text.len());
}

#[tokio::test]
async fn one_address_holds_at_most_its_share_of_connections() {
    let server = TestServer::start(|config| config.max_connections_per_ip = 8).await;
    let reference = BackgroundGame::start(&server, Duration::from_millis(5)).await;
    // The reference game's players hold two of the address's slots while
    // it runs.
    let mut held = Vec::new();
    let mut refused = 0;
    for _ in 0..20 {
        let mut client = server.connect().await;
        match client.next_within(Duration::from_millis(200)).await {
            None => held.push(client),
            Some(received) => {
                let text = error_text(received);
                assert!(
                    text.contains("Your address holds the most connections allowed (8)"),
                    "{text}"
                );
                client.expect_closed().await;
                refused += 1;
            }
        }
    }
    assert!((6..=8).contains(&held.len()), "{} held", held.len());
    assert_eq!(held.len() + refused, 20);
    // A connection that ends gives its slot back.
    drop(held.pop());
    let mut again = None;
    for _ in 0..50 {
        let mut client = server.connect().await;
        if client
            .next_within(Duration::from_millis(100))
            .await
            .is_none()
        {
            again = Some(client);
            break;
        }
    }
    assert!(again.is_some(), "the slot came back");
    reference.finish().await;
    server.shutdown().await;

    // Exempt loopback: no limit for local clients.
    let server = TestServer::start(|config| {
        config.max_connections_per_ip = 2;
        config.loopback_exempt = true;
    })
    .await;
    let mut clients = Vec::new();
    for _ in 0..10 {
        clients.push(server.connect().await);
    }
    for client in &mut clients {
        assert_eq!(client.next_within(Duration::from_millis(100)).await, None);
    }
    server.shutdown().await;
}
