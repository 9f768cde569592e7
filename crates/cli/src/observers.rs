//! Web observers for `spielleiter bench --web-observers N`: pages that
//! follow running games on the web side, each reading the event stream of
//! one running room (`/api/rooms/{id}/events`) until its game ends, then
//! the next. They read every event as a browser would and count them; the
//! benchmark compares the server's games per minute with and without them.
//!
//! Plain HTTP/1.1 requests over loopback (`Connection: close`): the
//! observers only need the room list's JSON and to count `event: room` in
//! the stream.

use std::{
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Duration,
};

use anyhow::{Context, bail};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    task::JoinHandle,
};

/// What every event of the stream starts with.
const EVENT: &[u8] = b"event: room";

/// Starts `count` observers of the web side at `web`; each adds the events
/// it reads to `events` until `stopping` is set.
pub fn start(
    web: SocketAddr,
    count: usize,
    events: Arc<AtomicU64>,
    stopping: Arc<AtomicBool>,
) -> Vec<JoinHandle<()>> {
    (0..count)
        .map(|index| {
            let (events, stopping) = (Arc::clone(&events), Arc::clone(&stopping));
            tokio::spawn(async move {
                let mut failures = 0;
                while !stopping.load(Ordering::Relaxed) {
                    if let Err(error) = observe_one(web, index, &events).await {
                        failures += 1;
                        if failures <= 3 {
                            eprintln!("bench: a web observer failed: {error:#}");
                        }
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                }
            })
        })
        .collect()
}

/// Watches one running room (the `index`-th, round robin) to its end.
async fn observe_one(web: SocketAddr, index: usize, events: &AtomicU64) -> anyhow::Result<()> {
    let rooms = running_rooms(web).await?;
    let Some(room) = rooms.get(index % rooms.len().max(1)) else {
        tokio::time::sleep(Duration::from_millis(20)).await;
        return Ok(());
    };
    let mut stream = request(web, &format!("/api/rooms/{room}/events")).await?;
    // The last bytes of the previous read, so that a marker split between
    // two reads is counted once.
    let mut carry: Vec<u8> = Vec::new();
    let mut buffer = vec![0; 64 * 1024];
    loop {
        let n = stream.read(&mut buffer).await?;
        if n == 0 {
            return Ok(());
        }
        carry.extend_from_slice(&buffer[..n]);
        let found = carry.windows(EVENT.len()).filter(|w| *w == EVENT).count();
        events.fetch_add(found as u64, Ordering::Relaxed);
        let keep = carry.len().min(EVENT.len() - 1);
        carry.drain(..carry.len() - keep);
    }
}

/// The ids of the running rooms.
async fn running_rooms(web: SocketAddr) -> anyhow::Result<Vec<String>> {
    let mut stream = request(web, "/api/rooms").await?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await?;
    let start = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .context("no end of the headers")?;
    if !answer.starts_with(b"HTTP/1.1 200") {
        bail!(
            "the room list answered {}",
            String::from_utf8_lossy(&answer[..start])
        );
    }
    let list: serde_json::Value = serde_json::from_slice(&answer[start + 4..])?;
    Ok(list["rooms"]
        .as_array()
        .map(|rooms| {
            rooms
                .iter()
                .filter(|r| r["phase"] == "running")
                .filter_map(|r| r["id"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default())
}

/// Sends `GET path` and returns the connection, the answer to be read.
async fn request(web: SocketAddr, path: &str) -> anyhow::Result<TcpStream> {
    let mut stream = TcpStream::connect(web).await?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    Ok(stream)
}
