//! A finished game's wire log (`--wire-log`): each seat's bytes in and
//! out as the server saw them, served as text next to the replay viewer
//! (`/api/replays/{name}/wire`) and shown on the replay page
//! (`assets/wire.js`).
//!
//! The log holds more than the replay (the players' raw requests, their
//! reservation codes, the exact timing), so it is shown to whoever may
//! watch running games ([`Who::may_see_logs`](crate::route_access::Who::may_see_logs)):
//! everyone where the pages are open, the administrator where running
//! games need the login. The log is the archive's
//! ([`GameArchive::wire_log`](spielleiter_archive::GameArchive::wire_log)): by the replay's name, never through a
//! symbolic link, streamed rather than read whole. A compressed log
//! (`NAME.wire.txt.gz`, and every log of a season's store) is sent as it
//! is stored, with `Content-Encoding: gzip`, to a client that accepts gzip,
//! and unpacked on the fly (to at most [`MAX_UNPACKED_BYTES`]) for one that
//! does not (`text_response`, which a season game's players' logs use
//! too); every answer says `Vary: Accept-Encoding`, so that a cache keeps
//! the two apart.

use std::{
    io::{BufReader, Read},
    sync::Arc,
};

use axum::{
    body::{Body, Bytes},
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
};
use futures_util::TryStreamExt;
use spielleiter_archive::{ArchiveError, Body as Stored, LoadError, StoredBytes};

use crate::{app::App, error::ApiError, route_access::Who};

/// The replay page's script that shows the wire log.
pub(crate) const SCRIPT: &str = include_str!("../assets/wire.js");

/// How much of the file one read sends.
const CHUNK: usize = 64 * 1024;

/// The most text a compressed log is unpacked to for a client that does
/// not accept gzip; beyond it the answer ends with a line that says so.
/// A log of four seats at the default cap of 4 MiB each
/// ([`DEFAULT_WIRE_LOG_BYTES`]), every byte shown as `\xNN` (four bytes),
/// is 64 MiB; the rest is room for the entries' lines. It bounds what a
/// small file that unpacks to far more (a "gzip bomb" put in the replay
/// directory) can make the server send.
///
/// [`DEFAULT_WIRE_LOG_BYTES`]: spielleiter_server::replay::wire_log::DEFAULT_WIRE_LOG_BYTES
pub const MAX_UNPACKED_BYTES: u64 = 80 << 20;

/// Unpacked chunks waiting for a slow client: the unpacking waits beyond.
const CHUNKS_IN_FLIGHT: usize = 2;

/// `GET /api/replays/{name}/wire`: the wire log of replay `name`, as text.
pub async fn wire_log(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
    who: Who,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let replays = crate::archive::replays(&app)?;
    if !who.may_see_logs(&app) {
        return Err(ApiError::Unauthorized {
            login: app.access.can_log_in(),
        });
    }
    let stored = match replays.wire_log(&name).await {
        Ok(stored) => stored,
        Err(ArchiveError::Load(LoadError::BadName(name))) => {
            return Err(ApiError::NotFound(format!(
                "{name:?} is not a replay's name"
            )));
        }
        Err(ArchiveError::Load(error @ LoadError::NotAFile(_))) => {
            tracing::warn!(%error, "a wire log's name in the replay directory is no regular file; not followed");
            return Err(ApiError::NotFound("no wire log of this replay".to_owned()));
        }
        Err(error) if error.is_not_found() => {
            return Err(ApiError::NotFound(
                "no wire log of this replay (the server keeps them with --wire-log)".to_owned(),
            ));
        }
        Err(error) => return Err(ApiError::Internal(crate::error::with_causes(&error))),
    };
    Ok(text_response(stored, &headers))
}

/// A stored text (a wire log, a player's log) as the answer: as it is
/// stored to a client that accepts gzip (with `Content-Encoding: gzip` when
/// compressed), unpacked on the fly to at most [`MAX_UNPACKED_BYTES`] for
/// one that does not; never read whole from a file.
pub(crate) fn text_response(stored: StoredBytes, headers: &HeaderMap) -> Response {
    let StoredBytes { name, gzip, body } = stored;
    let send_packed = gzip && accepts_gzip(headers);
    let body = match body {
        Stored::File(file) if gzip && !send_packed => {
            Body::from_stream(unpacked(file, name, MAX_UNPACKED_BYTES))
        }
        Stored::File(file) => Body::from_stream(chunks(tokio::fs::File::from_std(file), name)),
        Stored::Memory(bytes) if gzip && !send_packed => Body::from_stream(unpacked(
            std::io::Cursor::new(bytes),
            name,
            MAX_UNPACKED_BYTES,
        )),
        Stored::Memory(bytes) => Body::from(bytes),
    };
    let mut response = (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
            (header::VARY, "Accept-Encoding"),
        ],
        body,
    )
        .into_response();
    if send_packed {
        response
            .headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    response
}

