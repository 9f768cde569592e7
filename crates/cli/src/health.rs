//! `spielleiter health`: checks that a server answers on its game port, for
//! a container's health check (a scratch image has no shell or curl). Exit
//! status 0 means healthy.
//!
//! Healthy means more than an open port: the probe opens a protocol
//! document and closes it at once (`<protocol></protocol>`), and the server
//! must end its own document in reply. That proves the accept loop, a
//! connection task and the writer all run, without joining a game or
//! leaving a trace above the debug log level.
//!
//! When the server's settings have the web side on, `health` also asks its
//! `/healthz` for `200 ok` (a one-line HTTP/1.0 request, read to the end).

use std::{
    net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr},
    time::Duration,
};

use anyhow::{Context, bail};
use bytes::BytesMut;
use clap::Args;
use spielleiter_protocol::{FrameDecoder, StreamEvent};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};
use tokio_util::codec::Decoder;

use crate::serve::ServerLocation;

/// Which server to probe. Without `--addr`, the addresses come from the
/// server's own settings (config file, `SPIELLEITER_LISTEN`,
/// `SPIELLEITER_PORT`, `SPIELLEITER_HTTP`, `SPIELLEITER_HTTP_PORT`), so a
/// container's health check needs no arguments.
#[derive(Debug, Args)]
pub struct HealthArgs {
    /// The server's game port to probe, `HOST:PORT` [default: the
    /// configured port on loopback, or on the listen address if it is a
    /// specific one].
    #[arg(long, value_name = "HOST:PORT")]
    addr: Option<String>,
    /// The web side to probe (`/healthz`), `HOST:PORT` [default: the
    /// configured web port as for the game port, if the web side is on and
    /// `--addr` is not given].
    #[arg(long, value_name = "HOST:PORT")]
    http_addr: Option<String>,
    /// The server's settings, read as `serve` reads them.
    #[command(flatten)]
    server: ServerLocation,
    /// Milliseconds the whole probe may take.
    #[arg(long, default_value_t = 3000, value_name = "MS")]
    timeout_ms: u64,
}

/// Probes the server (and its web side); an error means unhealthy.
pub fn run(args: &HealthArgs) -> anyhow::Result<()> {
    let (game, web) = match &args.addr {
        Some(addr) => (addr.clone(), args.http_addr.clone()),
        None => {
            let config = args.server.load()?;
            let web = args
                .http_addr
                .clone()
                .or_else(|| config.http_addr().map(|a| reachable(a).to_string()));
            (reachable(config.listen_addr()).to_string(), web)
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let limit = Duration::from_millis(args.timeout_ms);
    runtime.block_on(async {
        let probes = async {
            probe(&game)
                .await
                .with_context(|| format!("unhealthy: {game}"))?;
            if let Some(web) = &web {
                probe_web(web)
                    .await
                    .with_context(|| format!("unhealthy: http://{web}/healthz"))?;
            }
            anyhow::Ok(())
        };
        match tokio::time::timeout(limit, probes).await {
            Ok(result) => result,
            Err(_) => bail!("unhealthy: no answer within {limit:?}"),
        }
    })?;
    match web {
        Some(web) => println!("healthy: {game} answers, and http://{web}/healthz"),
        None => println!("healthy: {game} answers"),
    }
    Ok(())
}

/// Where a server listening on `addr` can be reached from this machine: on
/// loopback when it listens on all interfaces.
fn reachable(mut addr: SocketAddr) -> SocketAddr {
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => addr.set_ip(Ipv4Addr::LOCALHOST.into()),
        IpAddr::V6(ip) if ip.is_unspecified() => addr.set_ip(Ipv6Addr::LOCALHOST.into()),
        _ => {}
    }
    addr
}

/// Asks the web side's `/healthz`; it must answer `200` with `ok`.
async fn probe_web(target: &str) -> anyhow::Result<()> {
    // HTTP/1.0: the server closes the connection after its answer.
    let request = b"GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n";
    check_web_answer(&exchange(target, request, false).await?)
}

/// Sends `request` to `target` (then closes the writing half if
/// `end_request`) and reads the answer until the other side closes, at
/// most [`ANSWER_LIMIT`] bytes.
async fn exchange(target: &str, request: &[u8], end_request: bool) -> anyhow::Result<Vec<u8>> {
    let mut stream = TcpStream::connect(target).await.context("cannot connect")?;
    stream.write_all(request).await?;
    if end_request {
        stream.shutdown().await?;
    }
    let mut answer = Vec::new();
    (&mut stream)
        .take(ANSWER_LIMIT)
        .read_to_end(&mut answer)
        .await
        .context("cannot read the answer")?;
    Ok(answer)
}

/// The answer of `/healthz`: status 200 and the body `ok`.
fn check_web_answer(answer: &[u8]) -> anyhow::Result<()> {
    let text = String::from_utf8_lossy(answer);
    let status = text.lines().next().unwrap_or_default();
    let healthy = status.split(' ').nth(1) == Some("200")
        && text
            .split_once("\r\n\r\n")
            .is_some_and(|(_, body)| body.trim() == "ok");
    if healthy {
        Ok(())
    } else if text.is_empty() {
        bail!("the web side closed without answering")
    } else {
        bail!("the web side answered {status:?}")
    }
}

/// The largest answer read: the server's reply to an empty document is a
/// few bytes; a refusal (server full) a few hundred.
const ANSWER_LIMIT: u64 = 64 * 1024;

async fn probe(target: &str) -> anyhow::Result<()> {
    check_answer(&exchange(target, b"<protocol></protocol>", true).await?)
}

/// The answer must be a protocol document without packets: a packet here
/// can only be an error (e.g. the connection limit is reached).
fn check_answer(answer: &[u8]) -> anyhow::Result<()> {
    let mut buffer = BytesMut::from(answer);
    let mut decoder = FrameDecoder::new();
    match decoder.decode_eof(&mut buffer) {
        Ok(Some(StreamEvent::End)) => Ok(()),
        Ok(Some(StreamEvent::Frame(frame))) => bail!(
            "the server answered with a packet: {}",
            String::from_utf8_lossy(frame.as_bytes())
        ),
        Ok(None) if answer.is_empty() => bail!("the server closed without answering"),
        Ok(None) => bail!("the server's answer is not a protocol document"),
        Err(error) => bail!("the server's answer is malformed: {error}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_document_is_healthy() {
        check_answer(b"<protocol/>").expect("healthy");
        check_answer(b"<protocol>\n</protocol>").expect("healthy");
    }

    #[test]
    fn silence_a_refusal_or_garbage_is_unhealthy() {
        let silent = check_answer(b"").expect_err("unhealthy");
        assert!(silent.to_string().contains("without answering"), "{silent}");
        let full = check_answer(b"<protocol><errorpacket message=\"server full\"/>\n</protocol>")
            .expect_err("unhealthy");
        assert!(full.to_string().contains("server full"), "{full}");
        check_answer(b"HTTP/1.1 400 Bad Request\r\n\r\n").expect_err("unhealthy");
    }

    #[test]
    fn the_web_side_must_say_ok() {
        check_web_answer(b"HTTP/1.0 200 OK\r\ncontent-length: 3\r\n\r\nok\n").expect("healthy");
        let missing = check_web_answer(b"HTTP/1.0 404 Not Found\r\n\r\n").expect_err("unhealthy");
        assert!(missing.to_string().contains("404"), "{missing}");
        check_web_answer(b"HTTP/1.0 200 OK\r\n\r\nsomething else").expect_err("unhealthy");
        check_web_answer(b"").expect_err("unhealthy");
    }
}
