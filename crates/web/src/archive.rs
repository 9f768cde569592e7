//! Finished games from the replay directory: the list, and one replay with
//! every position drawn, for the step-through viewer. Finished replays are
//! shown to everyone.

use std::{path::PathBuf, sync::Arc};

use axum::{
    Json,
    extract::{Path, State},
};
use serde::Serialize;
use spielleiter_render::seat_name;

use crate::{
    App,
    error::ApiError,
    replays::{self, LoadError},
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
    let files = tokio::task::spawn_blocking(move || replays::list(&dir))
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
        replays::load_named(&dir, &name).map(|replay| view(name, replay))
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?;
    match loaded {
        Ok(view) => Ok(Json(view)),
        Err(LoadError::BadName(name)) => Err(ApiError::NotFound(format!(
            "{name:?} is not a replay's name"
        ))),
        Err(LoadError::Open { cause, .. }) if cause.kind() == std::io::ErrorKind::NotFound => {
            Err(ApiError::NotFound("no such replay".to_owned()))
        }
        Err(e) => Err(ApiError::Unreadable(e.to_string())),
    }
}

fn view(name: String, replay: replays::LoadedReplay) -> ReplayView {
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
