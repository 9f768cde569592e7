use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::*;

#[tokio::test(start_paused = true)]
async fn writes_fail_once_the_peer_has_taken_nothing_for_the_limit() {
    let (near, mut far) = tokio::io::duplex(64);
    let mut socket = StallLimited::new(near, Duration::from_secs(30));
    socket
        .write_all(&[1; 64])
        .await
        .expect("the buffer takes it");
    // The peer reads now and then: the writes wait, but go on.
    let reader = tokio::spawn(async move {
        let mut buffer = [0; 64];
        for _ in 0..3 {
            tokio::time::sleep(Duration::from_secs(20)).await;
            far.read_exact(&mut buffer).await.expect("read");
        }
        far
    });
    let started = tokio::time::Instant::now();
    socket
        .write_all(&[2; 128])
        .await
        .expect("taken within the limit");
    assert_eq!(started.elapsed(), Duration::from_secs(40));
    let _far = reader.await.expect("the reader");
    // Now the peer takes nothing: the write fails after the limit.
    let started = tokio::time::Instant::now();
    let stalled = socket.write_all(&[3; 65]).await.expect_err("stalled");
    assert_eq!(stalled.kind(), std::io::ErrorKind::TimedOut);
    assert_eq!(started.elapsed(), Duration::from_secs(30));
}

/// `/metrics` as `router` answers it in-process.
async fn metrics(router: &Router) -> String {
    let request = axum::http::Request::get("/metrics")
        .body(Body::empty())
        .expect("a request");
    let response = tower_service::Service::call(&mut router.clone(), request)
        .await
        .expect("infallible");
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("a body");
    String::from_utf8_lossy(&bytes).into_owned()
}

#[tokio::test]
async fn a_connection_over_a_cap_is_refused_and_counted_in_the_metrics() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let addr = listener.local_addr().expect("an address");
    let limits = WebLimits {
        max_connections: 4,
        max_connections_per_ip: 1,
        loopback_exempt: false,
        ..WebLimits::default()
    };
    let stats = Arc::new(ServerStats::default());
    let router = crate::routes::router(
        Arc::clone(&stats),
        crate::app::WebSettings::new(
            crate::access::Access::new(
                IpAddr::V4(Ipv4Addr::LOCALHOST),
                spielleiter_server::config::HttpPublic::Auto,
                None,
            ),
            None,
        ),
    );
    let before = metrics(&router).await;
    assert!(
        before.contains("spielleiter_web_connections_refused_total 0\n"),
        "{before}"
    );
    let stop = CancellationToken::new();
    let serving = {
        let router = router.clone();
        let stats = Arc::clone(&stats);
        let stop = stop.clone();
        tokio::spawn(async move {
            serve(listener, router, &limits, stats, stop.cancelled_owned()).await
        })
    };
    // The first holds the address's one place; the next two are
    // refused at once.
    let held = TcpStream::connect(addr).await.expect("connects");
    for _ in 0..2 {
        let mut over = TcpStream::connect(addr).await.expect("connects");
        let mut answer = String::new();
        tokio::time::timeout(Duration::from_secs(10), over.read_to_string(&mut answer))
            .await
            .expect("closed at once")
            .expect("read");
        assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    }
    assert_eq!(ServerStats::get(&stats.web_refused_connections), 2);
    let after = metrics(&router).await;
    assert!(
        after.contains("spielleiter_web_connections_refused_total 2\n"),
        "{after}"
    );
    stop.cancel();
    drop(held);
    serving.await.expect("the loop").expect("served");
}

#[test]
fn the_refusal_states_its_length() {
    let text = String::from_utf8_lossy(REFUSAL);
    let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
    assert!(
        head.contains(&format!("content-length: {}", body.len())),
        "{text}"
    );
}

#[test]
fn a_request_counts_as_from_the_client_a_trusted_proxy_names() {
    let ip = |text: &str| text.parse::<IpAddr>().expect(text);
    let range = |text: &str| text.parse::<AddressRange>().expect(text);
    let forwarded = |values: &[&str]| {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(
                "x-forwarded-for",
                axum::http::HeaderValue::from_str(value).expect("a value"),
            );
        }
        headers
    };
    let proxy = ip("127.0.0.1");
    let trusted = [range("127.0.0.1"), range("10.0.0.0/8")];
    // The proxy's own word on its client.
    let one = forwarded(&["192.0.2.1"]);
    assert_eq!(client_address(proxy, &one, &trusted), ip("192.0.2.1"));
    // Nobody trusted: the header counts for nothing.
    assert_eq!(client_address(proxy, &one, &[]), proxy);
    assert_eq!(
        client_address(ip("192.0.2.9"), &one, &trusted),
        ip("192.0.2.9")
    );
    // What the client wrote itself comes first and is not believed; proxies
    // behind the first are skipped, in one header or several.
    let spoofed = forwarded(&["203.0.113.7, 192.0.2.1, 10.1.1.1"]);
    assert_eq!(client_address(proxy, &spoofed, &trusted), ip("192.0.2.1"));
    let split = forwarded(&["203.0.113.7", "192.0.2.1", "10.1.1.1"]);
    assert_eq!(client_address(proxy, &split, &trusted), ip("192.0.2.1"));
    // Ports, IPv6 and mapped IPv4.
    let ported = forwarded(&["[2001:db8::5]:4711"]);
    assert_eq!(client_address(proxy, &ported, &trusted), ip("2001:db8::5"));
    let mapped = forwarded(&["::ffff:192.0.2.3"]);
    assert_eq!(client_address(proxy, &mapped, &trusted), ip("192.0.2.3"));
    // No header, or nothing usable in it: the proxy itself (or the last
    // trusted proxy named).
    assert_eq!(client_address(proxy, &HeaderMap::new(), &trusted), proxy);
    let garbage = forwarded(&["unknown"]);
    assert_eq!(client_address(proxy, &garbage, &trusted), proxy);
    let behind_garbage = forwarded(&["192.0.2.1, unknown, 10.2.2.2"]);
    assert_eq!(
        client_address(proxy, &behind_garbage, &trusted),
        ip("10.2.2.2")
    );
}
