//! A [`ContestAccounts`] store in memory, for tests only (feature
//! `test-support`; never part of the product): the web side's tests run
//! against it, and it passes the same [`conformance`](super::conformance)
//! cases as the SQL stores. Each method takes one lock for its whole work,
//! which is what a transaction is to it.

use std::sync::{Mutex, PoisonError};

use super::{
    ContestAccounts, Credentials, NewAccount, SessionOrigin, SignedIn, StoreError, StoreFuture,
    StoredInvite, StoredSession, TOO_MANY_LINKS,
};
use crate::{
    Account, AccountKind, Contest, GroupId, Invite, InviteId, InviteKind, MemberId, Role, Session,
    SessionId, SessionState, Team, TeamId, Timestamp, TokenDigest,
    accounts::{MAX_OPEN_LINKS_PER_TEAM, MAX_SESSIONS_PER_ACCOUNT, login_key},
};

/// A contest's accounts held in memory.
#[derive(Debug)]
pub struct MemoryAccounts {
    contest: Contest,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    teams: Vec<Team>,
    accounts: Vec<Stored>,
    invites: Vec<(TokenDigest, StoredInvite)>,
    sessions: Vec<(TokenDigest, StoredSession)>,
    /// The last id handed out (one sequence for every kind of record).
    last_id: i64,
}

#[derive(Debug)]
struct Stored {
    account: Account,
    login_key: String,
    password_hash: String,
}

impl MemoryAccounts {
    /// An empty store of `contest`.
    pub fn new(contest: Contest) -> MemoryAccounts {
        MemoryAccounts {
            contest,
            state: Mutex::default(),
        }
    }

    /// Runs `work` under the store's lock: one transaction.
    fn with<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut State, &Contest) -> Result<T, StoreError>,
    ) -> StoreFuture<'_, T> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        // A refused call changes nothing: each method below checks all it
        // needs first and writes only then.
        let answer = work(&mut state, &self.contest);
        Box::pin(std::future::ready(answer))
    }
}

impl State {
    fn next_id(&mut self) -> i64 {
        self.last_id += 1;
        self.last_id
    }

    fn team(&self, team: TeamId) -> Result<&Team, StoreError> {
        self.teams
            .iter()
            .find(|t| t.id == team)
            .ok_or(StoreError::NotFound("team"))
    }

    fn team_mut(&mut self, team: TeamId) -> Result<&mut Team, StoreError> {
        self.teams
            .iter_mut()
            .find(|t| t.id == team)
            .ok_or(StoreError::NotFound("team"))
    }

    fn stored(&self, member: MemberId) -> Result<&Stored, StoreError> {
        self.accounts
            .iter()
            .find(|s| s.account.id == member)
            .ok_or(StoreError::NotFound("account"))
    }

    fn stored_mut(&mut self, member: MemberId) -> Result<&mut Stored, StoreError> {
        self.accounts
            .iter_mut()
            .find(|s| s.account.id == member)
            .ok_or(StoreError::NotFound("account"))
    }

    fn team_of(&self, account: &Account) -> Option<TeamId> {
        match account.kind {
            AccountKind::Member { team, .. } => Some(team),
            AccountKind::Organiser => None,
        }
    }

    fn team_enabled(&self, account: &Account) -> bool {
        self.team_of(account)
            .is_none_or(|team| self.team(team).is_ok_and(|t| t.enabled))
    }

    fn end_sessions(&mut self, member: impl Fn(MemberId) -> bool) {
        self.sessions.retain(|(_, s)| !member(s.session.member));
    }

    fn add_account(&mut self, new: &NewAccount, kind: AccountKind) -> Result<Account, StoreError> {
        let key = new.login_key();
        if self.accounts.iter().any(|s| s.login_key == key) {
            return Err(StoreError::Taken(new.display_name.clone()));
        }
        let account = Account {
            id: MemberId(self.next_id()),
            display_name: new.display_name.clone(),
            kind,
            enabled: true,
        };
        self.accounts.push(Stored {
            account: account.clone(),
            login_key: key,
            password_hash: new.password_hash.clone(),
        });
        Ok(account)
    }

    fn invite_index(&self, token: &TokenDigest) -> Result<usize, StoreError> {
        self.invites
            .iter()
            .position(|(digest, _)| digest == token)
            .ok_or(StoreError::NotFound("invite"))
    }

