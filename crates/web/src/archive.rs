//! Finished games from the replay directory: the list, and one replay with
//! every position drawn, for the step-through viewer. Finished replays are
//! shown to everyone. The files are the replay store's
//! ([`spielleiter_server::replay::archive`]): only finished replays, by
//! name, never through a symbolic link; an answer names a replay by its
//! name, never by its path on the server.

use std::{path::PathBuf, sync::Arc};

use axum::{
    Json,
    extract::{Path, State},
};
use serde::Serialize;
use spielleiter_render::seat_name;
use spielleiter_server::replay::archive::{self as store, LoadError, LoadedReplay};

use crate::{
    App,
    error::ApiError,
    views::{self, PlayerView, ResultView},
};

/// A replay in the list.
#[derive(Debug, Serialize)]
pub struct ReplayEntry {
    /// The file name (the replay's address is `/replays/{name}`).
    pub name: String,
    /// The game's protocol id, if the name says it.
    pub game: Option<&'static str>,
    /// The file's size in bytes.
    pub bytes: u64,
    /// Seconds since 1970 when the file was written.
    pub modified: u64,
}

/// One position of a replay.
#[derive(Debug, Serialize)]
pub struct FrameView {
    /// The game's turn counter.
    pub turn: u32,
    /// The seats with their points at this position.
    pub players: Vec<PlayerView>,
    /// The board.
    pub svg: String,
}

/// A replay for the viewer.
#[derive(Debug, Serialize)]
pub struct ReplayView {
    /// The file name.
    pub name: String,
    /// The game's protocol id.
    pub game: &'static str,
    /// The room the game was played in.
    pub room: Option<String>,
    /// The players' names in seat order.
    pub players: Vec<String>,
    /// Every recorded position, in order.
    pub frames: Vec<FrameView>,
    /// The result, if the replay has one.
    pub result: Option<ResultView>,
    /// Recorded room errors (a rule violation).
    pub errors: Vec<String>,
}

fn replay_dir(app: &App) -> Result<PathBuf, ApiError> {
    app.replay_dir
        .clone()
        .ok_or_else(|| ApiError::NotFound("replays are off".to_owned()))
}

/// `GET /api/replays`: the finished replays, newest first.
pub async fn list(State(app): State<Arc<App>>) -> Result<Json<Vec<ReplayEntry>>, ApiError> {
    let dir = replay_dir(&app)?;
    let files = tokio::task::spawn_blocking(move || store::list(&dir))
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(Json(
        files
            .into_iter()
            .map(|file| ReplayEntry {
                game: file.game.map(|g| g.id()),
                bytes: file.bytes,
                modified: views::unix_seconds(file.modified),
                name: file.name,
            })
            .collect(),
    ))
}

/// `GET /api/replays/{name}`: one replay with every position drawn.
pub async fn replay(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
) -> Result<Json<ReplayView>, ApiError> {
    let dir = replay_dir(&app)?;
    let loaded = tokio::task::spawn_blocking(move || {
        store::load_named(&dir, &name).map(|replay| view(name, replay))
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?;
    match loaded {
        Ok(view) => Ok(Json(view)),
        Err(LoadError::BadName(name)) => Err(ApiError::NotFound(format!(
            "{name:?} is not a replay's name"
        ))),
        // A symbolic link is no replay here: nothing is said about where
        // it points.
        Err(error @ LoadError::NotAFile(_)) => {
            tracing::warn!(%error, "a replay's name in the replay directory is no regular file; not followed");
            Err(ApiError::NotFound("no such replay".to_owned()))
        }
        Err(error) if error.is_not_found() => Err(ApiError::NotFound("no such replay".to_owned())),
        // The store's errors name the replay by its name, not its path.
        Err(error) => Err(ApiError::Unreadable(with_causes(&error))),
    }
}

/// An error's message followed by its causes, as one line.
pub(crate) fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        text.push_str(": ");
        text.push_str(&next.to_string());
        cause = next.source();
    }
    text
}

pub(crate) fn view(name: String, replay: LoadedReplay) -> ReplayView {
    let names = &replay.names;
    let result = replay.result.as_ref().map(|r| views::result(r, names));
    let last = replay.positions.len().saturating_sub(1);
    let frames = replay
        .positions
        .iter()
        .enumerate()
        .map(|(index, game)| {
            let notes = match &result {
                Some(result) if index == last => vec![format!("result: {}", result.summary)],
                _ => Vec::new(),
            };
            FrameView {
                turn: spielleiter_rules::Game::turn(game),
                players: views::players(game, names, &[]),
                svg: views::board_svg(game, names, notes),
            }
        })
        .collect();
    let players = (0..replay.game.player_count())
        .map(|seat| seat_name(names, seat))
        .collect();
    ReplayView {
        name,
        game: replay.game.id(),
        room: replay.room_id,
        players,
        frames,
        result,
        errors: replay.errors,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::{net::SocketAddr, sync::Arc};

    use spielleiter_server::config::HttpPublic;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use crate::{Access, EmbeddedWeb, WebSettings};

    /// `GET path` on the web side of `dir`: the status and the body.
    async fn get(dir: &std::path::Path, path: &str) -> (u16, String) {
        let web = EmbeddedWeb::start(
            SocketAddr::from(([127, 0, 0, 1], 0)),
            Arc::default(),
            WebSettings::new(
                Access::new([127, 0, 0, 1].into(), HttpPublic::Auto, None),
                Some(dir.to_owned()),
            ),
        )
        .await
        .unwrap();
        let mut stream = tokio::net::TcpStream::connect(web.addr()).await.unwrap();
        let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).await.unwrap();
        let status = response[9..12].parse().unwrap();
        let body = response.split_once("\r\n\r\n").unwrap().1.to_owned();
        (status, body)
    }

    #[tokio::test]
    async fn an_unreadable_replay_is_refused_without_the_directory_path() {
        let dir = tempfile::tempdir().unwrap();
        let name = "replay_swc_2021_blokus_2026-01-01_a_b_r.xml";
        std::fs::write(dir.path().join(name), "<protocol>\n<room roomId=").unwrap();
        let (status, body) = get(dir.path(), &format!("/api/replays/{name}")).await;
        assert_eq!(status, 422, "{body}");
        assert!(body.contains(name), "{body}");
        let path = dir.path().to_string_lossy();
        assert!(!body.contains(&*path), "{body}");
        assert!(!body.contains("/tmp"), "{body}");
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn a_symbolic_link_in_the_replay_directory_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret.xml");
        std::fs::write(&secret, "<protocol>\n</protocol>").unwrap();
        let name = "replay_swc_2021_blokus_2026-01-01_a_b_r.xml";
        std::os::unix::fs::symlink(&secret, dir.path().join(name)).unwrap();
        let (status, body) = get(dir.path(), &format!("/api/replays/{name}")).await;
        assert_eq!(status, 404, "{body}");
        assert!(body.contains("no such replay"), "{body}");
        let (status, body) = get(dir.path(), "/api/replays").await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body, "[]");
    }
}
