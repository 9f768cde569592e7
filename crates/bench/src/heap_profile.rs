//! `spielleiter-bench --heap-profile FILE` (cargo feature `heap-profile`): the server's
//! live heap by allocation site while its games run.
//!
//! dhat's allocator records every allocation of this process from the start
//! of the run (the players run in their own process and are not recorded).
//! The profile ends when the run's figures are taken, while the games are
//! still running, so what is live "at the end" is what running games hold.
//! FILE is dhat's JSON (DHAT's viewer `dh_view.html` reads it); a summary by
//! the first source line of this project on each allocation's stack is
//! printed. Recording every allocation with its stack is slow: use it with
//! games that think (`--think-ms`), for memory, never for speed figures.

use std::{
    collections::HashMap,
    fmt::Write as _,
    path::{Path, PathBuf},
};

use anyhow::Context;
use serde_json::Value;

/// Frames kept per allocation: enough to reach this project's code from
/// inside the allocator, the collections and the runtime.
const FRAMES: usize = 40;

/// Sites printed, the largest first.
const SITES_SHOWN: usize = 30;

/// A heap profile being taken.
#[derive(Debug)]
pub struct HeapProfile {
    profiler: dhat::Profiler,
    path: PathBuf,
}

impl HeapProfile {
    /// Starts recording allocations; the profile goes to `path`.
    pub fn start(path: &Path) -> HeapProfile {
        let profiler = dhat::Profiler::builder()
            .file_name(path)
            .trim_backtraces(Some(FRAMES))
            .build();
        HeapProfile {
            profiler,
            path: path.to_owned(),
        }
    }

    /// Ends the profile, writes its file and returns a summary of the live
    /// heap, per game of `games` running ones.
    pub fn finish(self, games: usize) -> anyhow::Result<String> {
        let live = dhat::HeapStats::get();
        drop(self.profiler);
        let text = std::fs::read_to_string(&self.path)
            .with_context(|| format!("cannot read the heap profile {}", self.path.display()))?;
        let profile: Value = serde_json::from_str(&text).context("the heap profile is no JSON")?;
        let mut summary = format!(
            "live heap:                {} in {} blocks, {} per game ({games} games); profile in {}\n",
            kibibytes(live.curr_bytes as f64),
            live.curr_blocks,
            kibibytes(live.curr_bytes as f64 / games.max(1) as f64),
            self.path.display()
        );
        let sites = live_by_site(&profile).context("the heap profile has an unknown layout")?;
        let _ = writeln!(
            summary,
            "{:>10}  {:>7}  {:>9}  site (this project's innermost line and the function it called)",
            "live", "blocks", "per game"
        );
        for (site, (bytes, blocks)) in sites.into_iter().take(SITES_SHOWN) {
            let _ = writeln!(
                summary,
                "{:>10}  {blocks:>7}  {:>9}  {site}",
                kibibytes(bytes as f64),
                kibibytes(bytes as f64 / games.max(1) as f64),
            );
        }
        Ok(summary)
    }
}

/// Where this project's code is, as dhat names files (their last three
/// path components): `crates/<crate>/src/…`.
const PROJECT_FILES: [&str; 9] = [
    "server/src/",
    "protocol/src/",
    "web/src/",
    "cli/src/",
    "rules/src/",
    "client/src/",
    "arena/src/",
    "bots/src/",
    "render/src/",
];

