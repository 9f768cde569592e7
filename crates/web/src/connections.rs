//! The web side's accept loop: owns its connection budget (in all and per
//! address), the time limit for a request's headers, and the connections'
//! orderly end.
//!
//! The budget is the web side's own, so that slow or idle browsers (or an
//! attacker's half-open requests) can never take the file descriptors the
//! game port needs: a connection over a cap is closed at once, and one
//! that has not sent a request's headers within
//! [`WebLimits::header_timeout`] of its start (or of the end of the
//! previous answer, so an idle keep-alive connection too) is closed by
//! hyper's header timer; one that takes nothing of what is sent to it for
//! [`WebLimits::stall_timeout`] is closed by its socket's writes failing
//! ([`StallLimited`]). axum's own `serve` has none of these.

use std::{
    convert::Infallible,
    future::Future,
    net::{IpAddr, Ipv4Addr, SocketAddr},
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
    time::Duration,
};

use axum::{
    Router,
    body::Body,
    extract::{ConnectInfo, FromRequestParts},
    http::{HeaderMap, request::Parts},
    routing::future::RouteFuture,
};
use hyper::{Request, body::Incoming, server::conn::http1};
use hyper_util::rt::{TokioIo, TokioTimer};
use spielleiter_server::{
    Config,
    limits::{AddressRange, AddressSlots, LogBudget},
    stats::ServerStats,
};
use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::{TcpListener, TcpStream},
    sync::Semaphore,
};
use tokio_util::{sync::CancellationToken, task::TaskTracker};
use tracing::{debug, error, warn};

/// The web side's connection budget and time limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebLimits {
    /// Connections served at once.
    pub max_connections: usize,
    /// Connections served at once from one address.
    pub max_connections_per_ip: usize,
    /// Whether loopback addresses are exempt from the caps per address
    /// (connections and event streams).
    pub loopback_exempt: bool,
    /// Event streams open at once from one address.
    pub max_streams_per_ip: usize,
    /// How long a connection may take to send a request's headers, from
    /// its start or from the end of the previous answer.
    pub header_timeout: Duration,
    /// How long a connection may take nothing of what is sent to it, and a
    /// request other than an event stream may take to its answer.
    pub stall_timeout: Duration,
    /// The reverse proxies whose `X-Forwarded-For` names the client a
    /// request counts as coming from ([`client_address`]).
    pub trusted_proxies: Vec<AddressRange>,
}

impl WebLimits {
    /// The limits `config` sets.
    pub fn from_config(config: &Config) -> WebLimits {
        WebLimits {
            max_connections: config.http_max_connections,
            max_connections_per_ip: config.http_max_connections_per_ip,
            loopback_exempt: config.loopback_exempt,
            max_streams_per_ip: config.http_max_streams_per_ip,
            header_timeout: config.http_header_timeout,
            stall_timeout: config.http_stall_timeout,
            trusted_proxies: config.http_trusted_proxies.clone(),
        }
    }
}

impl Default for WebLimits {
    fn default() -> WebLimits {
        WebLimits::from_config(&Config::default())
    }
}

/// The address a request counts as coming from, for the passphrase
/// back-off and the caps per address of seats and event streams: its TCP
/// peer, or behind a trusted proxy the client the proxy names
/// ([`client_address`]), as the accept loop hands it to each request; the
/// unspecified address when the router is called without one (a test
/// calling it in-process). The connection caps count TCP peers.
#[derive(Clone, Copy, Debug)]
pub struct Peer(pub IpAddr);

/// The client address [`WithPeer`] found for a request.
#[derive(Clone, Copy, Debug)]
struct Client(IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for Peer {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Peer, Infallible> {
        if let Some(Client(client)) = parts.extensions.get::<Client>() {
            return Ok(Peer(*client));
        }
        Ok(Peer(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.ip()),
        ))
    }
}

/// The address a request from `peer` counts as coming from: `peer`, unless
/// it is one of the `trusted` proxies; then the client they name in
/// `X-Forwarded-For`: the last address there that is no trusted proxy.
/// Each proxy appends the address it got the request from, so what a client
/// wrote into the header itself comes before and is never believed. A
/// trusted peer whose header names nobody usable counts as itself (or as the
/// last trusted proxy it names).
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[AddressRange]) -> IpAddr {
    let is_trusted = |ip: IpAddr| trusted.iter().any(|range| range.contains(ip));
    if !is_trusted(peer) {
        return peer;
    }
    let hops = headers
        .get_all("x-forwarded-for")
        .iter()
        .rev()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.rsplit(','));
    let mut client = peer;
    for hop in hops {
        // Something else than an address: nothing before it is believed.
        let Some(ip) = hop_address(hop.trim()) else {
            break;
        };
        client = ip;
        if !is_trusted(ip) {
            break;
        }
    }
    client.to_canonical()
}

/// An address as a proxy writes it into `X-Forwarded-For`: `1.2.3.4`,
/// `2001:db8::1`, or with a port (`1.2.3.4:5678`, `[2001:db8::1]:5678`).
fn hop_address(hop: &str) -> Option<IpAddr> {
    hop.parse::<IpAddr>()
        .ok()
        .or_else(|| hop.parse::<SocketAddr>().ok().map(|addr| addr.ip()))
}

