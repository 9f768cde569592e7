//! What a season's stored games say: its standings (the tournament's
//! table, over the games done, in the order of the schedule), a live
//! rating updated game by game in the order the results arrived, and its
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

/// A player's live rating: Weng-Lin (a Bayesian rating in the manner of
/// TrueSkill, from the `skillratings` crate), updated by every result in
/// the order the results were stored, so that a long season has a
/// meaningful table early; the standings' own ranking stays the game's
/// rule.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveRating {
    /// The player.
    pub name: String,
    /// The rating (mu; 25 at the start).
    pub rating: f64,
    /// Its uncertainty (sigma; 25/3 at the start): the rating is within
    /// about two of these of the truth.
    pub uncertainty: f64,
    /// Games it counts.
    pub games: u32,
}

/// The live ratings of the season's players, best (by rating less two
/// uncertainties, a cautious estimate) first. In a game of more than two
/// seats every pair of players counts as one game between the two, won by
/// the one with more win points.
pub fn live_ratings(definition: &SeasonDefinition, games: &[GameRow]) -> Vec<LiveRating> {
    use skillratings::{
        Outcomes,
        weng_lin::{WengLinConfig, WengLinRating, weng_lin},
    };
    let config = WengLinConfig::new();
    let names = definition.names();
    let mut ratings = vec![WengLinRating::new(); names.len()];
    let mut counted = vec![0_u32; names.len()];
    let mut done: Vec<&GameRow> = games.iter().filter(|g| g.record.is_some()).collect();
    done.sort_by_key(|g| (g.finished_ms, g.game.number));
    for record in done.iter().filter_map(|g| g.record.as_ref()) {
        let seats: Vec<Option<usize>> = record
            .players
            .iter()
            .map(|name| names.iter().position(|n| n == name))
            .collect();
        for a in 0..seats.len() {
            for b in a + 1..seats.len() {
                let (Some(i), Some(j)) = (seats[a], seats[b]) else {
                    continue;
                };
                let points = |seat: usize| record.win_points.get(seat).copied().unwrap_or(0);
                let outcome = match points(a).cmp(&points(b)) {
                    std::cmp::Ordering::Greater => Outcomes::WIN,
                    std::cmp::Ordering::Less => Outcomes::LOSS,
                    std::cmp::Ordering::Equal => Outcomes::DRAW,
                };
                let (x, y) = weng_lin(&ratings[i], &ratings[j], &outcome, &config);
                ratings[i] = x;
                ratings[j] = y;
            }
            if let Some(i) = seats[a] {
                counted[i] += 1;
            }
        }
    }
    let mut table: Vec<LiveRating> = names
        .into_iter()
        .zip(ratings)
        .zip(counted)
        .map(|((name, rating), games)| LiveRating {
            name,
            rating: rating.rating,
            uncertainty: rating.uncertainty,
            games,
        })
        .collect();
    let cautious = |r: &LiveRating| r.rating - 2.0 * r.uncertainty;
    table.sort_by(|a, b| cautious(b).total_cmp(&cautious(a)));
    table
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
        if !self.failures.is_empty() {
            writeln!(
                f,
                "  `spielleiter season retry` plays the failed games again"
            )?;
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

#[cfg(test)]
mod tests {
    use spielleiter_arena::{Cause, GameRecord};

    use super::*;
    use crate::{SeasonPlayer, definition::ScheduledGame};

    fn game(number: u32, players: [&str; 2], win_points: [u32; 2]) -> GameRow {
        GameRow {
            game: ScheduledGame {
                number,
                table: 0,
                table_game: number,
            },
            state: GameState::Done,
            attempt: 1,
            failures: 0,
            worker: Some("w".to_owned()),
            record: Some(GameRecord {
                game: number,
                game_type: "blokus_bcl".to_owned(),
                players: players.map(str::to_owned).to_vec(),
                commands: Vec::new(),
                starter: 1,
                win_points: win_points.to_vec(),
                points: vec![0, 0],
                causes: vec![Cause::Regular; 2],
                reasons: vec![String::new(); 2],
                duration_ms: 1,
                room: String::new(),
                replay: None,
                think_times: Vec::new(),
            }),
            error: None,
            started_ms: Some(i64::from(number)),
            finished_ms: Some(i64::from(number)),
        }
    }

    #[test]
    fn the_live_rating_follows_the_results_and_grows_surer() {
        let season = SeasonDefinition {
            game: "blokus_bcl".to_owned(),
            players: ["strong", "weak", "idle"]
                .map(|name| SeasonPlayer {
                    name: name.to_owned(),
                    start: "builtin:random".to_owned(),
                })
                .to_vec(),
            games_per_table: 1,
            seed: 0,
            timed: false,
        };
        let games: Vec<GameRow> = (1..=6)
            .map(|n| {
                if n % 2 == 0 {
                    game(n, ["strong", "weak"], [2, 0])
                } else {
                    game(n, ["weak", "strong"], [0, 2])
                }
            })
            .collect();
        let table = live_ratings(&season, &games);
        let names: Vec<&str> = table.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["strong", "idle", "weak"]);
        assert!(table[0].rating > 25.0 && table[2].rating < 25.0);
        assert!(table[0].uncertainty < 25.0 / 3.0);
        assert_eq!((table[0].games, table[1].games, table[2].games), (6, 0, 6));
        // The idle player has not moved from the start.
        assert!((table[1].rating - 25.0).abs() < 1e-9);
    }
}
