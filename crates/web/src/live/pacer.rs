//! The pace of all live streams together ([`EventPacer`]): one event in
//! its turn, so that many pages never slow the games.

use std::{
    sync::{Mutex, PoisonError},
    time::Duration,
};

use tokio::time::Instant;

/// The events per second all live streams together send at most: an event
/// costs the server about as much as a move (a board of several KB
/// written to a socket), so fifty pages at full rate would cost the games
/// a quarter of their speed.
pub const LIVE_EVENTS_PER_SECOND: u32 = 250;

/// Hands out the times at which live events may be made: one every
/// 1/[`LIVE_EVENTS_PER_SECOND`] s for all streams together, in the order
/// they ask. A stream asks only when it has something new to send, so
/// quiet rooms take no turns.
#[derive(Debug)]
pub struct EventPacer {
    pub(super) next: Mutex<Instant>,
}

impl Default for EventPacer {
    fn default() -> Self {
        EventPacer {
            next: Mutex::new(Instant::now()),
        }
    }
}

impl EventPacer {
    /// The time between two turns.
    pub const TURN: Duration = Duration::from_micros(1_000_000 / LIVE_EVENTS_PER_SECOND as u64);

    /// Takes the next free turn and waits for it.
    pub async fn wait_turn(&self) {
        let turn = {
            let mut next = self.next.lock().unwrap_or_else(PoisonError::into_inner);
            let turn = (*next).max(Instant::now());
            *next = turn + Self::TURN;
            turn
        };
        tokio::time::sleep_until(turn).await;
    }
}
