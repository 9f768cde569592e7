//! The replay list's bounded cache of summaries ([`SummaryCache`]), so
//! that a list or a filter does not read every file again.

use std::{collections::HashMap, sync::Mutex, time::SystemTime};

use spielleiter_archive::{ArchivedGame, ReplaySummary, directory::LIST_LIMIT};

/// The most summaries the list keeps: far more than it shows
/// ([`LIST_LIMIT`]), so that a filter does not read files again.
const SUMMARY_CACHE_ENTRIES: usize = 4 * LIST_LIMIT;

/// The summaries of the replays read so far, by key (a file's name), each
/// with the size and time of the file it was read from (a file written again is read
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
    pub(super) fn get(&self, file: &ArchivedGame) -> Option<Result<ReplaySummary, String>> {
        let entries = self
            .entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        entries
            .get(&file.key)
            .filter(|c| c.modified == file.modified && c.bytes == file.bytes)
            .map(|c| c.summary.clone())
    }

    /// Keeps `summary` of `file`; when full, forgets the files not in
    /// `listed` (removed, or too old to be listed) first, then any.
    pub(super) fn put(
        &self,
        file: &ArchivedGame,
        summary: Result<ReplaySummary, String>,
        listed: &[ArchivedGame],
    ) {
        let mut entries = self
            .entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if entries.len() >= SUMMARY_CACHE_ENTRIES && !entries.contains_key(&file.key) {
            entries.retain(|name, _| listed.iter().any(|f| &f.key == name));
            if entries.len() >= SUMMARY_CACHE_ENTRIES {
                entries.clear();
            }
        }
        entries.insert(
            file.key.clone(),
            CachedSummary {
                modified: file.modified,
                bytes: file.bytes,
                summary,
            },
        );
    }
}
