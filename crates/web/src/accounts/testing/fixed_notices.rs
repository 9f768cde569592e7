//! Notices set by the pages' tests, and the read marks the pages set (any
//! account is taken as a member of the team it marks).

use std::{collections::BTreeMap, sync::Mutex};

use spielleiter_contest::{MemberId, Notice, NoticeId, StoreFuture, TeamId, TeamNotices};

/// The notices every team has.
#[derive(Debug, Default)]
pub(crate) struct FixedNotices {
    notices: Mutex<Vec<(TeamId, Notice)>>,
    marks: Mutex<BTreeMap<(TeamId, MemberId), NoticeId>>,
}

impl FixedNotices {
    /// Tells `team` `notice`.
    pub(crate) fn add(&self, team: TeamId, notice: Notice) {
        self.notices
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((team, notice));
    }

    /// `member`'s read mark on `team`'s notices.
    pub(crate) fn mark(&self, team: TeamId, member: MemberId) -> Option<NoticeId> {
        self.marks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&(team, member))
            .copied()
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

    fn last_read(&self, team: TeamId, member: MemberId) -> StoreFuture<'_, Option<NoticeId>> {
        Box::pin(std::future::ready(Ok(self.mark(team, member))))
    }

    fn mark_read(&self, team: TeamId, member: MemberId, up_to: NoticeId) -> StoreFuture<'_, ()> {
        let mut marks = self.marks.lock().unwrap_or_else(|e| e.into_inner());
        let mark = marks.entry((team, member)).or_insert(up_to);
        *mark = (*mark).max(up_to);
        Box::pin(std::future::ready(Ok(())))
    }
}