/// The answer a connection over a cap gets, written if the socket takes it
/// at once (it is closed either way).
const REFUSAL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-type: text/plain; charset=utf-8\r\nretry-after: 5\r\ncontent-length: 33\r\n\r\ntoo many connections; try later\r\n";

/// Serves `router` on `listener` within `limits` until `shutdown`
/// resolves; then stops accepting and lets open requests finish (event
/// streams end when their rooms do). Connections refused over a cap are
/// counted in `stats` ([`ServerStats::web_refused_connections`]).
///
/// # Errors
///
/// None so far: a failed accept is logged (at most ten lines per ten
/// seconds) and retried after a pause.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: &WebLimits,
    stats: Arc<ServerStats>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let slots = AddressSlots::new(limits.max_connections_per_ip, limits.loopback_exempt);
    let trusted: Arc<[AddressRange]> = limits.trusted_proxies.clone().into();
    let mut accept_log = LogBudget::new(10, Duration::from_secs(10));
    let mut refusal_log = LogBudget::new(10, Duration::from_secs(10));
    let closing = CancellationToken::new();
    let tracker = TaskTracker::new();
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);

    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((socket, peer)) => {
                    let Some(slot) = slots.take(peer.ip()) else {
                        if let Some(suppressed) = refusal_log.allow() {
                            warn!(%peer, limit = limits.max_connections_per_ip, suppressed, "web side: connection limit per address reached; refusing");
                        }
                        refuse(&socket, &stats);
                        continue;
                    };
                    let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
                        if let Some(suppressed) = refusal_log.allow() {
                            warn!(%peer, limit = limits.max_connections, suppressed, "web side: connection limit reached; refusing");
                        }
                        refuse(&socket, &stats);
                        continue;
                    };
                    let service = WithPeer {
                        router: router.clone(),
                        peer,
                        trusted: Arc::clone(&trusted),
                    };
                    let socket = StallLimited::new(socket, limits.stall_timeout);
                    let connection = builder.serve_connection(TokioIo::new(socket), service);
                    let closing = closing.clone();
                    tracker.spawn(async move {
                        tokio::pin!(connection);
                        let ended = tokio::select! {
                            ended = connection.as_mut() => ended,
                            () = closing.cancelled() => {
                                connection.as_mut().graceful_shutdown();
                                connection.await
                            }
                        };
                        if let Err(error) = ended {
                            // Timeouts and clients that went away: normal
                            // on the web.
                            debug!(%peer, %error, "web connection ended");
                        }
                        drop((permit, slot));
                    });
                }
                Err(error) => {
                    // Usually out of file descriptors: back off instead of
                    // spinning, and do not flood the log.
                    if let Some(suppressed) = accept_log.allow() {
                        error!(%error, suppressed, "web side: accept failed");
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
            () = &mut shutdown => break,
        }
    }
    drop(listener);
    closing.cancel();
    tracker.close();
    tracker.wait().await;
    Ok(())
}

/// Tells a connection over a cap so if its socket takes the answer at once,
/// counts it, and closes it.
fn refuse(socket: &TcpStream, stats: &ServerStats) {
    stats
        .web_refused_connections
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let _ = socket.try_write(REFUSAL);
}

/// A socket whose writes fail once the peer has taken nothing for the
/// limit: a page that stopped reading gives its connection (and its event
/// stream's place) back instead of holding it forever.
#[derive(Debug)]
pub struct StallLimited<T> {
    inner: T,
    limit: Duration,
    /// Since when writes wait, if they do.
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<T> StallLimited<T> {
    /// `inner`, whose writes may wait at most `limit`.
    pub fn new(inner: T, limit: Duration) -> StallLimited<T> {
        StallLimited {
            inner,
            limit,
            stalled: None,
        }
    }

    /// What a write that waits says: still waiting, or (past the limit) an
    /// error.
    fn waiting<R>(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<R>> {
        let limit = self.limit;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match stalled.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the peer took nothing within the stall limit",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for StallLimited<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for StallLimited<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_write(cx, buf) {
            Poll::Pending => this.waiting(cx),
            ready => {
                this.stalled = None;
                ready
            }
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_write_vectored(cx, bufs) {
            Poll::Pending => this.waiting(cx),
            ready => {
                this.stalled = None;
                ready
            }
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_flush(cx) {
            Poll::Pending => this.waiting(cx),
            ready => {
                this.stalled = None;
                ready
            }
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// The router with the peer's address put into each request, as axum's
/// `ConnectInfo` would, and the client address it counts as
/// ([`client_address`]).
#[derive(Clone)]
struct WithPeer {
    router: Router,
    peer: SocketAddr,
    trusted: Arc<[AddressRange]>,
}

impl hyper::service::Service<Request<Incoming>> for WithPeer {
    type Response = axum::response::Response;
    type Error = Infallible;
    type Future = RouteFuture<Infallible>;

    fn call(&self, mut request: Request<Incoming>) -> Self::Future {
        let client = client_address(self.peer.ip(), request.headers(), &self.trusted);
        request.extensions_mut().insert(ConnectInfo(self.peer));
        request.extensions_mut().insert(Client(client));
        tower_service::Service::call(&mut self.router.clone(), request.map(Body::new))
    }
}

#[cfg(test)]
mod tests;
