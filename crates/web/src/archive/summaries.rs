//! The replay list's bounded cache of summaries ([`SummaryCache`]), so
//! that a list or a filter does not read every file again.

use std::{collections::HashMap, sync::Mutex, time::SystemTime};

use spielleiter_server::replay::archive::{self as store, ReplayFile, ReplaySummary};

/// The most summaries the list keeps: far more than it shows
/// ([`store::LIST_LIMIT`]), so that a filter does not read files again.
const SUMMARY_CACHE_ENTRIES: usize = 4 * store::LIST_LIMIT;

/// The summaries of the replays read so far, by name, each with the size
/// and time of the file it was read from (a file written again is read
/// again). Bounded to `SUMMARY_CACHE_ENTRIES`.
#[derive(Debug, Default)]
pub struct SummaryCache {
    entries: Mutex<HashMap<String, CachedSummary>>,
}

#[derive(Debug, Clone)]
struct CachedSummary {
    modified: SystemTime,
    bytes: u64,
    summary: Result<ReplaySummary, String>,
}

impl SummaryCache {
    pub(super) fn get(&self, file: &ReplayFile) -> Option<Result<ReplaySummary, String>> {
        let entries = self
            .entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        entries
            .get(&file.name)
            .filter(|c| c.modified == file.modified && c.bytes == file.bytes)
            .map(|c| c.summary.clone())
    }

    /// Keeps `summary` of `file`; when full, forgets the files not in
    /// `listed` (removed, or too old to be listed) first, then any.
    pub(super) fn put(
        &self,
        file: &ReplayFile,
        summary: Result<ReplaySummary, String>,
        listed: &[ReplayFile],
    ) {
        let mut entries = self
            .entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if entries.len() >= SUMMARY_CACHE_ENTRIES && !entries.contains_key(&file.name) {
            entries.retain(|name, _| listed.iter().any(|f| &f.name == name));
            if entries.len() >= SUMMARY_CACHE_ENTRIES {
                entries.clear();
            }
        }
        entries.insert(
            file.name.clone(),
            CachedSummary {
                modified: file.modified,
                bytes: file.bytes,
                summary,
            },
        );
    }
}
