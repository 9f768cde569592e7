//! A web side embedded in a tool or a test ([`EmbeddedWeb`]): served on
//! the current runtime until dropped.

use std::{net::SocketAddr, sync::Arc};

use spielleiter_server::stats::ServerStats;
use tokio::net::TcpListener;

use crate::{app::WebSettings, connections::serve, routes::router};

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
        let limits = settings.limits.clone();
        let router = router(Arc::clone(&stats), settings);
        let task = tokio::spawn(async move {
            serve(listener, router, &limits, stats, std::future::pending()).await
        });
        Ok(EmbeddedWeb { addr, task })
    }

    /// Where the pages are served.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The pages on a free loopback port, open to loopback, with the
    /// replays of `dir`: what the crate's tests of replay routes serve.
    #[cfg(test)]
    pub(crate) async fn with_replays_of(dir: &std::path::Path) -> EmbeddedWeb {
        use spielleiter_server::config::HttpPublic;

        use crate::access::Access;

        let settings = WebSettings::new(
            Access::new([127, 0, 0, 1].into(), HttpPublic::Auto, None),
            Some(dir.to_owned()),
        );
        let loopback = SocketAddr::from(([127, 0, 0, 1], 0));
        EmbeddedWeb::start(loopback, Arc::default(), settings)
            .await
            .expect("a free loopback port")
    }
}

impl Drop for EmbeddedWeb {
    fn drop(&mut self) {
        self.task.abort();
    }
}
