//! Finished games from the replay directory: the list with each game's
//! players, outcome and length (kept in a bounded [`SummaryCache`]), one
//! replay for the viewer and its downloads (the file as stored, and its
//! game's record for another program where the game has one), shaped as
//! the [`viewer`] shapes a game of any archive. Finished replays are shown
//! to everyone. The games are read through the archive ([`GameArchive`],
//! here the directory's [`DirArchive`](spielleiter_archive::DirArchive)):
//! only finished replays, by name, never through a symbolic link; an answer
//! names a replay by its name, never by its path on the server.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use axum::{
    Json,
    extract::{Path, Query, State},
    response::Response,
};
use serde::{Deserialize, Serialize};
use spielleiter_archive::{ArchivedGame, GameArchive, ReplaySummary};
use spielleiter_protocol::games::record_format;
use spielleiter_render::seat_name;
use spielleiter_rules::GameType;

pub(crate) mod summaries;

pub use self::summaries::SummaryCache;
use crate::{
    app::App,
    error::{ApiError, archive_error, with_causes},
    viewer::{self, DownloadView, PENTOBI_RECORD, ReplayView, download, load, record_download},
    views,
};

/// A replay in the list.
#[derive(Debug, Serialize)]
pub struct ReplayEntry {
    /// The file name (the replay's address is `/replays/{name}`).
    pub name: String,
    /// The game's protocol id, if the name (or the file) says it.
    pub game: Option<&'static str>,
    /// The file's size in bytes.
    pub bytes: u64,
    /// Seconds since 1970 when the file was written.
    pub modified: u64,
    /// What the file says of its game; `null` while it has not been read
    /// yet (a list of many new files is read a part at a time: ask again).
    pub summary: Option<SummaryView>,
}

/// What the list shows of a replay's game.
#[derive(Clone, Debug, Serialize)]
pub struct SummaryView {
    /// The players' names in seat order (the seat's label for a nameless
    /// player).
    pub players: Vec<String>,
    /// The winners' names.
    pub winners: Vec<String>,
    /// `alice wins`, `draw`, `no winner`, `unfinished`, or `unreadable`.
    pub outcome: String,
    /// The last recorded state's turn: the game's length.
    pub turns: u32,
    /// Why the file cannot be read, if it cannot (then nothing else is
    /// known).
    pub error: Option<String>,
}

/// The filters of the list: `?game=ID&player=TEXT`.
#[derive(Debug, Default, Deserialize)]
pub struct ListFilter {
    /// Only replays of this game (its protocol id).
    pub game: Option<String>,
    /// Only replays one of whose players' names contains this text (any
    /// case).
    pub player: Option<String>,
}

/// The replay directory's archive, or why there is none.
pub(crate) fn replays(app: &App) -> Result<Arc<dyn GameArchive>, ApiError> {
    app.replays
        .clone()
        .ok_or_else(|| ApiError::NotFound("replays are off".to_owned()))
}

/// How long one request of the list may spend reading files it has no
/// summary of yet; the rest are read by the next request.
const SUMMARY_BUDGET: Duration = Duration::from_secs(2);

/// The list's view of a summary.
fn summary_view(summary: &Result<ReplaySummary, String>) -> SummaryView {
    match summary {
        Ok(summary) => {
            let players: Vec<String> = (0..summary.game.player_count())
                .map(|seat| seat_name(&summary.names, seat))
                .collect();
            let winners: Vec<String> = summary
                .winners
                .iter()
                .map(|&seat| seat_name(&summary.names, seat))
                .collect();
            let outcome = if !summary.finished {
                "unfinished".to_owned()
            } else {
                match winners.as_slice() {
                    [] => "no winner".to_owned(),
                    [one] => format!("{one} wins"),
                    all if all.len() == players.len() => "draw".to_owned(),
                    some => format!("{} share the win", some.join(", ")),
                }
            };
            SummaryView {
                players,
                winners,
                outcome,
                turns: summary.turns,
                error: None,
            }
        }
        Err(error) => SummaryView {
            players: Vec::new(),
            winners: Vec::new(),
            outcome: "unreadable".to_owned(),
            turns: 0,
            error: Some(error.clone()),
        },
    }
}

/// The summary of replay `key`, or why it cannot be read (its error and
/// causes, as the list shows them).
async fn summarise(archive: &dyn GameArchive, key: &str) -> Result<ReplaySummary, String> {
    let stored = archive.replay(key).await.map_err(|e| with_causes(&e))?;
    tokio::task::spawn_blocking(move || stored.summary().map_err(|e| with_causes(&e)))
        .await
        .map_err(|e| e.to_string())?
}