/// Bytes and blocks live at the end of the profile, summed per site (see
/// [`site`]), the largest first.
fn live_by_site(profile: &Value) -> Option<Vec<(String, (u64, u64))>> {
    let frames: Vec<Frame<'_>> = profile["ftbl"]
        .as_array()?
        .iter()
        .map(|frame| Frame::parse(frame.as_str().unwrap_or("?")))
        .collect();
    let mut sites: HashMap<String, (u64, u64)> = HashMap::new();
    for point in profile["pps"].as_array()? {
        let bytes = point["eb"].as_u64().unwrap_or(0);
        if bytes == 0 {
            continue;
        }
        let stack: Vec<&Frame<'_>> = point["fs"]
            .as_array()?
            .iter()
            .filter_map(|index| frames.get(usize::try_from(index.as_u64()?).ok()?))
            .collect();
        let entry = sites.entry(site(&stack)).or_default();
        entry.0 += bytes;
        entry.1 += point["ebk"].as_u64().unwrap_or(0);
    }
    let mut sites: Vec<_> = sites.into_iter().collect();
    sites.sort_unstable_by(|a, b| b.1.0.cmp(&a.1.0).then_with(|| a.0.cmp(&b.0)));
    Some(sites)
}

/// An allocation's site: the innermost line of this project's code on its
/// stack (the allocator's hook, `__rust_alloc`, not counted) and the
/// function it called there, e.g. `server/src/outbound.rs:224
/// unbounded_channel`; without such a line, the innermost function.
fn site(stack: &[&Frame<'_>]) -> String {
    let ours = stack.iter().position(|frame| {
        PROJECT_FILES.iter().any(|dir| frame.file.starts_with(dir))
            && !frame.function.starts_with("__rust_")
    });
    match ours {
        Some(index) => {
            let line = stack[index]
                .file
                .rsplit_once(':')
                .map_or(stack[index].file, |(at, _)| at);
            match index.checked_sub(1).map(|callee| stack[callee].function) {
                Some(callee) => format!("{line} {}", short(callee)),
                None => line.to_owned(),
            }
        }
        None => stack
            .iter()
            .find(|frame| {
                !frame.function.contains("dhat::") && !frame.function.starts_with("__rust_")
            })
            .map_or_else(
                || "?".to_owned(),
                |frame| format!("{} ({})", short(frame.function), frame.file),
            ),
    }
}

/// A function's name without its generic arguments.
fn short(function: &str) -> &str {
    function.split_once('<').map_or(function, |(name, _)| name)
}

/// One frame of dhat's table: `0xADDRESS: function (file:line:column)`.
#[derive(Debug)]
struct Frame<'a> {
    function: &'a str,
    /// `file:line:column`.
    file: &'a str,
}

impl Frame<'_> {
    fn parse(text: &str) -> Frame<'_> {
        let text = text.split_once(": ").map_or(text, |(_, rest)| rest);
        match text.strip_suffix(')').and_then(|t| t.rsplit_once(" (")) {
            Some((function, file)) => Frame { function, file },
            None => Frame {
                function: text,
                file: "",
            },
        }
    }
}

fn kibibytes(bytes: f64) -> String {
    format!("{:.1} KiB", bytes / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_bytes_are_summed_by_the_first_line_of_this_project() {
        let profile = serde_json::json!({
            "ftbl": [
                "[root]",
                "0x1: <dhat::Alloc as core::alloc::global::GlobalAlloc>::alloc (???:0:0)",
                "0x2: __rust_alloc (cli/src/main.rs:40:19)",
                "0x3: unbounded_channel<spielleiter_server::outbound::Outbound> (sync/mpsc/unbounded.rs:96:20)",
                "0x4: channel (server/src/outbound.rs:224:23)",
                "0x5: poll<x> (tokio-1.47.0/src/runtime/task.rs:5:5)",
            ],
            "pps": [
                {"eb": 100, "ebk": 1, "fs": [1, 2, 3, 4, 5]},
                {"eb": 50, "ebk": 2, "fs": [1, 3, 4]},
                {"eb": 70, "ebk": 1, "fs": [1, 2, 5]},
                {"eb": 0, "ebk": 0, "fs": [1, 4]},
            ],
        });
        let sites = live_by_site(&profile).expect("known layout");
        assert_eq!(
            sites,
            [
                (
                    "server/src/outbound.rs:224 unbounded_channel".to_owned(),
                    (150, 3)
                ),
                (
                    "poll (tokio-1.47.0/src/runtime/task.rs:5:5)".to_owned(),
                    (70, 1)
                ),
            ]
        );
    }
}
