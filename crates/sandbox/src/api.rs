//! The Docker daemon's API on its Unix socket: the calls of a match
//! (create, attach, wait, start, inspect, remove, and the checks and the
//! sweep before it), each one HTTP/1.1 exchange on a connection of its own,
//! without a client process.
//!
//! Every call is bounded in time ([`CALL_TIMEOUT`], from connecting to the
//! answer's last byte) and every answer in bytes ([`ANSWER_LIMIT`]); the
//! two calls that last as long as the container does are bounded by their
//! caller: the attached output stream ([`Daemon::attach`]) is read into the
//! seat's log within its byte budget, and the wait for the container's end
//! ([`Waiting::status`]) until the sandbox's wall clock.
//!
//! The daemon is found as Docker's client finds it: `DOCKER_HOST` when it is
//! set (only `unix://PATH` here; a TCP or SSH daemon is refused with one
//! line), else `/var/run/docker.sock`. The paths are not versioned: the
//! daemon answers in its own API version (Docker 20.10's is 1.41; Docker 29
//! refuses versions before 1.44), and every field used here means the same
//! in all of them.

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use bytes::{Bytes, BytesMut};
use http_body_util::{BodyExt, Full};
use hyper::{Method, Request, Response, StatusCode, body::Incoming, client::conn::http1, header};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::{net::UnixStream, task::JoinHandle};

/// How long one call of the daemon may take, from connecting to the last
/// byte of its answer (a loaded daemon takes seconds to remove a
/// container).
pub(crate) const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// How much of an answer is read: enough for the list of thousands of
/// containers; a longer answer fails its call.
pub(crate) const ANSWER_LIMIT: usize = 4 * 1024 * 1024;

/// Where the daemon listens when `DOCKER_HOST` does not say.
const DEFAULT_SOCKET: &str = "/var/run/docker.sock";

/// How much of an error's answer is quoted when it is not Docker's JSON.
const QUOTED: usize = 300;

/// Why a call of the Docker daemon failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DaemonError {
    /// `DOCKER_HOST` names a daemon that is not on a Unix socket.
    #[error(
        "DOCKER_HOST={0}: only a daemon on a Unix socket (unix://PATH) can run sandboxed players"
    )]
    UnsupportedHost(String),
    /// The daemon's socket cannot be connected to.
    #[error("cannot connect to the Docker daemon at {}: {source}", socket.display())]
    Connect {
        /// The daemon's socket.
        socket: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The exchange with the daemon broke (closed early, not HTTP).
    #[error("{call}: {source}")]
    Http {
        /// The call, as `METHOD PATH`.
        call: String,
        /// Why.
        #[source]
        source: hyper::Error,
    },
    /// The daemon did not answer in time.
    #[error("{call} took longer than {limit:?}")]
    TimedOut {
        /// The call, as `METHOD PATH`.
        call: String,
        /// Its time limit.
        limit: Duration,
    },
    /// The daemon's answer was longer than it may be.
    #[error("{call}: the daemon's answer is longer than {limit} bytes")]
    TooLarge {
        /// The call, as `METHOD PATH`.
        call: String,
        /// The limit.
        limit: usize,
    },
    /// The daemon refused the call.
    #[error("{call}: {status}: {message}")]
    Refused {
        /// The call, as `METHOD PATH`.
        call: String,
        /// The answer's HTTP status.
        status: u16,
        /// Docker's message.
        message: String,
    },
    /// The daemon's answer is not what the call expects.
    #[error("{call}: unexpected answer: {what}")]
    Unexpected {
        /// The call, as `METHOD PATH`.
        call: String,
        /// What was wrong with it.
        what: String,
    },
}

impl DaemonError {
    /// Whether the daemon said that what the call names does not exist.
    pub(crate) fn is_not_found(&self) -> bool {
        matches!(self, DaemonError::Refused { status: 404, .. })
    }
}

/// The Docker daemon, as reached on its Unix socket.
#[derive(Clone, Debug)]
pub(crate) struct Daemon {
    socket: PathBuf,
}

/// A connection's task, ended when the call that opened it is done with it.
struct Connection(JoinHandle<()>);

impl Drop for Connection {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// An answer whose body is still to be read, and its connection.
struct Answer {
    call: String,
    response: Response<Incoming>,
    _connection: Connection,
}

/// How a container's removal went.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Removal {
    /// It was there and is removed now.
    Removed,
    /// There was no such container (removed already, or never created).
    Gone,
}

