//! Connections from inside the server's own process ([`InProcess`]): an
//! in-memory pipe (`tokio::io::duplex`) whose server end the accept loop
//! serves like an accepted socket, with its standing fixed from the start
//! ([`Standing`]). The tools that run a server in their own process (the
//! match runner's `--start-server`, `serve`'s web side, the demo) administer
//! it this way, so no passphrase crosses TCP and nothing they do shares an
//! address, or the passphrase back-off of one, with the players: a player
//! guessing the passphrase delays no in-process administrator.

use std::time::Duration;

use tokio::{
    io::DuplexStream,
    sync::{mpsc, oneshot},
};

/// Bytes an in-process pipe buffers in each direction: a state of the
/// largest game fits (a Blokus memento is about 5 KiB) several times over.
const PIPE_BYTES: usize = 64 * 1024;

/// Requests for in-process connections the accept loop has not taken yet.
const WAITING_REQUESTS: usize = 64;

/// How long opening an in-process connection may take: the accept loop
/// takes a request as soon as it is polled.
const OPEN_LIMIT: Duration = Duration::from_secs(10);

/// What an in-process connection may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Administrator from the start: prepares, observes and cancels rooms
    /// without `authenticate` (which it need not send; if it does, it is
    /// ignored).
    Administrator,
    /// A player: joins and moves, and never administers; its
    /// `authenticate` is refused at once, without a check and without
    /// touching the passphrase back-off.
    Player,
}

impl std::fmt::Display for Standing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Standing::Administrator => "in-process administrator",
            Standing::Player => "in-process player",
        })
    }
}

/// Why an in-process connection could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum InProcessError {
    /// The server has stopped accepting connections.
    #[error("the game server has stopped")]
    Stopped,
    /// The server holds as many connections as it may.
    #[error("the game server is full ({0} connections); try again later")]
    Full(usize),
    /// The accept loop did not take the request in time.
    #[error("the game server did not take the connection in time")]
    TimedOut,
}

/// A request for a connection, as the accept loop receives it.
#[derive(Debug)]
pub(crate) struct Request {
    /// The server's end of the pipe.
    pub(crate) stream: DuplexStream,
    pub(crate) standing: Standing,
    /// Told whether the connection is served.
    pub(crate) served: oneshot::Sender<Result<(), InProcessError>>,
}

/// The accept loop's end: the requests to serve.
#[derive(Debug)]
pub struct InProcessRequests {
    pub(crate) receiver: mpsc::Receiver<Request>,
}

/// Opens connections to a server of this process. Cheap to clone; once the
/// server stops accepting, every open fails with
/// [`InProcessError::Stopped`].
#[derive(Clone, Debug)]
pub struct InProcess {
    sender: mpsc::Sender<Request>,
}

impl InProcess {
    /// A door and the requests that come through it, for
    /// [`run_shared`](crate::run_shared).
    pub fn channel() -> (InProcess, InProcessRequests) {
        let (sender, receiver) = mpsc::channel(WAITING_REQUESTS);
        (InProcess { sender }, InProcessRequests { receiver })
    }

    /// A connection with `standing`: the client's end of the pipe, which
    /// speaks the protocol as a TCP connection would (the client opens the
    /// document with `<protocol>`).
    ///
    /// # Errors
    ///
    /// The server has stopped, is full, or did not answer in time.
    pub async fn connect(&self, standing: Standing) -> Result<DuplexStream, InProcessError> {
        let (client, server) = tokio::io::duplex(PIPE_BYTES);
        let (served, answer) = oneshot::channel();
        let request = Request {
            stream: server,
            standing,
            served,
        };
        let opened = async {
            self.sender
                .send(request)
                .await
                .map_err(|_| InProcessError::Stopped)?;
            answer.await.map_err(|_| InProcessError::Stopped)?
        };
        tokio::time::timeout(OPEN_LIMIT, opened)
            .await
            .map_err(|_| InProcessError::TimedOut)??;
        Ok(client)
    }

    /// [`InProcess::connect`] as administrator.
    ///
    /// # Errors
    ///
    /// As [`InProcess::connect`].
    pub async fn administrator(&self) -> Result<DuplexStream, InProcessError> {
        self.connect(Standing::Administrator).await
    }

    /// [`InProcess::connect`] as a player.
    ///
    /// # Errors
    ///
    /// As [`InProcess::connect`].
    pub async fn player(&self) -> Result<DuplexStream, InProcessError> {
        self.connect(Standing::Player).await
    }
}
