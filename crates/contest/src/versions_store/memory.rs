//! A [`TeamVersions`] store in memory, for the web side's tests only
//! (feature `test-support`): uploads are kept as they come, and a test sets
//! a version's state as a worker would ([`MemoryVersions::set_state`]).

use std::sync::{Mutex, PoisonError};

use super::{BuildLog, NOT_ACTIVATABLE, NOT_TESTABLE, TeamVersions, Upload, VersionEntry};
use crate::{
    MemberId, StoreError, StoreFuture, TeamId, Timestamp, VersionEvent, VersionNumber,
    VersionState,
    versions::{check_comment, check_start_parameters},
};

/// A contest's versions held in memory.
#[derive(Debug, Default)]
pub struct MemoryVersions {
    state: Mutex<Vec<Stored>>,
}

#[derive(Debug)]
struct Stored {
    team: TeamId,
    entry: VersionEntry,
    upload: Option<Upload>,
    log: String,
    activations: Vec<(MemberId, String, Timestamp)>,
    /// How many tests were started.
    tests: u32,
}

impl MemoryVersions {
    /// An empty store.
    pub fn new() -> MemoryVersions {
        MemoryVersions::default()
    }

    fn with<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Vec<Stored>) -> Result<T, StoreError>,
    ) -> StoreFuture<'_, T> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        Box::pin(std::future::ready(work(&mut state)))
    }

    /// Sets `team`'s version `number` to `state` with the build's `log`, as
    /// a worker would; false if there is no such version.
    pub fn set_state(
        &self,
        team: TeamId,
        number: VersionNumber,
        state: VersionState,
        log: &str,
    ) -> bool {
        let mut stored = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match stored
            .iter_mut()
            .find(|s| s.team == team && s.entry.number == number)
        {
            Some(version) => {
                version.entry.state = state;
                log.clone_into(&mut version.log);
                true
            }
            None => false,
        }
    }

    /// How many versions are stored, of every team.
    pub fn count(&self) -> usize {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// The upload of `team`'s version `number`, as stored.
    pub fn upload_of(&self, team: TeamId, number: VersionNumber) -> Option<Upload> {
        let stored = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        stored
            .iter()
            .find(|s| s.team == team && s.entry.number == number)
            .and_then(|s| s.upload.clone())
    }

    /// How many activations are recorded, of every team.
    pub fn activations(&self) -> usize {
        let stored = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        stored.iter().map(|s| s.activations.len()).sum()
    }
}

impl TeamVersions for MemoryVersions {
    fn team_versions(&self, team: TeamId) -> StoreFuture<'_, Vec<VersionEntry>> {
        self.with(move |stored| {
            Ok(stored
                .iter()
                .filter(|s| s.team == team)
                .map(|s| s.entry.clone())
                .collect())
        })
    }

    fn upload<'a>(
        &'a self,
        team: TeamId,
        upload: &'a Upload,
        now: Timestamp,
    ) -> StoreFuture<'a, VersionEntry> {
        let upload = upload.clone();
        self.with(move |stored| {
            if check_start_parameters(&upload.start_parameters).is_err() {
                return Err(StoreError::Refused("the start parameters are refused"));
            }
            if check_comment(&upload.comment).is_err() {
                return Err(StoreError::Refused("the comment is too long"));
            }
            let last = stored
                .iter()
                .filter(|s| s.team == team)
                .map(|s| s.entry.number.0)
                .max()
                .unwrap_or(0);
            let entry = VersionEntry {
                number: VersionNumber(last + 1),
                runtime: Some(upload.runtime),
                start_parameters: upload.start_parameters.clone(),
                state: VersionState::Uploaded,
                active: false,
                comment: upload.comment.clone(),
                created_at: now,
            };
            stored.push(Stored {
                team,
                entry: entry.clone(),
                upload: Some(upload),
                log: String::new(),
                activations: Vec::new(),
                tests: 0,
            });
            Ok(entry)
        })
    }

    fn build_log(&self, team: TeamId, number: VersionNumber) -> StoreFuture<'_, Option<BuildLog>> {
        self.with(move |stored| {
            let version = stored
                .iter()
                .find(|s| s.team == team && s.entry.number == number)
                .ok_or(StoreError::NotFound("version"))?;
            Ok(version.upload.as_ref().map(|_| BuildLog {
                number,
                state: version.entry.state,
                log: version.log.clone(),
                image: None,
            }))
        })
    }

    fn activate<'a>(
        &'a self,
        team: TeamId,
        number: VersionNumber,
        by: MemberId,
        by_name: &'a str,
        now: Timestamp,
    ) -> StoreFuture<'a, ()> {
        let by_name = by_name.to_owned();
        self.with(move |stored| {
            let target = stored
                .iter()
                .position(|s| s.team == team && s.entry.number == number)
                .ok_or(StoreError::NotFound("version"))?;
            let version = &stored[target].entry;
            if version.active || !version.state.may_activate() {
                return Err(StoreError::Refused(NOT_ACTIVATABLE));
            }
            for other in stored.iter_mut().filter(|s| s.team == team) {
                other.entry.active = false;
            }
            stored[target].entry.active = true;
            stored[target].activations.push((by, by_name, now));
            Ok(())
        })
    }

    fn test(&self, team: TeamId, number: VersionNumber) -> StoreFuture<'_, ()> {
        self.with(move |stored| {
            let version = stored
                .iter_mut()
                .find(|s| s.team == team && s.entry.number == number)
                .ok_or(StoreError::NotFound("version"))?;
            if version.entry.active {
                return Err(StoreError::Refused(NOT_TESTABLE));
            }
            version.entry.state = version
                .entry
                .state
                .after(VersionEvent::TestStarted)
                .map_err(|_| StoreError::Refused(NOT_TESTABLE))?;
            version.tests += 1;
            Ok(())
        })
    }

    fn test_season(&self, team: TeamId, number: VersionNumber) -> StoreFuture<'_, Option<String>> {
        self.with(move |stored| {
            let version = stored
                .iter()
                .find(|s| s.team == team && s.entry.number == number)
                .ok_or(StoreError::NotFound("version"))?;
            Ok((version.tests > 0).then(|| format!("test-{team}-{number}-{}", version.tests)))
        })
    }
}
