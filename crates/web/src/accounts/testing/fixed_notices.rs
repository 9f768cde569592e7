//! Notices set by the pages' tests, the same for every team asked.

use std::sync::Mutex;

use spielleiter_contest::{Notice, StoreFuture, TeamId, TeamNotices};

/// The notices every team has.
#[derive(Debug, Default)]
pub(crate) struct FixedNotices {
    notices: Mutex<Vec<(TeamId, Notice)>>,
}

impl FixedNotices {
    /// Tells `team` `notice`.
    pub(crate) fn add(&self, team: TeamId, notice: Notice) {
        self.notices
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((team, notice));
    }
}

impl TeamNotices for FixedNotices {
    fn notices(&self, team: TeamId) -> StoreFuture<'_, Vec<Notice>> {
        let notices = self
            .notices
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .rev()
            .filter(|(of, _)| *of == team)
            .map(|(_, n)| n.clone())
            .collect();
        Box::pin(std::future::ready(Ok(notices)))
    }
}
