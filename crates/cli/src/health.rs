//! `spielleiter health`: checks that a server answers on its game port, for
//! a container's health check (a scratch image has no shell or curl). Exit
//! status 0 means healthy.
//!
//! Healthy means more than an open port: the probe opens a protocol
//! document and closes it at once (`<protocol></protocol>`), and the server
//! must end its own document in reply. That proves the accept loop, a
//! connection task and the writer all run, without joining a game or
//! leaving a trace above the debug log level.

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

/// Which server to probe. Without `--addr`, the address comes from the
/// server's own settings (config file, `SPIELLEITER_LISTEN`,
/// `SPIELLEITER_PORT`), so a container's health check needs no arguments.
#[derive(Debug, Args)]
pub struct HealthArgs {
    /// The server to probe, `HOST:PORT` [default: the configured port on
    /// loopback, or on the listen address if it is a specific one].
    #[arg(long, value_name = "HOST:PORT")]
    addr: Option<String>,
    /// The server's settings, read as `serve` reads them.
    #[command(flatten)]
    server: ServerLocation,
    /// Milliseconds the whole probe may take.
    #[arg(long, default_value_t = 3000, value_name = "MS")]
    timeout_ms: u64,
}

/// Probes the server; an error means unhealthy.
pub fn run(args: &HealthArgs) -> anyhow::Result<()> {
    let target = match &args.addr {
        Some(addr) => addr.clone(),
        None => probe_address(args)?.to_string(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let limit = Duration::from_millis(args.timeout_ms);
    runtime.block_on(async {
        match tokio::time::timeout(limit, probe(&target)).await {
            Ok(result) => result.with_context(|| format!("unhealthy: {target}")),
            Err(_) => bail!("unhealthy: {target} did not answer within {limit:?}"),
        }
    })?;
    println!("healthy: {target} answers");
    Ok(())
}

/// Where the configured server can be reached from this machine: its port
/// on loopback when it listens on all interfaces.
fn probe_address(args: &HealthArgs) -> anyhow::Result<SocketAddr> {
    let mut addr = args.server.load()?.listen_addr();
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => addr.set_ip(Ipv4Addr::LOCALHOST.into()),
        IpAddr::V6(ip) if ip.is_unspecified() => addr.set_ip(Ipv6Addr::LOCALHOST.into()),
        _ => {}
    }
    Ok(addr)
}

/// The largest answer read: the server's reply to an empty document is a
/// few bytes; a refusal (server full) a few hundred.
const ANSWER_LIMIT: u64 = 64 * 1024;

async fn probe(target: &str) -> anyhow::Result<()> {
    let mut stream = TcpStream::connect(target).await.context("cannot connect")?;
    stream.write_all(b"<protocol></protocol>").await?;
    stream.shutdown().await?;
    let mut answer = Vec::new();
    (&mut stream)
        .take(ANSWER_LIMIT)
        .read_to_end(&mut answer)
        .await
        .context("cannot read the answer")?;
    check_answer(&answer)
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
}
