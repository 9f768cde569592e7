//! A small HTTP client for the tests of the web side (hyper's client over a
//! fresh loopback connection per request), and a reader of server-sent
//! events.

use std::{net::SocketAddr, time::Duration};

use http_body_util::{BodyExt, Full};
use hyper::{
    Request,
    body::{Bytes, Incoming},
};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

/// A whole answer.
#[derive(Debug)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The `content-type` header, or empty.
    pub content_type: String,
    /// Every header, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Answer {
    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    /// The first header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

async fn send(addr: SocketAddr, request: Request<Full<Bytes>>) -> hyper::Response<Incoming> {
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .unwrap();
    tokio::spawn(connection);
    tokio::time::timeout(Duration::from_secs(10), sender.send_request(request))
        .await
        .expect("the web side answers in time")
        .unwrap()
}

fn request(
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Bytes,
) -> Request<Full<Bytes>> {
    let mut builder = Request::builder()
        .method(method)
        .uri(path)
        .header("host", "localhost");
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    builder.body(Full::new(body)).unwrap()
}

async fn whole(response: hyper::Response<Incoming>) -> Answer {
    let status = response.status().as_u16();
    let headers: Vec<(String, String)> = response
        .headers()
        .iter()
        .map(|(n, v)| (n.as_str().to_owned(), v.to_str().unwrap_or("").to_owned()))
        .collect();
    let content_type = headers
        .iter()
        .find(|(n, _)| n == "content-type")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    let body = tokio::time::timeout(Duration::from_secs(10), response.into_body().collect())
        .await
        .expect("the body ends in time")
        .unwrap()
        .to_bytes()
        .to_vec();
    Answer {
        status,
        content_type,
        headers,
        body,
    }
}

/// `GET path` with extra headers.
pub async fn get_with(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> Answer {
    whole(send(addr, request("GET", path, headers, Bytes::new())).await).await
}

/// `GET path`.
pub async fn get(addr: SocketAddr, path: &str) -> Answer {
    get_with(addr, path, &[]).await
}

/// `method path` with a form body.
pub async fn send_form(addr: SocketAddr, method: &str, path: &str, form: &str) -> Answer {
    send_form_with(addr, method, path, form, &[]).await
}

/// `method path` with `headers` and `body`.
pub async fn send_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    let body = Bytes::from(body.to_owned());
    whole(send(addr, request(method, path, headers, body)).await).await
}

/// `method path` with a form body and extra headers.
pub async fn send_form_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    form: &str,
    extra: &[(&str, &str)],
) -> Answer {
    let mut headers = vec![("content-type", "application/x-www-form-urlencoded")];
    headers.extend_from_slice(extra);
    let body = Bytes::from(form.to_owned());
    whole(send(addr, request(method, path, &headers, body)).await).await
}

/// A stream of server-sent events.
#[derive(Debug)]
pub struct Events {
    /// The status of the answer.
    pub status: u16,
    /// The `content-type` header.
    pub content_type: String,
    body: Incoming,
    buffer: String,
}

/// One event: its name and data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The `event:` field.
    pub name: String,
    /// The `data:` lines, joined.
    pub data: String,
}

impl Event {
    /// The data as JSON, read as the room page reads a `room` event: its
    /// first line is the view, a second line (the board's SVG) becomes the
    /// view's `svg`.
    pub fn json(&self) -> serde_json::Value {
        let (view, board) = match self.data.split_once('\n') {
            Some((view, board)) => (view, Some(board)),
            None => (self.data.as_str(), None),
        };
        let mut value: serde_json::Value = serde_json::from_str(view).unwrap();
        if let Some(board) = board {
            value["svg"] = board.into();
        }
        value
    }
}

/// Opens the event stream at `path`.
pub async fn events(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> Events {
    let response = send(addr, request("GET", path, headers, Bytes::new())).await;
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    Events {
        status: response.status().as_u16(),
        content_type,
        body: response.into_body(),
        buffer: String::new(),
    }
}

impl Events {
    /// The next event (comments and keep-alives skipped); `None` when the
    /// stream has ended.
    pub async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut event = Event {
                    name: "message".to_owned(),
                    data: String::new(),
                };
                let mut has_data = false;
                for line in block.lines() {
                    if let Some(name) = line.strip_prefix("event:") {
                        event.name = name.trim().to_owned();
                    } else if let Some(data) = line.strip_prefix("data:") {
                        if has_data {
                            event.data.push('\n');
                        }
                        event.data.push_str(data.strip_prefix(' ').unwrap_or(data));
                        has_data = true;
                    }
                }
                if has_data {
                    return Some(event);
                }
                continue;
            }
            let frame = tokio::time::timeout(Duration::from_secs(30), self.body.frame())
                .await
                .expect("an event or the end in time")?
                .unwrap();
            if let Ok(data) = frame.into_data() {
                self.buffer.push_str(&String::from_utf8_lossy(&data));
            }
        }
    }
}
