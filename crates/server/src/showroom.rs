//! What rooms show to watchers (the web pages, metrics): each room task
//! publishes an immutable [`RoomSnapshot`] of itself after every change
//! through a `watch` channel, where the latest value wins; the
//! [`Showroom`] lists the rooms' channels and keeps the last finished
//! games.
//!
//! A room never waits for a watcher: publishing replaces the channel's
//! value, and a watcher that lags reads only the newest snapshot. The room
//! shares no game with anyone: a snapshot holds a copy of the position.
//! The showroom's lock guards only its list of channels; it is taken when a
//! room opens or closes and when a watcher looks the rooms up, never per
//! move.

use std::{
    collections::{HashMap, VecDeque},
    sync::{Arc, Mutex, MutexGuard, PoisonError},
    time::{Duration, SystemTime},
};

use spielleiter_protocol::result::GameResult;
use spielleiter_rules::{AnyGame, GameType};
use tokio::{sync::watch, time::Instant};

use crate::ids::RoomId;

/// How many finished games the showroom remembers.
pub const FINISHED_KEPT: usize = 20;

/// Where a room is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomPhase {
    /// Seats are still empty.
    Waiting,
    /// Moves are being played.
    Running,
    /// An administrator has paused the game.
    Paused,
    /// The game has a result.
    Over,
}

impl RoomPhase {
    /// The phase's name in lower case, e.g. `running`.
    pub fn name(self) -> &'static str {
        match self {
            RoomPhase::Waiting => "waiting",
            RoomPhase::Running => "running",
            RoomPhase::Paused => "paused",
            RoomPhase::Over => "over",
        }
    }
}

/// The move request a player has to answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PendingMove {
    /// The seat asked.
    pub seat: usize,
    /// When the request was sent.
    pub asked_at: Instant,
    /// The player's soft and hard limit; `None` if the player is untimed.
    pub limits: Option<(Duration, Duration)>,
}

/// A room as it was after its latest change.
#[derive(Clone, Debug)]
pub struct RoomSnapshot {
    /// The room's id.
    pub id: RoomId,
    /// The players' display names in seat order (blank for seats taken by
    /// `join`).
    pub names: Arc<[String]>,
    /// Which seats are taken.
    pub seated: Vec<bool>,
    /// Where the room is.
    pub phase: RoomPhase,
    /// A copy of the position.
    pub game: AnyGame,
    /// The request the player to move has to answer, if one is out.
    pub pending: Option<PendingMove>,
    /// The result, once the game is over.
    pub result: Option<Arc<GameResult>>,
    /// When the room was opened.
    pub opened: SystemTime,
    /// Counts the room's snapshots: a newer snapshot has a larger number.
    pub version: u64,
}

impl RoomSnapshot {
    /// The game's type.
    pub fn game_type(&self) -> GameType {
        self.game.game_type()
    }
}

/// The rooms that are open now, and the last finished games.
#[derive(Debug, Default)]
pub struct Showroom {
    inner: Mutex<Listing>,
}

#[derive(Debug, Default)]
struct Listing {
    /// Every open room's channel with its opening number.
    open: HashMap<RoomId, (u64, watch::Receiver<Arc<RoomSnapshot>>)>,
    opened: u64,
    /// The last snapshots of finished games, newest first.
    finished: VecDeque<Arc<RoomSnapshot>>,
}

impl Showroom {
    fn listing(&self) -> MutexGuard<'_, Listing> {
        // The lock guards plain collections: a panic elsewhere leaves them
        // consistent.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers a room with its first snapshot; the room publishes through
    /// the returned [`Publisher`], which takes the room out when dropped.
    pub fn open(self: &Arc<Self>, first: RoomSnapshot) -> Publisher {
        let id = first.id.clone();
        let (sender, receiver) = watch::channel(Arc::new(first));
        let mut listing = self.listing();
        listing.opened += 1;
        let number = listing.opened;
        listing.open.insert(id.clone(), (number, receiver));
        Publisher {
            id,
            sender,
            showroom: Arc::clone(self),
        }
    }

    /// The open rooms' channels, oldest room first.
    pub fn open_rooms(&self) -> Vec<watch::Receiver<Arc<RoomSnapshot>>> {
        let listing = self.listing();
        let mut rooms: Vec<_> = listing.open.values().cloned().collect();
        drop(listing);
        rooms.sort_unstable_by_key(|(number, _)| *number);
        rooms.into_iter().map(|(_, receiver)| receiver).collect()
    }

