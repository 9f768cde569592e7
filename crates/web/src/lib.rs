//! The web side of Spielleiter: pages to watch running games live and to
//! step through replays, board pictures, Prometheus metrics and a health
//! check, served over HTTP (axum) on a port of its own in the server's
//! process and runtime.
//!
//! The web side reads what the server publishes and nothing else: the
//! rooms' snapshots and the counters ([`ServerStats`], with its
//! [`showroom`](spielleiter_server::showroom)) and the replay directory. It
//! cannot send anything to a room, so watching never lets anyone move, and
//! a slow or busy page never slows a game (see [`live`]).
//!
//! # Routes
//!
//! | route | what |
//! | --- | --- |
//! | `/` | the open rooms (live) and the last finished games |
//! | `/rooms/{id}` | one room's board, players, points and clock, live |
//! | `/replays`, `/replays/{name}` | the replays, and a viewer for one |
//! | `/login` | the administrator's login (see [`access`]) |
//! | `/api/rooms`, `/api/rooms/{id}`, `/api/rooms/{id}/events`, `/api/rooms/{id}/board.svg` | the rooms' JSON, event stream and board |
//! | `/api/replays`, `/api/replays/{name}` | the replays' JSON |
//! | `/metrics` | Prometheus text ([`metrics`]) |
//! | `/healthz` | `ok` |
//!
//! The pages are plain HTML with a little JavaScript, embedded in the
//! binary (`assets/`).

pub mod access;
pub mod archive;
pub mod error;
pub mod live;
pub mod metrics;
mod pages;
pub mod replays;
pub mod views;

use std::{future::Future, net::SocketAddr, path::PathBuf, sync::Arc};

use axum::{Router, routing::get};
use spielleiter_server::stats::ServerStats;
use tokio::{net::TcpListener, sync::Semaphore};

pub use crate::access::Access;

/// Event streams open at once; more are refused until one ends.
pub const MAX_STREAMS: usize = 1024;

/// What the web side serves.
#[derive(Debug)]
pub struct WebSettings {
    /// Who may watch running games.
    pub access: Access,
    /// The replay directory; `None` when replays are off.
    pub replay_dir: Option<PathBuf>,
}

/// The state every handler shares.
#[derive(Debug)]
pub struct App {
    stats: Arc<ServerStats>,
    access: Access,
    replay_dir: Option<PathBuf>,
    /// One permit per open event stream.
    streams: Arc<Semaphore>,
    /// The boards the event streams share.
    boards: live::Boards,
    /// Spaces out the live events of all streams together.
    pacer: live::EventPacer,
}

impl App {
    /// The number of open event streams.
    fn open_streams(&self) -> u64 {
        (MAX_STREAMS - self.streams.available_permits()) as u64
    }
}

/// The web side's routes over the server's `stats`.
pub fn router(stats: Arc<ServerStats>, settings: WebSettings) -> Router {
    let app = Arc::new(App {
        stats,
        access: settings.access,
        replay_dir: settings.replay_dir,
        streams: Arc::new(Semaphore::new(MAX_STREAMS)),
        boards: live::Boards::default(),
        pacer: live::EventPacer::default(),
    });
    Router::new()
        .route("/", get(pages::index))
        .route("/rooms/{id}", get(pages::room))
        .route("/replays", get(pages::replays))
        .route("/replays/{name}", get(pages::replay))
        .route("/login", get(pages::login_form).post(pages::log_in))
        .route("/assets/{file}", get(pages::asset))
        .route("/api/rooms", get(live::list))
        .route("/api/rooms/{id}", get(live::room))
        .route("/api/rooms/{id}/events", get(live::events))
        .route("/api/rooms/{id}/board.svg", get(live::board))
        .route("/api/replays", get(archive::list))
        .route("/api/replays/{name}", get(archive::replay))
        .route("/metrics", get(metrics::metrics))
        .route("/healthz", get(pages::health))
        .fallback(pages::not_found)
        .with_state(app)
}

/// Serves `router` on `listener` until `shutdown` resolves; open event
/// streams end when their rooms do.
///
/// # Errors
///
/// The listener fails.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router)
        .with_graceful_shutdown(shutdown)
        .await
}

/// A web side running on the current runtime, for tools and tests that
/// embed a server. Dropping it stops serving.
#[derive(Debug)]
pub struct EmbeddedWeb {
    addr: SocketAddr,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl EmbeddedWeb {
    /// Binds `addr` (port 0 picks a free one) and serves the pages of the
    /// server whose counters are `stats`.
    ///
    /// # Errors
    ///
    /// The address cannot be bound.
    pub async fn start(
        addr: SocketAddr,
        stats: Arc<ServerStats>,
        settings: WebSettings,
    ) -> std::io::Result<EmbeddedWeb> {
        let listener = TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let task = tokio::spawn(serve(
            listener,
            router(stats, settings),
            std::future::pending(),
        ));
        Ok(EmbeddedWeb { addr, task })
    }

    /// Where the pages are served.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for EmbeddedWeb {
    fn drop(&mut self) {
        self.task.abort();
    }
}
