#![allow(clippy::unwrap_used)]

use std::io::Write as _;

use futures_util::TryStreamExt as _;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::*;
use crate::embedded::EmbeddedWeb;

fn gzip(text: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(text).unwrap();
    encoder.finish().unwrap()
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut text = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut text)
        .unwrap();
    text
}

/// An answer: its head (header names in lower case) and its body.
struct Answer {
    head: String,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

/// `GET path` on the web side of `dir` with `accept` as its
/// `Accept-Encoding`, if any. HTTP/1.0, so that the body comes as it
/// is, not in chunks.
async fn get(dir: &std::path::Path, path: &str, accept: Option<&str>) -> Answer {
    let web = EmbeddedWeb::with_replays_of(dir).await;
    let mut stream = tokio::net::TcpStream::connect(web.addr()).await.unwrap();
    let accept = accept.map_or(String::new(), |a| format!("Accept-Encoding: {a}\r\n"));
    let request = format!("GET {path} HTTP/1.0\r\nHost: test\r\n{accept}\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let split = memchr::memmem::find(&response, b"\r\n\r\n").unwrap();
    let head = String::from_utf8(response[..split].to_vec()).unwrap();
    assert!(
        head.starts_with("HTTP/1.0 200") || head.starts_with("HTTP/1.1 200"),
        "{head}"
    );
    Answer {
        head,
        body: response[split + 4..].to_vec(),
    }
}

const LOG: &[u8] = b"# Spielleiter wire log\n2026-11-27T11:40:01.123456Z seat 0: 9 bytes received\n  |<protocol>\n";

#[tokio::test]
async fn a_compressed_log_is_sent_packed_only_to_a_client_that_accepts_gzip() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("replay_x_1.wire.txt.gz"), gzip(LOG)).unwrap();
    let path = "/api/replays/replay_x_1.xml.gz/wire";
    for accept in ["gzip", "deflate, gzip;q=0.5", "*", "x-gzip"] {
        let answer = get(dir.path(), path, Some(accept)).await;
        assert_eq!(answer.header("content-encoding"), Some("gzip"), "{accept}");
        assert_eq!(answer.header("vary"), Some("Accept-Encoding"));
        assert_eq!(gunzip(&answer.body), LOG, "{accept}");
    }
    for accept in [None, Some("identity"), Some("gzip;q=0"), Some("br, *;q=0")] {
        let answer = get(dir.path(), path, accept).await;
        assert_eq!(answer.header("content-encoding"), None, "{accept:?}");
        assert_eq!(answer.header("vary"), Some("Accept-Encoding"));
        assert!(
            answer
                .header("content-type")
                .unwrap()
                .starts_with("text/plain")
        );
        assert_eq!(answer.body, LOG, "{accept:?}");
    }
}

#[tokio::test]
async fn a_plain_log_is_sent_as_it_is_to_everyone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("replay_x_1.wire.txt"), LOG).unwrap();
    for accept in [None, Some("gzip")] {
        let answer = get(dir.path(), "/api/replays/replay_x_1.xml/wire", accept).await;
        assert_eq!(answer.header("content-encoding"), None);
        assert_eq!(answer.header("vary"), Some("Accept-Encoding"));
        assert_eq!(answer.body, LOG);
    }
}

/// All of a stream of [`unpacked`], or the error that ended it.
async fn unpack(bytes: &[u8], limit: u64) -> std::io::Result<Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log.gz");
    std::fs::write(&path, bytes).unwrap();
    let file = std::fs::File::open(&path).unwrap();
    let chunks: Vec<Bytes> = unpacked(file, "x".to_owned(), limit).try_collect().await?;
    Ok(chunks.concat())
}

#[tokio::test]
async fn unpacking_stops_at_its_bound_and_says_so() {
    // 1 MiB of the same line: a small file.
    let large = LOG.repeat((1 << 20) / LOG.len() + 1);
    let packed = gzip(&large);
    assert!(packed.len() < large.len() / 20, "{}", packed.len());
    let whole = unpack(&packed, large.len() as u64).await.unwrap();
    assert_eq!(whole, large);
    let cut = unpack(&packed, 200_000).await.unwrap();
    assert_eq!(&cut[..200_000], &large[..200_000]);
    let note = String::from_utf8_lossy(&cut[200_000..]).into_owned();
    assert!(
        note.starts_with("\n---- cut here: the log unpacks to more than 200000 bytes"),
        "{note}"
    );
    // Not gzip at all: the answer ends with the error.
    assert!(unpack(b"no gzip here, only text", 1000).await.is_err());
}
