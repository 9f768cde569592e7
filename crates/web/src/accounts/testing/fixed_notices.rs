//! Notices set by the pages' tests, and the read marks and mail addresses
//! the pages set (any account is taken as a member of the team it marks);
//! nothing is mailed.

use std::{collections::BTreeMap, sync::Mutex};

use spielleiter_contest::{
    MailJob, MemberId, Notice, NoticeId, StoreError, StoreFuture, TeamId, TeamNotices,
    check_mail_address,
};

/// The notices every team has.
#[derive(Debug, Default)]
pub(crate) struct FixedNotices {
    notices: Mutex<Vec<(TeamId, Notice)>>,
    marks: Mutex<BTreeMap<(TeamId, MemberId), NoticeId>>,
    addresses: Mutex<BTreeMap<MemberId, String>>,
}

impl FixedNotices {
    /// Tells `team` `notice`.
    pub(crate) fn add(&self, team: TeamId, notice: Notice) {
        self.notices
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((team, notice));
    }

    /// `member`'s address for notices.
    pub(crate) fn mail_address_of(&self, member: MemberId) -> Option<String> {
        self.addresses
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&member)
            .cloned()
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

    fn mail_address(&self, member: MemberId) -> StoreFuture<'_, Option<String>> {
        let address = self
            .addresses
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&member)
            .cloned();
        Box::pin(std::future::ready(Ok(address)))
    }

    fn set_mail_address<'a>(
        &'a self,
        member: MemberId,
        address: Option<&'a str>,
    ) -> StoreFuture<'a, ()> {
        let mut addresses = self.addresses.lock().unwrap_or_else(|e| e.into_inner());
        let result = match address {
            Some(address) if check_mail_address(address).is_err() => {
                Err(StoreError::Refused("not an address"))
            }
            Some(address) => {
                addresses.insert(member, address.to_owned());
                Ok(())
            }
            None => {
                addresses.remove(&member);
                Ok(())
            }
        };
        Box::pin(std::future::ready(result))
    }

    fn claim_mail(&self, _lease_ms: i64, _max: usize) -> StoreFuture<'_, Vec<MailJob>> {
        Box::pin(std::future::ready(Ok(Vec::new())))
    }

    fn mail_done<'a>(
        &'a self,
        _job: &'a MailJob,
        _outcome: Result<(), String>,
        _retry_ms: i64,
    ) -> StoreFuture<'a, ()> {
        Box::pin(std::future::ready(Ok(())))
    }
}
