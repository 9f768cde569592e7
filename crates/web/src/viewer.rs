//! One finished game for the replay viewer, from whichever archive holds
//! it (the replay directory's pages, [`archive`](crate::archive); the
//! season page, [`season`](crate::season)): the viewer's JSON
//! ([`ReplayView`], a [`FrameView`] per position, the [`DownloadView`]s
//! its route offers), the replay read on a blocking thread (`load`), and
//! the downloads: the replay as it is stored (`download`) and its record
//! for another program where its game's folder defines one
//! (`record_download`).

use axum::{
    body::Body,
    http::header,
    response::{IntoResponse, Response},
};
use serde::Serialize;
use spielleiter_archive::{Body as StoredBody, LoadedReplay, StoredReplay};
use spielleiter_protocol::RecordFormat;
use spielleiter_render::{last_move_in_words, seat_name};

use crate::{
    error::{ApiError, archive_error},
    views::{self, PlayerView, ResultView},
};

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
    /// Every turn from the position before to this one, numbered without
    /// gaps: the move, then the turns the rules skipped after it.
    pub turns: Vec<views::TurnView>,
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

/// `stored` as positions of the rules, on a blocking thread.
pub(crate) async fn load(stored: StoredReplay) -> Result<LoadedReplay, ApiError> {
    tokio::task::spawn_blocking(move || stored.load())
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
        .map_err(|error| archive_error(error.into()))
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
            let turns = index
                .checked_sub(1)
                .and_then(|before| replay.positions.get(before))
                .map(|before| views::turns(before, game))
                .unwrap_or_default();
            FrameView {
                turn: spielleiter_rules::Game::turn(game),
                players: views::players(game, names, &[]),
                svg: views::board_svg(game, names, notes, words.clone()),
                mover: words.as_ref().and_then(|_| replay.mover(index)),
                words,
                turns,
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

/// A stored replay as a download, as it is stored (`.xml`, or `.xml.gz`
/// compressed): a file streamed, bytes of a store sent whole.
pub(crate) fn download(stored: StoredReplay) -> Result<Response, ApiError> {
    let bytes = stored.bytes;
    let length = bytes.len().map_err(|e| ApiError::Internal(e.to_string()))?;
    let content_type = if bytes.gzip {
        "application/gzip"
    } else {
        "application/xml"
    };
    let headers = [
        (header::CONTENT_TYPE, content_type.to_owned()),
        (header::CONTENT_DISPOSITION, attachment(&bytes.name)),
        (header::CONTENT_LENGTH, length.to_string()),
    ];
    Ok(match bytes.body {
        StoredBody::File(file) => {
            // A finished replay is never written again: its size is its length.
            let stream = tokio_util::io::ReaderStream::new(tokio::fs::File::from_std(file));
            (headers, Body::from_stream(stream)).into_response()
        }
        StoredBody::Memory(bytes) => (headers, bytes).into_response(),
    })
}

/// The record format the routes `…/blksgf` answer with (Pentobi's); a
/// game's download names it when its folder defines it.
pub(crate) const PENTOBI_RECORD: &str = "blksgf";

/// A stored replay as a record in the format named `format` for another
/// program, read on a blocking thread, as a download named after `name`.
pub(crate) async fn record_download(
    stored: StoredReplay,
    format: &str,
    name: &str,
) -> Result<Response, ApiError> {
    let format =
        RecordFormat::named(format).map_err(|error| ApiError::NotFound(error.to_string()))?;
    let text = tokio::task::spawn_blocking(move || {
        let (game, replay) = stored.read().map_err(|e| archive_error(e.into()))?;
        replay
            .record(game, format)
            .map_err(|error| ApiError::NotFound(error.to_string()))
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))??;
    let stem = name.trim_end_matches(".gz").trim_end_matches(".xml");
    Ok((
        [
            (header::CONTENT_TYPE, format.media_type.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                attachment(&format!("{stem}.{}", format.name)),
            ),
        ],
        text,
    )
        .into_response())
}

/// `attachment; filename="NAME"` with every character outside a replay
/// name's (letters, digits, `-._`) replaced by `_`.
fn attachment(name: &str) -> String {
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