    /// Checks the invite at `index` at `now`, with its team, its maker (an
    /// account that still exists) and for a reset its member enabled.
    fn check_invite(&self, index: usize, now: Timestamp) -> Result<Invite, StoreError> {
        let invite = self.invites[index].1.invite;
        let mut enabled = self.team(invite.team).is_ok_and(|t| t.enabled);
        if let InviteKind::PasswordReset { member } = invite.kind {
            enabled &= self.stored(member).is_ok_and(|s| s.account.enabled);
        }
        if let Some(maker) = invite.created_by {
            enabled &= self
                .stored(maker)
                .is_ok_and(|s| s.account.enabled && self.team_enabled(&s.account));
        }
        invite.check(now, enabled)?;
        Ok(invite)
    }

    /// Withdraws `member`'s open password-reset links.
    fn withdraw_resets(&mut self, member: MemberId) {
        for (_, stored) in &mut self.invites {
            if stored.invite.kind == (InviteKind::PasswordReset { member })
                && stored.invite.used_at.is_none()
            {
                stored.invite.withdrawn = true;
            }
        }
    }
}

impl ContestAccounts for MemoryAccounts {
    fn describe(&self) -> String {
        format!("the accounts of {:?} in memory", self.contest.name)
    }

    fn contest(&self) -> StoreFuture<'_, Contest> {
        self.with(|_, contest| Ok(contest.clone()))
    }

    fn add_team<'a>(&'a self, name: &'a str, group: Option<GroupId>) -> StoreFuture<'a, Team> {
        let name = name.to_owned();
        self.with(move |state, _| {
            let key = login_key(&name);
            if state.teams.iter().any(|t| login_key(&t.name) == key) {
                return Err(StoreError::Taken(name));
            }
            let team = Team {
                id: TeamId(state.next_id()),
                name,
                group,
                enabled: true,
                auto_accept_friendly: false,
            };
            state.teams.push(team.clone());
            Ok(team)
        })
    }

    fn teams(&self) -> StoreFuture<'_, Vec<Team>> {
        self.with(|state, _| Ok(state.teams.clone()))
    }

    fn team(&self, team: TeamId) -> StoreFuture<'_, Team> {
        self.with(move |state, _| state.team(team).cloned())
    }

    fn set_team_enabled(&self, team: TeamId, enabled: bool) -> StoreFuture<'_, ()> {
        self.with(move |state, _| {
            state.team_mut(team)?.enabled = enabled;
            if !enabled {
                let members: Vec<MemberId> = (state.accounts.iter())
                    .filter(|s| state.team_of(&s.account) == Some(team))
                    .map(|s| s.account.id)
                    .collect();
                state.end_sessions(|member| members.contains(&member));
            }
            Ok(())
        })
    }

    fn set_auto_accept(&self, team: TeamId, auto_accept: bool) -> StoreFuture<'_, ()> {
        self.with(move |state, _| {
            state.team_mut(team)?.auto_accept_friendly = auto_accept;
            Ok(())
        })
    }

    fn members(&self, team: TeamId) -> StoreFuture<'_, Vec<Account>> {
        self.with(move |state, _| {
            state.team(team)?;
            Ok((state.accounts.iter())
                .filter(|s| state.team_of(&s.account) == Some(team))
                .map(|s| s.account.clone())
                .collect())
        })
    }

    fn account(&self, member: MemberId) -> StoreFuture<'_, Account> {
        self.with(move |state, _| Ok(state.stored(member)?.account.clone()))
    }

    fn add_organiser<'a>(&'a self, account: &'a NewAccount) -> StoreFuture<'a, Account> {
        self.with(move |state, _| state.add_account(account, AccountKind::Organiser))
    }

    fn credentials<'a>(&'a self, login_key: &'a str) -> StoreFuture<'a, Option<Credentials>> {
        self.with(move |state, _| {
            Ok((state.accounts.iter())
                .find(|s| s.login_key == login_key)
                .map(|s| Credentials {
                    account: s.account.clone(),
                    password_hash: s.password_hash.clone(),
                }))
        })
    }

    fn set_account_enabled(&self, member: MemberId, enabled: bool) -> StoreFuture<'_, ()> {
        self.with(move |state, _| {
            state.stored_mut(member)?.account.enabled = enabled;
            if !enabled {
                state.end_sessions(|m| m == member);
            }
            Ok(())
        })
    }

    fn remove_member(&self, team: TeamId, member: MemberId) -> StoreFuture<'_, ()> {
        self.with(move |state, _| {
            let stored = state.stored(member)?;
            if state.team_of(&stored.account) != Some(team) {
                return Err(StoreError::NotFound("member of this team"));
            }
            state.accounts.retain(|s| s.account.id != member);
            state.end_sessions(|m| m == member);
            state
                .invites
                .retain(|(_, i)| i.invite.kind != InviteKind::PasswordReset { member });
            Ok(())
        })
    }

    fn add_invite<'a>(
        &'a self,
        token: &'a TokenDigest,
        invite: &'a Invite,
    ) -> StoreFuture<'a, StoredInvite> {
        self.with(move |state, _| {
            state.team(invite.team)?;
            if let InviteKind::PasswordReset { member } = invite.kind {
                let stored = state.stored(member)?;
                if state.team_of(&stored.account) != Some(invite.team) {
                    return Err(StoreError::Refused(
                        "a password reset names a member of its team",
                    ));
                }
            }
            if state.invites.iter().any(|(digest, _)| digest == token) {
                return Err(StoreError::Refused("this token is in use"));
            }
            match invite.kind {
                InviteKind::PasswordReset { member } => state.withdraw_resets(member),
                InviteKind::Teacher | InviteKind::Student => {
                    let open = (state.invites.iter())
                        .filter(|(_, i)| i.invite.team == invite.team)
                        .filter(|(_, i)| i.invite.role_granted().is_some())
                        .filter(|(_, i)| i.invite.check(invite.created_at, true).is_ok())
                        .count();
                    if open >= MAX_OPEN_LINKS_PER_TEAM {
                        return Err(StoreError::Refused(TOO_MANY_LINKS));
                    }
                }
            }
            let stored = StoredInvite {
                id: InviteId(state.next_id()),
                invite: *invite,
            };
            state.invites.push((*token, stored));
            Ok(stored)
        })
    }

    fn invite<'a>(&'a self, token: &'a TokenDigest) -> StoreFuture<'a, Option<StoredInvite>> {
        self.with(move |state, _| {
            Ok((state.invites.iter())
                .find(|(digest, _)| digest == token)
                .map(|(_, invite)| *invite))
        })
    }

    fn invites(&self, team: TeamId) -> StoreFuture<'_, Vec<StoredInvite>> {
        self.with(move |state, _| {
            state.team(team)?;
            let mut invites: Vec<StoredInvite> = (state.invites.iter())
                .filter(|(_, i)| i.invite.team == team)
                .map(|(_, i)| *i)
                .collect();
            invites.reverse();
            Ok(invites)
        })
    }

    fn withdraw_invite(&self, team: TeamId, invite: InviteId) -> StoreFuture<'_, ()> {
        self.with(move |state, _| {
            let (_, stored) = (state.invites.iter_mut())
                .find(|(_, i)| i.id == invite && i.invite.team == team)
                .ok_or(StoreError::NotFound("invite of this team"))?;
            if stored.invite.used_at.is_some() {
                return Err(StoreError::Invite(crate::InviteError::Used));
            }
            stored.invite.withdrawn = true;
            Ok(())
        })
    }

    fn join<'a>(
        &'a self,
        token: &'a TokenDigest,
        account: &'a NewAccount,
        now: Timestamp,
    ) -> StoreFuture<'a, Account> {
        self.with(move |state, _| {
            let index = state.invite_index(token)?;
            let invite = state.check_invite(index, now)?;
            let role = match invite.kind {
                InviteKind::Teacher => Role::Teacher,
                InviteKind::Student => Role::Student,
                InviteKind::PasswordReset { .. } => {
                    return Err(StoreError::Refused("this link sets a password"));
                }
            };
            let kind = AccountKind::Member {
                team: invite.team,
                role,
            };
            let made = state.add_account(account, kind)?;
            state.invites[index].1.invite.used_at = Some(now);
            Ok(made)
        })
    }

    fn reset_password<'a>(
        &'a self,
        token: &'a TokenDigest,
        password_hash: &'a str,
        now: Timestamp,
    ) -> StoreFuture<'a, Account> {
        self.with(move |state, _| {
            let index = state.invite_index(token)?;
            let invite = state.check_invite(index, now)?;
            let InviteKind::PasswordReset { member } = invite.kind else {
                return Err(StoreError::Refused("this link is no password reset"));
            };
            let stored = state.stored_mut(member)?;
            stored.password_hash = password_hash.to_owned();
            let account = stored.account.clone();
            state.invites[index].1.invite.used_at = Some(now);
            state.withdraw_resets(member);
            state.end_sessions(|m| m == member);
            Ok(account)
        })
    }

    fn set_password<'a>(&'a self, member: MemberId, password_hash: &'a str) -> StoreFuture<'a, ()> {
        self.with(move |state, _| {
            state.stored_mut(member)?.password_hash = password_hash.to_owned();
            state.withdraw_resets(member);
            state.end_sessions(|m| m == member);
            Ok(())
        })
    }

    fn rehash_password<'a>(
        &'a self,
        member: MemberId,
        old: &'a str,
        new: &'a str,
    ) -> StoreFuture<'a, bool> {
        self.with(move |state, _| {
            let stored = state.stored_mut(member)?;
            if stored.password_hash != old {
                return Ok(false);
            }
            new.clone_into(&mut stored.password_hash);
            Ok(true)
        })
    }

    fn open_session<'a>(
        &'a self,
        token: &'a TokenDigest,
        member: MemberId,
        origin: &'a SessionOrigin,
        now: Timestamp,
    ) -> StoreFuture<'a, StoredSession> {
        self.with(move |state, contest| {
            let stored = state.stored(member)?;
            if !stored.account.enabled || !state.team_enabled(&stored.account) {
                return Err(StoreError::Refused("this account is disabled"));
            }
            if state.sessions.iter().any(|(digest, _)| digest == token) {
                return Err(StoreError::Refused("this token is in use"));
            }
            let settings = &contest.settings;
            state.sessions.retain(|(_, s)| {
                s.session.member != member || s.session.state(now, settings) == SessionState::Live
            });
            let live: Vec<(Timestamp, SessionId)> = (state.sessions.iter())
                .filter(|(_, s)| s.session.member == member)
                .map(|(_, s)| (s.session.signed_in_at, s.id))
                .collect();
            if live.len() >= MAX_SESSIONS_PER_ACCOUNT
                && let Some(&(_, first)) = live.iter().min()
            {
                state.sessions.retain(|(_, s)| s.id != first);
            }
            let session = StoredSession {
                id: SessionId(state.next_id()),
                session: Session::new(member, now),
                origin: origin.clone(),
            };
            state.sessions.push((*token, session.clone()));
            Ok(session)
        })
    }

    fn session<'a>(
        &'a self,
        token: &'a TokenDigest,
        now: Timestamp,
    ) -> StoreFuture<'a, Option<SignedIn>> {
        self.with(move |state, contest| {
            let Some(index) = (state.sessions.iter()).position(|(digest, _)| digest == token)
            else {
                return Ok(None);
            };
            let session = &state.sessions[index].1;
            let live = session.session.state(now, &contest.settings) == SessionState::Live;
            let account = state
                .stored(session.session.member)
                .ok()
                .map(|s| s.account.clone())
                .filter(|account| live && account.enabled);
            let Some(account) = account else {
                state.sessions.remove(index);
                return Ok(None);
            };
            let team_enabled = state.team_enabled(&account);
            let session = &mut state.sessions[index].1;
            if session.session.records_use_at(now) {
                session.session.last_used_at = now;
            }
            Ok(Some(SignedIn {
                session: session.clone(),
                account,
                team_enabled,
            }))
        })
    }

    fn sessions(&self, member: MemberId, now: Timestamp) -> StoreFuture<'_, Vec<StoredSession>> {
        self.with(move |state, contest| {
            let mut sessions: Vec<StoredSession> = (state.sessions.iter())
                .map(|(_, s)| s)
                .filter(|s| s.session.member == member)
                .filter(|s| s.session.state(now, &contest.settings) == SessionState::Live)
                .cloned()
                .collect();
            sessions.sort_by_key(|s| std::cmp::Reverse((s.session.signed_in_at, s.id)));
            Ok(sessions)
        })
    }

    fn end_session(&self, member: MemberId, session: SessionId) -> StoreFuture<'_, ()> {
        self.with(move |state, _| {
            let before = state.sessions.len();
            state
                .sessions
                .retain(|(_, s)| !(s.id == session && s.session.member == member));
            if state.sessions.len() == before {
                return Err(StoreError::NotFound("session of yours"));
            }
            Ok(())
        })
    }

    fn end_session_of<'a>(&'a self, token: &'a TokenDigest) -> StoreFuture<'a, ()> {
        self.with(move |state, _| {
            state.sessions.retain(|(digest, _)| digest != token);
            Ok(())
        })
    }
}