/// A container of the sandbox as the daemon lists it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Listed {
    pub name: String,
    /// Its owner label, empty when it has none.
    pub owner: String,
}

/// A wait for a container's end, registered with the daemon (so an end
/// after this cannot be missed).
#[derive(Debug)]
pub(crate) struct Waiting {
    call: String,
    body: Incoming,
    _connection: Connection,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Connection")
    }
}

impl Daemon {
    /// The daemon `DOCKER_HOST` names, or the default one.
    ///
    /// # Errors
    ///
    /// `DOCKER_HOST` names a daemon that is not on a Unix socket.
    pub(crate) fn from_env() -> Result<Daemon, DaemonError> {
        let host = std::env::var("DOCKER_HOST").ok();
        Ok(Daemon::at(socket_of(host.as_deref())?))
    }

    /// The daemon listening on `socket`.
    pub(crate) fn at(socket: impl Into<PathBuf>) -> Daemon {
        Daemon {
            socket: socket.into(),
        }
    }

    /// Sends one request on a connection of its own and waits for the
    /// answer's head; no time limit (the callers bound it).
    async fn exchange(
        &self,
        method: Method,
        path: &str,
        body: Option<Vec<u8>>,
        upgrade: bool,
    ) -> Result<Answer, DaemonError> {
        let call = format!("{method} {path}");
        let stream =
            UnixStream::connect(&self.socket)
                .await
                .map_err(|source| DaemonError::Connect {
                    socket: self.socket.clone(),
                    source,
                })?;
        let http = |source| DaemonError::Http {
            call: call.clone(),
            source,
        };
        let (mut sender, connection) =
            http1::handshake(TokioIo::new(stream)).await.map_err(http)?;
        let connection = Connection(tokio::spawn(async move {
            if let Err(error) = connection.with_upgrades().await {
                tracing::debug!(%error, "a connection to the Docker daemon ended with an error");
            }
        }));
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, "docker");
        if upgrade {
            request = request
                .header(header::CONNECTION, "Upgrade")
                .header(header::UPGRADE, "tcp");
        }
        if body.is_some() {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        let request = request
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|error| DaemonError::Unexpected {
                call: call.clone(),
                what: format!("the request cannot be made: {error}"),
            })?;
        let response = sender.send_request(request).await.map_err(http)?;
        Ok(Answer {
            call,
            response,
            _connection: connection,
        })
    }

    /// One whole call: the request, and the answer's status and body, in
    /// [`CALL_TIMEOUT`] and [`ANSWER_LIMIT`]. A status other than 2xx is
    /// [`DaemonError::Refused`] with Docker's message.
    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<Vec<u8>>,
    ) -> Result<(StatusCode, Bytes), DaemonError> {
        let call = format!("{method} {path}");
        bounded(&call, CALL_TIMEOUT, async {
            let answer = self.exchange(method, path, body, false).await?;
            let status = answer.response.status();
            let body = read_body(&answer.call, answer.response.into_body(), ANSWER_LIMIT).await?;
            if status.is_success() {
                Ok((status, body))
            } else {
                Err(refused(&answer.call, status, &body))
            }
        })
        .await
    }

    /// A call whose answer is JSON.
    async fn json(&self, method: Method, path: &str) -> Result<Value, DaemonError> {
        let (_, body) = self.call(method.clone(), path, None).await?;
        serde_json::from_slice(&body).map_err(|error| DaemonError::Unexpected {
            call: format!("{method} {path}"),
            what: format!("not JSON: {error}"),
        })
    }

    /// The daemon's version (whether it answers at all).
    pub(crate) async fn version(&self) -> Result<String, DaemonError> {
        let path = "/version";
        let answer = self.json(Method::GET, path).await?;
        text_at(&answer, "/Version")
            .map(str::to_owned)
            .ok_or_else(|| unexpected(Method::GET, path, "no Version"))
    }

    /// What the daemon says of image `image`; `None` when it has no such
    /// image.
    pub(crate) async fn inspect_image(&self, image: &str) -> Result<Option<Value>, DaemonError> {
        match self
            .json(
                Method::GET,
                &format!("/images/{}/json", encode(image, b":/@")),
            )
            .await
        {
            Ok(answer) => Ok(Some(answer)),
            Err(error) if error.is_not_found() => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// Every container (running or not) that carries the label `label`.
    pub(crate) async fn list(
        &self,
        label: &str,
        owner_label: &str,
    ) -> Result<Vec<Listed>, DaemonError> {
        let filters = serde_json::json!({ "label": [label] }).to_string();
        let path = format!("/containers/json?all=1&filters={}", encode(&filters, b""));
        let answer = self.json(Method::GET, &path).await?;
        let containers = answer
            .as_array()
            .ok_or_else(|| unexpected(Method::GET, &path, "not a list"))?;
        let mut listed = Vec::with_capacity(containers.len());
        for container in containers {
            // Docker names a container with a leading slash.
            let Some(name) = container
                .pointer("/Names/0")
                .and_then(Value::as_str)
                .map(|name| name.trim_start_matches('/'))
                .filter(|name| !name.is_empty())
            else {
                continue;
            };
            let owner = container
                .get("Labels")
                .and_then(|labels| labels.get(owner_label))
                .and_then(Value::as_str)
                .unwrap_or_default();
            listed.push(Listed {
                name: name.to_owned(),
                owner: owner.to_owned(),
            });
        }
        Ok(listed)
    }

    /// Creates the container `name` from `config` (the create request's
    /// JSON); returns the daemon's warnings.
    pub(crate) async fn create(
        &self,
        name: &str,
        config: &[u8],
    ) -> Result<Vec<String>, DaemonError> {
        let path = format!("/containers/create?name={}", encode(name, b""));
        let (_, body) = self
            .call(Method::POST, &path, Some(config.to_vec()))
            .await?;
        let answer: Value = serde_json::from_slice(&body)
            .map_err(|error| unexpected(Method::POST, &path, &format!("not JSON: {error}")))?;
        Ok(answer
            .get("Warnings")
            .and_then(Value::as_array)
            .map(|warnings| {
                warnings
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default())
    }

    /// Attaches to the standard output and error of container `name`
    /// (before its start, so that nothing is missed): the stream Docker
    /// multiplexes them into ([`Frames`]), until the container's end.
    pub(crate) async fn attach(
        &self,
        name: &str,
    ) -> Result<TokioIo<hyper::upgrade::Upgraded>, DaemonError> {
        let path = format!(
            "/containers/{}/attach?stream=1&stdout=1&stderr=1",
            encode(name, b"")
        );
        let call = format!("POST {path}");
        bounded(&call, CALL_TIMEOUT, async {
            let answer = self.exchange(Method::POST, &path, None, true).await?;
            let status = answer.response.status();
            if status != StatusCode::SWITCHING_PROTOCOLS {
                let body = read_body(&call, answer.response.into_body(), ANSWER_LIMIT).await?;
                return Err(if status.is_success() {
                    unexpected(Method::POST, &path, "no upgrade to the output stream")
                } else {
                    refused(&call, status, &body)
                });
            }
            let upgraded = hyper::upgrade::on(answer.response)
                .await
                .map_err(|source| DaemonError::Http {
                    call: call.clone(),
                    source,
                })?;
            Ok(TokioIo::new(upgraded))
        })
        .await
    }

    /// Registers a wait for the next end of container `name` (before its
    /// start): the daemon answers the head at once and the body, the exit
    /// status, once the container has ended.
    pub(crate) async fn wait_next_exit(&self, name: &str) -> Result<Waiting, DaemonError> {
        let path = format!("/containers/{}/wait?condition=next-exit", encode(name, b""));
        let call = format!("POST {path}");
        bounded(&call, CALL_TIMEOUT, async {
            let answer = self.exchange(Method::POST, &path, None, false).await?;
            let status = answer.response.status();
            if !status.is_success() {
                let body = read_body(&call, answer.response.into_body(), ANSWER_LIMIT).await?;
                return Err(refused(&call, status, &body));
            }
            Ok(Waiting {
                call: answer.call,
                body: answer.response.into_body(),
                _connection: answer._connection,
            })
        })
        .await
    }

    /// Starts container `name` (one already running is not an error).
    pub(crate) async fn start(&self, name: &str) -> Result<(), DaemonError> {
        let path = format!("/containers/{}/start", encode(name, b""));
        self.call(Method::POST, &path, None).await.map(drop)
    }

    /// Whether the daemon says container `name` was killed at its memory
    /// limit.
    pub(crate) async fn oom_killed(&self, name: &str) -> Result<bool, DaemonError> {
        let path = format!("/containers/{}/json", encode(name, b""));
        let answer = self.json(Method::GET, &path).await?;
        answer
            .pointer("/State/OOMKilled")
            .and_then(Value::as_bool)
            .ok_or_else(|| unexpected(Method::GET, &path, "no State.OOMKilled"))
    }

    /// Removes container `name` by force (killing it if it runs) with its
    /// anonymous volumes.
    pub(crate) async fn remove(&self, name: &str) -> Result<Removal, DaemonError> {
        let path = format!("/containers/{}?force=1&v=1", encode(name, b""));
        match self.call(Method::DELETE, &path, None).await {
            Ok(_) => Ok(Removal::Removed),
            Err(error) if error.is_not_found() => Ok(Removal::Gone),
            Err(error) => Err(error),
        }
    }
}

impl Waiting {
    /// The container's exit status, once it has ended. Not bounded in time
    /// (a container runs as long as its game): the caller's deadline is.
    pub(crate) async fn status(self) -> Result<i64, DaemonError> {
        let body = read_body(&self.call, self.body, ANSWER_LIMIT).await?;
        let answer: Value =
            serde_json::from_slice(&body).map_err(|error| DaemonError::Unexpected {
                call: self.call.clone(),
                what: format!("not JSON: {error}"),
            })?;
        if let Some(message) = text_at(&answer, "/Error/Message").filter(|m| !m.is_empty()) {
            return Err(DaemonError::Unexpected {
                call: self.call,
                what: message.to_owned(),
            });
        }
        answer
            .get("StatusCode")
            .and_then(Value::as_i64)
            .ok_or(DaemonError::Unexpected {
                call: self.call,
                what: "no StatusCode".to_owned(),
            })
    }
}

/// The daemon's socket as `DOCKER_HOST` (`host`) names it.
fn socket_of(host: Option<&str>) -> Result<PathBuf, DaemonError> {
    match host.map(str::trim).filter(|host| !host.is_empty()) {
        None => Ok(PathBuf::from(DEFAULT_SOCKET)),
        Some(host) => match host.strip_prefix("unix://") {
            Some(path) if !path.is_empty() => Ok(Path::new(path).to_path_buf()),
            _ => Err(DaemonError::UnsupportedHost(host.to_owned())),
        },
    }
}

/// `future`, or [`DaemonError::TimedOut`] past `limit`.
async fn bounded<T>(
    call: &str,
    limit: Duration,
    future: impl Future<Output = Result<T, DaemonError>>,
) -> Result<T, DaemonError> {
    tokio::time::timeout(limit, future)
        .await
        .map_err(|_| DaemonError::TimedOut {
            call: call.to_owned(),
            limit,
        })?
}

/// The whole body, at most `limit` bytes.
async fn read_body(call: &str, mut body: Incoming, limit: usize) -> Result<Bytes, DaemonError> {
    let mut kept = BytesMut::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|source| DaemonError::Http {
            call: call.to_owned(),
            source,
        })?;
        if let Ok(data) = frame.into_data() {
            if kept.len().saturating_add(data.len()) > limit {
                return Err(DaemonError::TooLarge {
                    call: call.to_owned(),
                    limit,
                });
            }
            kept.extend_from_slice(&data);
        }
    }
    Ok(kept.freeze())
}

/// The refusal `status` with Docker's message from `body` (`{"message":
/// "..."}`), or the body's start.
fn refused(call: &str, status: StatusCode, body: &[u8]) -> DaemonError {
    let message = serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|answer| text_at(&answer, "/message").map(str::to_owned))
        .unwrap_or_else(|| {
            String::from_utf8_lossy(&body[..body.len().min(QUOTED)])
                .trim()
                .to_owned()
        });
    DaemonError::Refused {
        call: call.to_owned(),
        status: status.as_u16(),
        message,
    }
}

