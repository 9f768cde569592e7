//! The boards the event streams share ([`Boards`]): each room's newest
//! board drawn once, however many pages watch it.

use std::{
    collections::HashMap,
    sync::{Mutex, PoisonError},
};

use axum::body::Bytes;
use spielleiter_server::{
    ids::RoomId,
    showroom::{RoomSnapshot, Showroom},
};

use crate::views;

/// Boards kept at least (see [`Boards`]).
pub(super) const BOARDS_KEPT: usize = 256;

/// The boards the event streams drew: per room, the SVG of the newest
/// snapshot a stream showed, drawn by the first stream that needed it and
/// shared by the room's other streams. Boards of rooms that have closed are
/// dropped when there are more than twice as many as open rooms (and at
/// least `BOARDS_KEPT`).
#[derive(Debug, Default)]
pub struct Boards {
    drawn: Mutex<HashMap<RoomId, (u64, Bytes)>>,
}

impl Boards {
    fn drawn(&self) -> std::sync::MutexGuard<'_, HashMap<RoomId, (u64, Bytes)>> {
        // A plain map: a panic elsewhere leaves it consistent.
        self.drawn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The board of `snapshot` as one line of SVG; `showroom` tells which
    /// rooms are still open.
    pub fn board(&self, snapshot: &RoomSnapshot, showroom: &Showroom) -> Bytes {
        if let Some((version, svg)) = self.drawn().get(&snapshot.id)
            && *version == snapshot.version
        {
            return svg.clone();
        }
        let svg = one_line(views::board(snapshot));
        let mut drawn = self.drawn();
        if drawn.len() >= BOARDS_KEPT.max(2 * showroom.open_count())
            && !drawn.contains_key(&snapshot.id)
        {
            drawn.retain(|id, _| showroom.watch(id).is_some());
        }
        let newest = drawn
            .get(&snapshot.id)
            .is_none_or(|(version, _)| *version < snapshot.version);
        if newest {
            drawn.insert(snapshot.id.clone(), (snapshot.version, svg.clone()));
        }
        svg
    }

    /// The number of boards kept.
    pub fn len(&self) -> usize {
        self.drawn().len()
    }

    /// Whether no board is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `svg` without line breaks (the renderer writes none; a stray one would
/// end the event's data line).
pub(super) fn one_line(svg: String) -> Bytes {
    if memchr::memchr2(b'\n', b'\r', svg.as_bytes()).is_some() {
        Bytes::from(svg.replace(['\n', '\r'], " "))
    } else {
        Bytes::from(svg)
    }
}