/// The entries of `games` that pass `filter`, with the summaries known or
/// read within [`SUMMARY_BUDGET`]. A replay not read yet passes a player
/// filter (its players are not known), so that it is not lost from view;
/// its summary is `null`.
async fn entries(
    archive: &dyn GameArchive,
    games: &[ArchivedGame],
    filter: &ListFilter,
    cache: &SummaryCache,
) -> Vec<ReplayEntry> {
    let deadline = Instant::now() + SUMMARY_BUDGET;
    let wanted_game = filter.game.as_deref().filter(|g| !g.is_empty());
    let wanted_player = filter
        .player
        .as_deref()
        .map(|p| p.trim().to_lowercase())
        .filter(|p| !p.is_empty());
    let mut out = Vec::new();
    for file in games {
        if let (Some(wanted), Some(game)) = (wanted_game, file.game)
            && game.id() != wanted
        {
            continue;
        }
        let summary = match cache.get(file) {
            Some(summary) => Some(summary),
            None if Instant::now() < deadline => {
                let summary = summarise(archive, &file.key).await;
                cache.put(file, summary.clone(), games);
                Some(summary)
            }
            None => None,
        };
        let game = file.game.or_else(|| {
            summary
                .as_ref()
                .and_then(|s| s.as_ref().ok())
                .map(|s| s.game)
        });
        if let Some(wanted) = wanted_game
            && game.is_none_or(|g| g.id() != wanted)
        {
            continue;
        }
        let summary = summary.as_ref().map(summary_view);
        if let (Some(wanted), Some(summary)) = (&wanted_player, &summary)
            && !summary
                .players
                .iter()
                .any(|name| name.to_lowercase().contains(wanted.as_str()))
        {
            continue;
        }
        out.push(ReplayEntry {
            name: file.key.clone(),
            game: game.map(GameType::id),
            bytes: file.bytes,
            modified: views::unix_seconds(file.modified),
            summary,
        });
    }
    out
}

/// `GET /api/replays?game=ID&player=TEXT`: the finished replays, newest
/// first (at most [`LIST_LIMIT`](spielleiter_archive::directory::LIST_LIMIT)
/// files are looked at), each with
/// its players, winner and length.
pub async fn list(
    State(app): State<Arc<App>>,
    Query(filter): Query<ListFilter>,
) -> Result<Json<Vec<ReplayEntry>>, ApiError> {
    let archive = replays(&app)?;
    let games = archive
        .list()
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(Json(
        entries(&*archive, &games, &filter, &app.summaries).await,
    ))
}

/// The downloads of the replay file `name` of the replay directory.
fn file_downloads(name: &str, game: GameType) -> Vec<DownloadView> {
    let base = format!("/api/replays/{}", url_segment(name));
    let ending = if name.ends_with(".gz") {
        ".xml.gz"
    } else {
        ".xml"
    };
    let mut downloads = vec![DownloadView {
        label: format!("replay ({ending})"),
        href: format!("{base}/file"),
    }];
    if let Some(format) = record_format(game) {
        downloads.push(DownloadView {
            label: format.label.to_owned(),
            href: format!("{base}/{}", format.name),
        });
    }
    downloads
}

/// `name` as one segment of an address: everything but letters, digits and
/// `-._~` percent-encoded (replay names hold none of those others, but a
/// name is never trusted to).
pub(crate) fn url_segment(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// `GET /api/replays/{name}`: one replay with every position drawn.
pub async fn replay(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
) -> Result<Json<ReplayView>, ApiError> {
    let archive = replays(&app)?;
    let stored = archive.replay(&name).await.map_err(archive_error)?;
    let file = stored.bytes.name.clone();
    let loaded = load(stored).await?;
    let downloads = file_downloads(&file, loaded.game);
    Ok(Json(viewer::view(file, loaded, downloads)))
}

/// `GET /api/replays/{name}/file`: the replay file as stored (`.xml`, or
/// `.xml.gz` compressed), streamed, for a download.
pub async fn file(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let archive = replays(&app)?;
    let stored = archive.replay(&name).await.map_err(archive_error)?;
    download(stored)
}

/// `GET /api/replays/{name}/blksgf`: a classic Blokus replay as Pentobi's
/// record.
pub async fn blksgf(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let archive = replays(&app)?;
    let stored = archive.replay(&name).await.map_err(archive_error)?;
    let file = stored.bytes.name.clone();
    record_download(stored, PENTOBI_RECORD, &file).await
}

#[cfg(test)]
mod tests;
