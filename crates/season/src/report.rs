//! What a season's stored games say: its standings (the tournament's
//! table, over the games done, in the order of the schedule) and its
//! progress (done, running, waiting, failed; per worker; an estimate of
//! the time left).

use std::{collections::BTreeMap, time::Duration};

use spielleiter_arena::{GameRecord, Standings};

use crate::{
    SeasonDefinition,
    error::SeasonError,
    store::{GameRow, GameState},
};

/// The standings over every game done, added in the order of the schedule
/// so that the same results give the same table to the last bit, however
/// the games were spread over workers.
///
/// # Errors
///
/// The definition names an unknown game.
pub fn standings(
    definition: &SeasonDefinition,
    games: &[GameRow],
) -> Result<Standings, SeasonError> {
    let ranking = definition.game_type()?.league().ranking;
    let records: Vec<GameRecord> = games.iter().filter_map(|g| g.record.clone()).collect();
    Ok(Standings::from_records(
        &definition.names(),
        ranking,
        &records,
    ))
}

/// How far a season is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Games with a result.
    pub done: u32,
    /// Games held by a worker.
    pub running: u32,
    /// Games no worker holds.
    pub waiting: u32,
    /// Games given up.
    pub failed: u32,
    /// By worker: games it holds, results it stored.
    pub workers: BTreeMap<String, (u32, u32)>,
    /// The time left at the pace so far, once a game is done.
    pub eta: Option<Duration>,
    /// The failed games: number and last error.
    pub failures: Vec<(u32, String)>,
}

impl Progress {
    /// The progress the stored games show.
    pub fn of(games: &[GameRow]) -> Progress {
        let mut progress = Progress::default();
        for game in games {
            let worker = game.worker.clone().unwrap_or_default();
            match game.state {
                GameState::Done => {
                    progress.done += 1;
                    progress.workers.entry(worker).or_default().1 += 1;
                }
                GameState::Running => {
                    progress.running += 1;
                    progress.workers.entry(worker).or_default().0 += 1;
                }
                GameState::Waiting => progress.waiting += 1,
                GameState::Failed => {
                    progress.failed += 1;
                    progress
                        .failures
                        .push((game.game.number, game.error.clone().unwrap_or_default()));
                }
            }
        }
        let first = games.iter().filter_map(|g| g.started_ms).min();
        let last = games.iter().filter_map(|g| g.finished_ms).max();
        if let (Some(first), Some(last)) = (first, last)
            && progress.done > 0
            && last > first
        {
            let per_game = (last - first) as f64 / f64::from(progress.done);
            let left = f64::from(progress.running + progress.waiting) * per_game;
            progress.eta = Some(Duration::from_millis(left as u64));
        }
        progress
    }

    /// Whether every game is done or given up.
    pub fn is_over(&self) -> bool {
        self.running == 0 && self.waiting == 0
    }
}

impl std::fmt::Display for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let total = self.done + self.running + self.waiting + self.failed;
        writeln!(
            f,
            "{} of {total} games done, {} running, {} waiting, {} failed",
            self.done, self.running, self.waiting, self.failed
        )?;
        match self.eta {
            Some(eta) if !self.is_over() => {
                writeln!(f, "about {} left at the pace so far", minutes(eta))?;
            }
            _ => {}
        }
        for (worker, (running, done)) in &self.workers {
            let name = if worker.is_empty() { "(none)" } else { worker };
            writeln!(f, "  worker {name}: {running} running, {done} done")?;
        }
        for (number, error) in &self.failures {
            writeln!(f, "  game {number} failed: {error}")?;
        }
        Ok(())
    }
}

fn minutes(duration: Duration) -> String {
    let seconds = duration.as_secs();
    if seconds < 120 {
        format!("{seconds} s")
    } else {
        format!("{} min", seconds.div_ceil(60))
    }
}