/// Whether a request with `headers` accepts a gzip-encoded answer (RFC
/// 9110 §12.5.3): `gzip` (or `x-gzip`) with a weight above 0, or else `*`
/// with a weight above 0. Without the header nothing but the identity is
/// accepted here (a client that says nothing may be a plain `nc`), and a
/// weight that cannot be read counts as 0.
pub fn accepts_gzip(headers: &HeaderMap) -> bool {
    let mut gzip: Option<f32> = None;
    let mut any: Option<f32> = None;
    for value in headers.get_all(header::ACCEPT_ENCODING) {
        let Ok(value) = value.to_str() else {
            continue;
        };
        for item in value.split(',') {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or_default().trim();
            let weight = parts
                .find_map(|part| {
                    let (key, weight) = part.split_once('=')?;
                    key.trim()
                        .eq_ignore_ascii_case("q")
                        .then(|| weight.trim().parse::<f32>().unwrap_or(0.0))
                })
                .unwrap_or(1.0);
            if coding.eq_ignore_ascii_case("gzip") || coding.eq_ignore_ascii_case("x-gzip") {
                gzip = Some(gzip.map_or(weight, |w| w.max(weight)));
            } else if coding == "*" {
                any = Some(weight);
            }
        }
    }
    gzip.or(any).is_some_and(|weight| weight > 0.0)
}

/// The compressed log `file` unpacked, a chunk at a time, to at most
/// `limit` bytes ([`MAX_UNPACKED_BYTES`]; then a line that says the rest
/// is left out).
/// The unpacking is blocking work on a thread of its own, at most
/// [`CHUNKS_IN_FLIGHT`] chunks ahead of the client; it stops when the
/// client goes away. A file that is no gzip ends the answer early (the
/// client sees it cut), logged as a read error is.
fn unpacked(
    file: impl Read + Send + 'static,
    name: String,
    limit: u64,
) -> impl futures_util::Stream<Item = std::io::Result<Bytes>> + Send {
    let (sender, receiver) = tokio::sync::mpsc::channel(CHUNKS_IN_FLIGHT);
    tokio::task::spawn_blocking(move || {
        let mut text = flate2::read::MultiGzDecoder::new(BufReader::new(file)).take(limit);
        loop {
            let mut chunk = vec![0; CHUNK];
            let read = match read_full(&mut text, &mut chunk) {
                Ok(read) => read,
                Err(error) => {
                    tracing::warn!(replay = %name, %error, "unpacking a wire log failed; its answer is cut short");
                    let _ = sender.blocking_send(Err(error));
                    return;
                }
            };
            if read == 0 {
                break;
            }
            chunk.truncate(read);
            if sender.blocking_send(Ok(Bytes::from(chunk))).is_err() {
                // The client has gone.
                return;
            }
        }
        // At the bound: is there more?
        let mut probe = [0; 1];
        if text
            .into_inner()
            .read(&mut probe)
            .is_ok_and(|more| more > 0)
        {
            tracing::info!(replay = %name, limit, "a wire log unpacks to more than an answer without gzip holds; cut");
            let note = format!(
                "\n---- cut here: the log unpacks to more than {limit} bytes; ask with Accept-Encoding: gzip for all of it ----\n"
            );
            let _ = sender.blocking_send(Ok(Bytes::from(note)));
        }
    });
    futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|item| (item, receiver))
    })
}

/// Reads into `buffer` until it is full or `reader` ends: the number of
/// bytes read.
fn read_full(reader: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(read) => filled += read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(filled)
}

/// The file's bytes, a chunk at a time, until its end or a read error,
/// which ends the answer early (the client sees it cut) and is logged.
fn chunks(
    file: tokio::fs::File,
    name: String,
) -> impl futures_util::Stream<Item = std::io::Result<Bytes>> + Send {
    tokio_util::io::ReaderStream::with_capacity(file, CHUNK).inspect_err(move |error| {
        tracing::warn!(replay = %name, %error, "reading a wire log failed; its answer is cut short");
    })
}

#[cfg(test)]
mod tests;
