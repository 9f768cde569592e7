//! The host's end of a player's only connection: a Unix socket in the
//! seat's run directory (bind-mounted into the container) whose every
//! connection is carried to the game server's address, and nowhere else.

use std::{
    io::Write,
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    sync::Arc,
    time::{Duration, Instant},
};

use tokio::{
    net::{TcpStream, UnixListener},
    sync::Semaphore,
    task::{JoinHandle, JoinSet},
};

/// Connections carried at the same time for one seat (as many as the relay
/// inside allows).
const MAX_CONNECTIONS: usize = 4;

/// How long connecting to the game server may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// A running forwarder; dropping it closes the socket and every connection.
#[derive(Debug)]
pub(crate) struct Forwarder {
    task: JoinHandle<()>,
    socket: PathBuf,
}

impl Forwarder {
    /// Listens on `socket` (readable and writable by any user: the
    /// container's user connects to it) and carries each connection to
    /// `host:port`.
    /// The first connection is noted in `log` with the time since
    /// `started` (the container's start cost, BENCHMARKS.md).
    pub(crate) fn start(
        socket: &Path,
        host: &str,
        port: u16,
        mut log: std::fs::File,
        started: Instant,
    ) -> std::io::Result<Forwarder> {
        let listener = UnixListener::bind(socket)?;
        std::fs::set_permissions(socket, std::fs::Permissions::from_mode(0o666))?;
        let host = host.to_owned();
        let task = tokio::spawn(async move {
            let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
            let mut connections = JoinSet::new();
            let mut first = true;
            let mut first_closed_log = log.try_clone().ok();
            loop {
                tokio::select! {
                    accepted = listener.accept() => {
                        let Ok((player, _)) = accepted else { continue };
                        if std::mem::take(&mut first) {
                            let _ = writeln!(
                                log,
                                "[spielleiter sandbox] the player connected {} ms after its container was started",
                                started.elapsed().as_millis()
                            );
                        }
                        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
                            tracing::warn!("a sandboxed player opened too many connections: one refused");
                            continue;
                        };
                        let host = host.clone();
                        // The first connection's end is noted too: from it
                        // to the container's end is the cost of stopping.
                        let closed_log = first_closed_log.take();
                        connections.spawn(async move {
                            let _slot = slot;
                            carry(player, &host, port).await;
                            if let Some(mut log) = closed_log {
                                let _ = writeln!(
                                    log,
                                    "[spielleiter sandbox] the player's connection closed {} ms after its container was started",
                                    started.elapsed().as_millis()
                                );
                            }
                        });
                    }
                    Some(_) = connections.join_next(), if !connections.is_empty() => {}
                }
            }
        });
        Ok(Forwarder {
            task,
            socket: socket.to_owned(),
        })
    }
}

async fn carry(mut player: tokio::net::UnixStream, host: &str, port: u16) {
    let server = tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect((host, port))).await;
    let mut server = match server {
        Ok(Ok(server)) => server,
        Ok(Err(error)) => {
            tracing::warn!(%host, port, %error, "a sandboxed player's connection: the game server refused");
            return;
        }
        Err(_) => {
            tracing::warn!(%host, port, "a sandboxed player's connection: the game server did not answer");
            return;
        }
    };
    // A move reaches the forwarder in pieces as the player writes it; with
    // Nagle's algorithm a piece written while the one before is
    // unacknowledged waits for the server's delayed ACK (40 ms). The
    // server's own socket sends without delay, as here.
    if let Err(error) = server.set_nodelay(true) {
        tracing::warn!(%host, port, %error, "a sandboxed player's connection: cannot turn off Nagle's algorithm");
    }
    // The copy's buffers are fixed (8 KiB each way); the server bounds what
    // a connection may send.
    let _ = tokio::io::copy_bidirectional(&mut player, &mut server).await;
}

impl Drop for Forwarder {
    fn drop(&mut self) {
        self.task.abort();
        let _ = std::fs::remove_file(&self.socket);
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    #[tokio::test]
    async fn a_connection_reaches_the_server_and_ends_with_the_forwarder() {
        let dir = tempfile::tempdir().expect("dir");
        let server = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("listen");
        let port = server.local_addr().expect("addr").port();
        let socket = dir.path().join("game.sock");
        let log = tempfile::tempfile().expect("log");
        let forwarder =
            Forwarder::start(&socket, "127.0.0.1", port, log, Instant::now()).expect("forwarder");
        let mode = std::fs::metadata(&socket)
            .expect("socket")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o666);

        let mut player = tokio::net::UnixStream::connect(&socket)
            .await
            .expect("connect");
        let (mut accepted, _) = server.accept().await.expect("accept");
        player.write_all(b"<protocol>").await.expect("write");
        let mut got = [0; 10];
        accepted.read_exact(&mut got).await.expect("read");
        assert_eq!(&got, b"<protocol>");
        accepted.write_all(b"<joined/>").await.expect("write back");
        let mut back = [0; 9];
        player.read_exact(&mut back).await.expect("read back");
        assert_eq!(&back, b"<joined/>");

        drop(forwarder);
        // The connection goes with the forwarder, and so does the socket.
        let mut rest = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(5), accepted.read_to_end(&mut rest))
            .await
            .expect("the connection ends");
        assert_eq!(read.expect("read"), 0);
        assert!(!socket.exists());
    }
}
