//! A finished game's wire log (`--wire-log`): each seat's bytes in and
//! out as the server saw them, served as text next to the replay viewer
//! (`/api/replays/{name}/wire`) and shown on the replay page
//! (`assets/wire.js`).
//!
//! The log holds more than the replay (the players' raw requests, their
//! reservation codes, the exact timing), so it is shown to whoever may
//! watch running games ([`Access::may_watch`](crate::Access::may_watch)):
//! everyone where the pages are open, the administrator where running
//! games need the login. The file is the replay store's
//! ([`archive::open_wire_log`]): by the replay's name, never through a
//! symbolic link, streamed rather than read whole; a compressed log is sent
//! as it is stored, with `Content-Encoding: gzip`.

use std::sync::Arc;

use axum::{
    body::{Body, Bytes},
    extract::{Path, State},
    http::{HeaderMap, header},
    response::{IntoResponse, Response},
};
use futures_util::TryStreamExt;
use spielleiter_server::replay::archive::{self, LoadError};

use crate::{App, connections::Peer, error::ApiError};

/// The replay page's script that shows the wire log.
pub(crate) const SCRIPT: &str = include_str!("../assets/wire.js");

/// How much of the file one read sends.
const CHUNK: usize = 64 * 1024;

/// `GET /api/replays/{name}/wire`: the wire log of replay `name`, as text.
pub async fn wire_log(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
    Peer(peer): Peer,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let dir = app
        .replay_dir
        .clone()
        .ok_or_else(|| ApiError::NotFound("replays are off".to_owned()))?;
    if !app.access.may_watch(&headers, peer, &app.guard).await? {
        return Err(ApiError::Unauthorized {
            login: app.access.can_log_in(),
        });
    }
    let opened = {
        let name = name.clone();
        tokio::task::spawn_blocking(move || archive::open_wire_log(&dir, &name))
    }
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?;
    let (file, gzip) = match opened {
        Ok(opened) => opened,
        Err(LoadError::BadName(name)) => {
            return Err(ApiError::NotFound(format!(
                "{name:?} is not a replay's name"
            )));
        }
        Err(error @ LoadError::NotAFile(_)) => {
            tracing::warn!(%error, "a wire log's name in the replay directory is no regular file; not followed");
            return Err(ApiError::NotFound("no wire log of this replay".to_owned()));
        }
        Err(error) if error.is_not_found() => {
            return Err(ApiError::NotFound(
                "no wire log of this replay (the server keeps them with --wire-log)".to_owned(),
            ));
        }
        Err(error) => return Err(ApiError::Internal(crate::archive::with_causes(&error))),
    };
    let body = Body::from_stream(chunks(tokio::fs::File::from_std(file), name));
    let mut response = (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response();
    if gzip {
        response.headers_mut().insert(
            header::CONTENT_ENCODING,
            header::HeaderValue::from_static("gzip"),
        );
    }
    Ok(response)
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
