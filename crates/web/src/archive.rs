//! Finished games from the replay directory: the list with each game's
//! players, outcome and length (kept in a bounded [`SummaryCache`]), one
//! replay for the viewer (every position drawn, each move in words with its
//! think time), and the downloads (the file as stored, Pentobi's record of
//! a classic game). Finished replays are shown to everyone. The files are the replay store's
//! ([`spielleiter_server::replay::archive`]): only finished replays, by
//! name, never through a symbolic link; an answer names a replay by its
//! name, never by its path on the server.

use std::{
    path::{Path as FilePath, PathBuf},
    sync::Arc,
    time::{Duration, Instant},
};

use axum::{
    Json,
    body::Body,
    extract::{Path, Query, State},
    http::header,
    response::{IntoResponse, Response},
};
use serde::{Deserialize, Serialize};
use spielleiter_render::{last_move_in_words, seat_name};
use spielleiter_rules::GameType;
use spielleiter_server::replay::{
    archive::{self as store, LoadError, LoadedReplay, ReplayFile, ReplaySummary},
    blksgf::ClassicRecord,
};

mod summaries;

pub use self::summaries::SummaryCache;
use crate::{
    app::App,
    error::ApiError,
    views::{self, PlayerView, ResultView},
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

/// One position of a replay.
#[derive(Debug, Serialize)]
pub struct FrameView {
    /// The game's turn counter.
    pub turn: u32,
    /// The seats with their points at this position.
    pub players: Vec<PlayerView>,
    /// The board.
    pub svg: String,
    /// The seat whose move led to this position, if a move did.
    pub mover: Option<usize>,
    /// That move in words (`Blue places the T tetromino on …`).
    pub words: Option<String>,
    /// Its think time in whole microseconds, as the replay records it (from
    /// the move request written to the move read); `null` where the replay
    /// has none. An integer, so that the page rounds it for people in one
    /// place and every reader of this JSON gets the recorded figure exactly.
    pub think_micros: Option<u64>,
}

/// A file the viewer offers for download.
#[derive(Debug, Serialize)]
pub struct DownloadView {
    /// What it is, e.g. `replay (.xml.gz)`.
    pub label: String,
    /// Its address.
    pub href: String,
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
    /// The files to download: the replay as stored, and for classic
    /// Blokus Pentobi's record.
    pub downloads: Vec<DownloadView>,
}

fn replay_dir(app: &App) -> Result<PathBuf, ApiError> {
    app.replay_dir
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

/// The entries of `files` that pass `filter`, with the summaries known or
/// read within [`SUMMARY_BUDGET`]. A file not read yet passes a player
/// filter (its players are not known), so that it is not lost from view;
/// its summary is `null`.
fn entries(
    dir: &FilePath,
    files: &[ReplayFile],
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
    for file in files {
        if let (Some(wanted), Some(game)) = (wanted_game, file.game)
            && game.id() != wanted
        {
            continue;
        }
        let summary = cache.get(file).or_else(|| {
            (Instant::now() < deadline).then(|| {
                let summary =
                    store::summary_named(dir, &file.name).map_err(|error| with_causes(&error));
                cache.put(file, summary.clone(), files);
                summary
            })
        });
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
            name: file.name.clone(),
            game: game.map(GameType::id),
            bytes: file.bytes,
            modified: views::unix_seconds(file.modified),
            summary,
        });
    }
    out
}