fn unexpected(method: Method, path: &str, what: &str) -> DaemonError {
    DaemonError::Unexpected {
        call: format!("{method} {path}"),
        what: what.to_owned(),
    }
}

fn text_at<'a>(value: &'a Value, pointer: &str) -> Option<&'a str> {
    value.pointer(pointer).and_then(Value::as_str)
}

/// `text` percent-encoded for a path or query: letters, digits, `-._~`
/// and the bytes of `keep` stay.
fn encode(text: &str, keep: &[u8]) -> String {
    let mut encoded = String::with_capacity(text.len());
    for &byte in text.as_bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) || keep.contains(&byte) {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

/// Docker's multiplexed output stream (a container without a terminal):
/// frames of an 8-byte head — the stream (1 standard output, 2 standard
/// error), three zero bytes, the payload's length big-endian — and the
/// payload. [`Frames::feed`] hands on the payloads of whatever bytes come,
/// however the frames are cut, without holding more than a head.
#[derive(Debug, Default)]
pub(crate) struct Frames {
    head: [u8; 8],
    /// How much of the head has come.
    have: usize,
    /// How much of the current payload is still to come.
    left: usize,
}

impl Frames {
    /// Hands the payload bytes among `bytes` to `payload`, in order.
    pub(crate) fn feed(&mut self, mut bytes: &[u8], mut payload: impl FnMut(&[u8])) {
        while !bytes.is_empty() {
            if self.left > 0 {
                let take = self.left.min(bytes.len());
                payload(&bytes[..take]);
                self.left -= take;
                bytes = &bytes[take..];
                continue;
            }
            let take = (self.head.len() - self.have).min(bytes.len());
            self.head[self.have..self.have + take].copy_from_slice(&bytes[..take]);
            self.have += take;
            bytes = &bytes[take..];
            if self.have == self.head.len() {
                self.have = 0;
                let [_, _, _, _, a, b, c, d] = self.head;
                self.left = usize::try_from(u32::from_be_bytes([a, b, c, d])).unwrap_or(usize::MAX);
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.
pub(crate) mod tests {
    use std::sync::{Arc, Mutex};

    use tokio::{
        io::{AsyncReadExt, AsyncWriteExt},
        net::UnixListener,
    };

    use super::*;

    /// A request as the fake daemon saw it.
    #[derive(Clone, Debug)]
    pub(crate) struct Seen {
        pub method: String,
        pub path: String,
        pub headers: Vec<(String, String)>,
        pub body: Vec<u8>,
    }

    impl Seen {
        pub(crate) fn header(&self, name: &str) -> Option<&str> {
            self.headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        }
        pub(crate) fn json(&self) -> Value {
            serde_json::from_slice(&self.body).unwrap()
        }
    }

    /// What the fake daemon answers: bytes written at once, then after a
    /// pause more bytes, then the connection is closed; or (`later` none)
    /// the connection is kept open without another word until a removal
    /// is answered (as Docker ends a container's streams).
    pub(crate) struct Reply {
        pub now: Vec<u8>,
        pub later: Option<(Duration, Vec<u8>)>,
    }

    impl Reply {
        /// A whole answer with a JSON (or empty) body.
        pub(crate) fn status(status: u16, body: &str) -> Reply {
            Reply {
                now: format!(
                    "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                    body.len()
                )
                .into_bytes(),
                later: Some((Duration::ZERO, Vec::new())),
            }
        }
    }

    /// A fake daemon on a Unix socket in a temporary directory: every
    /// request is recorded and answered by `answer`.
    pub(crate) struct Fake {
        pub dir: tempfile::TempDir,
        pub seen: Arc<Mutex<Vec<Seen>>>,
    }

    /// What a fake daemon's connections share: the requests seen, and
    /// whether a removal was answered.
    struct Shared {
        seen: Arc<Mutex<Vec<Seen>>>,
        removed: tokio::sync::watch::Sender<bool>,
    }

    impl Fake {
        pub(crate) fn socket(&self) -> PathBuf {
            self.dir.path().join("docker.sock")
        }
        pub(crate) fn daemon(&self) -> Daemon {
            Daemon::at(self.socket())
        }
        pub(crate) fn seen(&self) -> Vec<Seen> {
            self.seen.lock().unwrap().clone()
        }
        /// The requests seen, as `METHOD PATH`.
        pub(crate) fn calls(&self) -> Vec<String> {
            self.seen()
                .iter()
                .map(|s| format!("{} {}", s.method, s.path))
                .collect()
        }
    }

    pub(crate) async fn fake(answer: impl Fn(&Seen) -> Reply + Send + Sync + 'static) -> Fake {
        let dir = tempfile::tempdir().unwrap();
        let listener = UnixListener::bind(dir.path().join("docker.sock")).unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let answer = Arc::new(answer);
        let shared = Arc::new(Shared {
            seen: Arc::clone(&seen),
            removed: tokio::sync::watch::channel(false).0,
        });
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let (answer, shared) = (Arc::clone(&answer), Arc::clone(&shared));
                tokio::spawn(async move { serve(stream, &*answer, &shared).await });
            }
        });
        Fake { dir, seen }
    }

    async fn serve(
        mut stream: UnixStream,
        answer: &(dyn Fn(&Seen) -> Reply + Send + Sync),
        shared: &Shared,
    ) {
        let mut read = Vec::new();
        let end = loop {
            if let Some(end) = read.windows(4).position(|w| w == b"\r\n\r\n") {
                break end;
            }
            let mut chunk = [0; 4096];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => read.extend_from_slice(&chunk[..n]),
            }
        };
        let head = String::from_utf8_lossy(&read[..end]).into_owned();
        let mut lines = head.split("\r\n");
        let mut first = lines.next().unwrap_or_default().split(' ');
        let (method, path) = (
            first.next().unwrap_or_default().to_owned(),
            first.next().unwrap_or_default().to_owned(),
        );
        let headers: Vec<(String, String)> = lines
            .filter_map(|line| line.split_once(':'))
            .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
            .collect();
        let length = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.parse::<usize>().ok())
            .unwrap_or(0);
        let mut body = read[end + 4..].to_vec();
        while body.len() < length {
            let mut chunk = [0; 4096];
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => return,
                Ok(n) => body.extend_from_slice(&chunk[..n]),
            }
        }
        let seen = Seen {
            method,
            path,
            headers,
            body,
        };
        shared.seen.lock().unwrap().push(seen.clone());
        let reply = answer(&seen);
        let _ = stream.write_all(&reply.now).await;
        match reply.later {
            Some((pause, rest)) => {
                tokio::time::sleep(pause).await;
                let _ = stream.write_all(&rest).await;
                let _ = stream.shutdown().await;
                if seen.method == "DELETE" {
                    shared.removed.send_replace(true);
                }
            }
            None => {
                let mut removed = shared.removed.subscribe();
                let _ = removed.wait_for(|removed| *removed).await;
                let _ = stream.shutdown().await;
            }
        }
    }

    #[test]
    fn the_socket_is_docker_host_s_or_the_default() {
        assert_eq!(socket_of(None).unwrap(), Path::new("/var/run/docker.sock"));
        assert_eq!(
            socket_of(Some("")).unwrap(),
            Path::new("/var/run/docker.sock")
        );
        assert_eq!(
            socket_of(Some("unix:///tmp/d/docker.sock")).unwrap(),
            Path::new("/tmp/d/docker.sock")
        );
        for host in [
            "tcp://127.0.0.1:2375",
            "ssh://me@host",
            "unix://",
            "/tmp/x.sock",
        ] {
            let error = socket_of(Some(host)).unwrap_err();
            assert!(
                matches!(&error, DaemonError::UnsupportedHost(h) if h == host),
                "{host}"
            );
            assert!(error.to_string().contains("unix://PATH"), "{error}");
        }
    }

    #[test]
    fn names_are_percent_encoded() {
        assert_eq!(encode("sl-sandbox-1_2.x", b""), "sl-sandbox-1_2.x");
        assert_eq!(encode("a b/c", b""), "a%20b%2Fc");
        assert_eq!(encode("registry/team:3", b":/@"), "registry/team:3");
        assert_eq!(
            encode("{\"label\":[\"x\"]}", b""),
            "%7B%22label%22%3A%5B%22x%22%5D%7D"
        );
    }

    #[test]
    fn frames_give_their_payloads_however_they_are_cut() {
        let mut stream = Vec::new();
        for (kind, text) in [(1u8, &b"out "[..]), (2, b"err"), (1, b""), (1, b" more")] {
            stream.extend_from_slice(&[kind, 0, 0, 0]);
            stream.extend_from_slice(&u32::try_from(text.len()).unwrap().to_be_bytes());
            stream.extend_from_slice(text);
        }
        for cut in 1..=stream.len() {
            let mut frames = Frames::default();
            let mut payload = Vec::new();
            for piece in stream.chunks(cut) {
                frames.feed(piece, |bytes| payload.extend_from_slice(bytes));
            }
            assert_eq!(payload, b"out err more", "cut every {cut} bytes");
        }
    }

    #[tokio::test]
    async fn a_container_is_created_with_its_name_and_json() {
        let fake =
            fake(|_| Reply::status(201, r#"{"Id":"abc","Warnings":["swap is not limited"]}"#))
                .await;
        let warnings = fake
            .daemon()
            .create("sl-sandbox-1-2", br#"{"Image":"team:1"}"#)
            .await
            .unwrap();
        assert_eq!(warnings, ["swap is not limited"]);
        let seen = fake.seen();
        assert_eq!(seen.len(), 1);
        assert_eq!(seen[0].method, "POST");
        assert_eq!(seen[0].path, "/containers/create?name=sl-sandbox-1-2");
        assert_eq!(seen[0].header("content-type"), Some("application/json"));
        assert_eq!(seen[0].json(), serde_json::json!({"Image": "team:1"}));
    }

    #[tokio::test]
    async fn a_refusal_carries_docker_s_message() {
        let fake = fake(|_| Reply::status(404, r#"{"message":"No such image: team:1"}"#)).await;
        let error = fake.daemon().create("n", b"{}").await.unwrap_err();
        assert!(error.is_not_found());
        assert_eq!(
            error.to_string(),
            "POST /containers/create?name=n: 404: No such image: team:1"
        );
        let fake = fake_text(500, "plain failure").await;
        let error = fake.daemon().start("n").await.unwrap_err();
        assert!(
            matches!(&error, DaemonError::Refused { status: 500, message, .. } if message == "plain failure"),
            "{error}"
        );
    }

    async fn fake_text(status: u16, text: &'static str) -> Fake {
        fake(move |_| Reply {
            now: format!(
                "HTTP/1.1 {status} X\r\nContent-Length: {}\r\n\r\n{text}",
                text.len()
            )
            .into_bytes(),
            later: Some((Duration::ZERO, Vec::new())),
        })
        .await
    }

    #[tokio::test]
    async fn removal_is_forced_with_volumes_and_a_missing_container_is_gone() {
        let fake = fake(|seen| {
            if seen.path.starts_with("/containers/there") {
                Reply::status(204, "")
            } else {
                Reply::status(404, r#"{"message":"No such container: gone"}"#)
            }
        })
        .await;
        assert_eq!(
            fake.daemon().remove("there").await.unwrap(),
            Removal::Removed
        );
        assert_eq!(fake.daemon().remove("gone").await.unwrap(), Removal::Gone);
        assert_eq!(
            fake.calls(),
            [
                "DELETE /containers/there?force=1&v=1",
                "DELETE /containers/gone?force=1&v=1"
            ]
        );
    }

    #[tokio::test]
    async fn the_answers_of_inspect_list_and_version_are_read() {
        let fake = fake(|seen| match seen.path.as_str() {
            "/version" => Reply::status(200, r#"{"Version":"20.10.24","ApiVersion":"1.41"}"#),
            "/containers/c/json" => Reply::status(200, r#"{"State":{"OOMKilled":true}}"#),
            "/images/team:1/json" => Reply::status(200, r#"{"Config":{"Labels":{"a":"b"}}}"#),
            path if path.starts_with("/containers/json") => Reply::status(
                200,
                r#"[{"Names":["/one"],"Labels":{"o":"host:1","x":"y"}},{"Names":["/two"],"Labels":{}},{"Names":[]}]"#,
            ),
            _ => Reply::status(404, r#"{"message":"no such thing"}"#),
        })
        .await;
        let daemon = fake.daemon();
        assert_eq!(daemon.version().await.unwrap(), "20.10.24");
        assert!(daemon.oom_killed("c").await.unwrap());
        assert_eq!(
            daemon.inspect_image("team:1").await.unwrap(),
            Some(serde_json::json!({"Config": {"Labels": {"a": "b"}}}))
        );
        assert_eq!(daemon.inspect_image("other:1").await.unwrap(), None);
        assert_eq!(
            daemon.list("org.x", "o").await.unwrap(),
            [
                Listed {
                    name: "one".to_owned(),
                    owner: "host:1".to_owned()
                },
                Listed {
                    name: "two".to_owned(),
                    owner: String::new()
                }
            ]
        );
        assert_eq!(
            fake.calls().last().map(String::as_str),
            Some("GET /containers/json?all=1&filters=%7B%22label%22%3A%5B%22org.x%22%5D%7D")
        );
        // Not the JSON expected: an error, not a panic or a default.
        assert!(matches!(
            daemon.oom_killed("other").await,
            Err(DaemonError::Refused { status: 404, .. })
        ));
    }

    #[tokio::test]
    async fn answers_that_are_not_as_expected_are_errors() {
        let fake = fake(|seen| match seen.path.as_str() {
            "/version" => Reply::status(200, "[1, 2]"),
            _ => Reply::status(200, "not json"),
        })
        .await;
        assert!(matches!(
            fake.daemon().version().await,
            Err(DaemonError::Unexpected { .. })
        ));
        assert!(matches!(
            fake.daemon().oom_killed("c").await,
            Err(DaemonError::Unexpected { .. })
        ));
        assert!(matches!(
            fake.daemon().list("l", "o").await,
            Err(DaemonError::Unexpected { .. })
        ));
    }

    #[tokio::test]
    async fn an_answer_past_the_limit_fails_its_call() {
        let fake = fake(|_| {
            let body = "x".repeat(ANSWER_LIMIT + 1);
            Reply {
                now: format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{body}",
                    body.len()
                )
                .into_bytes(),
                later: Some((Duration::ZERO, Vec::new())),
            }
        })
        .await;
        let error = fake.daemon().version().await.unwrap_err();
        assert!(
            matches!(
                error,
                DaemonError::TooLarge {
                    limit: ANSWER_LIMIT,
                    ..
                }
            ),
            "{error}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_daemon_that_does_not_answer_fails_the_call_in_time() {
        let silent = fake(|_| Reply {
            now: Vec::new(),
            later: None,
        })
        .await;
        let started = tokio::time::Instant::now();
        let error = silent.daemon().remove("c").await.unwrap_err();
        assert!(
            matches!(&error, DaemonError::TimedOut { limit, .. } if *limit == CALL_TIMEOUT),
            "{error}"
        );
        assert!(started.elapsed() >= CALL_TIMEOUT);
        // Half an answer, then silence: the same.
        let halting = fake(|_| Reply {
            now: b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{".to_vec(),
            later: None,
        })
        .await;
        assert!(matches!(
            halting.daemon().version().await,
            Err(DaemonError::TimedOut { .. })
        ));
    }

    #[tokio::test]
    async fn no_daemon_is_a_connect_error() {
        let dir = tempfile::tempdir().unwrap();
        let error = Daemon::at(dir.path().join("none.sock"))
            .version()
            .await
            .unwrap_err();
        assert!(matches!(error, DaemonError::Connect { .. }), "{error}");
    }

    #[tokio::test]
    async fn the_output_stream_is_an_upgrade_and_the_wait_answers_its_head_first() {
        const EXIT: &str = r#"{"StatusCode":137,"Error":null}"#;
        let fake = fake(|seen| {
            if seen.path.contains("/attach") {
                let mut now = b"HTTP/1.1 101 UPGRADED\r\nContent-Type: application/vnd.docker.raw-stream\r\nConnection: Upgrade\r\nUpgrade: tcp\r\n\r\n".to_vec();
                now.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 3]);
                now.extend_from_slice(b"hi\n");
                Reply {
                    now,
                    later: Some((Duration::from_millis(50), vec![2, 0, 0, 0, 0, 0, 0, 2, b'e', b'\n'])),
                }
            } else {
                Reply {
                    now: b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec(),
                    later: Some((
                        Duration::from_millis(100),
                        format!("{:x}\r\n{EXIT}\r\n0\r\n\r\n", EXIT.len()).into_bytes(),
                    )),
                }
            }
        })
        .await;
        let daemon = fake.daemon();
        let waiting = tokio::time::timeout(Duration::from_millis(90), daemon.wait_next_exit("c"))
            .await
            .expect("the wait is registered before the container ends")
            .unwrap();
        let mut stream = daemon.attach("c").await.unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await.unwrap();
        let mut text = Vec::new();
        Frames::default().feed(&raw, |bytes| text.extend_from_slice(bytes));
        assert_eq!(text, b"hi\ne\n");
        assert_eq!(waiting.status().await.unwrap(), 137);
        let seen = fake.seen();
        assert_eq!(
            fake.calls(),
            [
                "POST /containers/c/wait?condition=next-exit",
                "POST /containers/c/attach?stream=1&stdout=1&stderr=1"
            ]
        );
        assert_eq!(seen[1].header("upgrade"), Some("tcp"));
        assert_eq!(seen[1].header("connection"), Some("Upgrade"));
    }
}