    /// The channel of the open room `id`.
    pub fn watch(&self, id: &RoomId) -> Option<watch::Receiver<Arc<RoomSnapshot>>> {
        self.listing().open.get(id).map(|(_, r)| r.clone())
    }

    /// The last snapshots of the finished games that are remembered, newest
    /// first.
    pub fn finished(&self) -> Vec<Arc<RoomSnapshot>> {
        self.listing().finished.iter().cloned().collect()
    }

    /// The last snapshot of the finished game in room `id`, if remembered.
    pub fn finished_room(&self, id: &RoomId) -> Option<Arc<RoomSnapshot>> {
        self.listing()
            .finished
            .iter()
            .find(|s| s.id == *id)
            .cloned()
    }

    /// The number of open rooms.
    pub fn open_count(&self) -> usize {
        self.listing().open.len()
    }
}

/// A room's end of its channel.
#[derive(Debug)]
pub struct Publisher {
    id: RoomId,
    sender: watch::Sender<Arc<RoomSnapshot>>,
    showroom: Arc<Showroom>,
}

impl Publisher {
    /// Replaces the room's snapshot; `change` edits a copy of the latest.
    /// Never waits.
    pub fn publish(&self, change: impl FnOnce(&mut RoomSnapshot)) {
        self.sender.send_modify(|latest| {
            let snapshot = Arc::make_mut(latest);
            change(snapshot);
            snapshot.version += 1;
        });
    }
}

impl Drop for Publisher {
    /// Takes the room out of the listing; a finished game's last snapshot
    /// joins the finished ones.
    fn drop(&mut self) {
        let last = Arc::clone(&self.sender.borrow());
        let mut listing = self.showroom.listing();
        listing.open.remove(&self.id);
        if last.phase == RoomPhase::Over {
            listing.finished.push_front(last);
            listing.finished.truncate(FINISHED_KEPT);
        }
    }
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::blokus::{Blokus, PieceKind};

    use super::*;

    fn snapshot(id: &str) -> RoomSnapshot {
        RoomSnapshot {
            id: RoomId::from(id),
            names: Arc::from(vec![String::new(), String::new()]),
            seated: vec![false, false],
            phase: RoomPhase::Waiting,
            game: AnyGame::Blokus2021(Blokus::new(PieceKind::PentoL)),
            pending: None,
            result: None,
            opened: SystemTime::UNIX_EPOCH,
            version: 0,
        }
    }

    #[tokio::test]
    async fn watchers_see_the_latest_snapshot_and_finished_rooms_are_kept() {
        let showroom = Arc::new(Showroom::default());
        let first = showroom.open(snapshot("a"));
        let second = showroom.open(snapshot("b"));
        let ids: Vec<RoomId> = showroom
            .open_rooms()
            .iter()
            .map(|r| r.borrow().id.clone())
            .collect();
        assert_eq!(ids, [RoomId::from("a"), RoomId::from("b")]);

        let mut watcher = showroom.watch(&RoomId::from("a")).expect("open");
        for _ in 0..3 {
            first.publish(|s| s.phase = RoomPhase::Running);
        }
        first.publish(|s| s.phase = RoomPhase::Over);
        watcher.changed().await.expect("changed");
        // A lagging watcher skips to the newest snapshot.
        assert_eq!(watcher.borrow_and_update().version, 4);
        assert_eq!(watcher.borrow().phase, RoomPhase::Over);

        drop(first);
        drop(second);
        assert!(watcher.changed().await.is_err(), "the room has ended");
        assert_eq!(showroom.open_count(), 0);
        // Only the game that reached a result is remembered.
        let finished = showroom.finished();
        assert_eq!(finished.len(), 1);
        assert_eq!(finished[0].id, RoomId::from("a"));
        assert!(showroom.finished_room(&RoomId::from("a")).is_some());
        assert!(showroom.finished_room(&RoomId::from("b")).is_none());
    }

    #[test]
    fn only_the_last_finished_games_are_kept() {
        let showroom = Arc::new(Showroom::default());
        for n in 0..FINISHED_KEPT + 5 {
            let publisher = showroom.open(snapshot(&n.to_string()));
            publisher.publish(|s| s.phase = RoomPhase::Over);
        }
        let finished = showroom.finished();
        assert_eq!(finished.len(), FINISHED_KEPT);
        assert_eq!(
            finished[0].id,
            RoomId::from((FINISHED_KEPT + 4).to_string().as_str())
        );
    }
}