/// `GET /api/replays?game=ID&player=TEXT`: the finished replays, newest
/// first (at most [`store::LIST_LIMIT`] files are looked at), each with
/// its players, winner and length.
pub async fn list(
    State(app): State<Arc<App>>,
    Query(filter): Query<ListFilter>,
) -> Result<Json<Vec<ReplayEntry>>, ApiError> {
    let dir = replay_dir(&app)?;
    let listed = tokio::task::spawn_blocking(move || {
        let files = store::list(&dir)?;
        Ok::<_, std::io::Error>(entries(&dir, &files, &filter, &app.summaries))
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?
    .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(Json(listed))
}

/// The error of a replay named in a request, as the answer says it.
fn named_error(error: LoadError) -> ApiError {
    match error {
        LoadError::BadName(name) => ApiError::NotFound(format!("{name:?} is not a replay's name")),
        // A symbolic link is no replay here: nothing is said about where
        // it points.
        error @ LoadError::NotAFile(_) => {
            tracing::warn!(%error, "a replay's name in the replay directory is no regular file; not followed");
            ApiError::NotFound("no such replay".to_owned())
        }
        error if error.is_not_found() => ApiError::NotFound("no such replay".to_owned()),
        // The store's errors name the replay by its name, not its path.
        error => ApiError::Unreadable(with_causes(&error)),
    }
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
    if is_classic(game) {
        downloads.push(DownloadView {
            label: "Pentobi record (.blksgf)".to_owned(),
            href: format!("{base}/blksgf"),
        });
    }
    downloads
}

/// Whether `game` is classic Blokus, which Pentobi's record knows.
pub(crate) fn is_classic(game: GameType) -> bool {
    matches!(
        game,
        GameType::BlokusClassic | GameType::BlokusClassic3 | GameType::BlokusClassic2
    )
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
    let dir = replay_dir(&app)?;
    let loaded = tokio::task::spawn_blocking(move || {
        store::load_named(&dir, &name).map(|replay| {
            let downloads = file_downloads(&name, replay.game);
            view(name, replay, downloads)
        })
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?;
    loaded.map(Json).map_err(named_error)
}

/// `GET /api/replays/{name}/file`: the replay file as stored (`.xml`, or
/// `.xml.gz` compressed), streamed, for a download.
pub async fn file(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let dir = replay_dir(&app)?;
    let opened = {
        let name = name.clone();
        tokio::task::spawn_blocking(move || store::open_named_file(&dir, &name))
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?
    };
    let file = opened.map_err(named_error)?;
    // A finished replay is never written again: its size is its length.
    let length = file
        .metadata()
        .map_err(|e| ApiError::Internal(e.to_string()))?
        .len();
    let content_type = if name.ends_with(".gz") {
        "application/gzip"
    } else {
        "application/xml"
    };
    let stream = tokio_util::io::ReaderStream::new(tokio::fs::File::from_std(file));
    Ok((
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (header::CONTENT_DISPOSITION, attachment(&name)),
            (header::CONTENT_LENGTH, length.to_string()),
        ],
        Body::from_stream(stream),
    )
        .into_response())
}

/// `GET /api/replays/{name}/blksgf`: a classic Blokus replay as Pentobi's
/// record.
pub async fn blksgf(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let dir = replay_dir(&app)?;
    let record = {
        let name = name.clone();
        tokio::task::spawn_blocking(move || {
            store::read_named(&dir, &name)
                .map_err(named_error)
                .and_then(|(game, replay)| {
                    ClassicRecord::of_replay(game, &replay)
                        .map_err(|error| ApiError::NotFound(error.to_string()))
                })
        })
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))??
    };
    Ok(blksgf_response(&record, &name))
}

/// Pentobi's record of `record` as a download named after `name`.
pub(crate) fn blksgf_response(record: &ClassicRecord, name: &str) -> Response {
    let stem = name.trim_end_matches(".gz").trim_end_matches(".xml");
    (
        [
            (
                header::CONTENT_TYPE,
                "application/x-blokus-sgf; charset=utf-8".to_owned(),
            ),
            (
                header::CONTENT_DISPOSITION,
                attachment(&format!("{stem}.blksgf")),
            ),
        ],
        record.blksgf(),
    )
        .into_response()
}

/// `attachment; filename="NAME"` with every character outside a replay
/// name's (letters, digits, `-._`) replaced by `_`.
pub(crate) fn attachment(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("attachment; filename=\"{safe}\"")
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

/// The viewer's replay: every position drawn, each with the move that led
/// there in words and its think time; `downloads` as the route offers
/// them.
pub(crate) fn view(name: String, replay: LoadedReplay, downloads: Vec<DownloadView>) -> ReplayView {
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
            let words = index
                .checked_sub(1)
                .and_then(|before| replay.positions.get(before))
                .and_then(|before| last_move_in_words(before, game));
            FrameView {
                turn: spielleiter_rules::Game::turn(game),
                players: views::players(game, names, &[]),
                svg: views::board_svg(game, names, notes, words.clone()),
                mover: words.as_ref().and_then(|_| replay.mover(index)),
                words,
                think_micros: replay
                    .think_times
                    .get(index)
                    .copied()
                    .flatten()
                    .map(|t| u64::try_from(t.as_micros()).unwrap_or(u64::MAX)),
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
        downloads,
    }
}

#[cfg(test)]
mod tests;
