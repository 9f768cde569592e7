//! Who is told how a match or a tournament goes ([`MatchObserver`],
//! [`TournamentObserver`], [`Quiet`] who ignores it), and
//! [`TerminalProgress`]: a line per finished game on standard output and,
//! when standard error is a terminal, a progress bar with running totals
//! below it; otherwise (a log file, CI) a progress line with the expected
//! time left on standard error at most every half minute.
//!
//! The bar is drawn here rather than with `indicatif`: it is redrawn only
//! when a game ends (the moment its numbers change), the per-game lines go
//! to standard output between bar and bar, and without a terminal the same
//! type writes the half-minute lines; `indicatif` would replace the thirty
//! lines of drawing with a dependency of five crates and a ticking thread,
//! and still need the lines and the fallback.

use std::{
    io::{IsTerminal, Write},
    time::{Duration, Instant},
};

use crate::{record::GameRecord, standings::Standings, stats::Summary};

/// Told about the progress of a match.
pub trait MatchObserver {
    /// The match starts: `done` games are in the results file already,
    /// `to_play` will be played now.
    fn started(&mut self, done: u32, to_play: u32, summary: &Summary);

    /// A game ended and was recorded; `summary` covers every recorded game.
    fn game_finished(&mut self, record: &GameRecord, summary: &Summary);
}

/// Told about the progress of a tournament.
pub trait TournamentObserver {
    /// The tournament starts: `done` of its games are in the store already,
    /// `to_play` will be played now.
    fn started(&mut self, done: u32, to_play: u32, standings: &Standings);

    /// A game ended and was stored; `standings` cover every game so far.
    fn game_finished(&mut self, record: &GameRecord, standings: &Standings);
}

/// An observer that ignores everything.
#[derive(Debug, Default)]
pub struct Quiet;

impl MatchObserver for Quiet {
    fn started(&mut self, _: u32, _: u32, _: &Summary) {}
    fn game_finished(&mut self, _: &GameRecord, _: &Summary) {}
}

impl TournamentObserver for Quiet {
    fn started(&mut self, _: u32, _: u32, _: &Standings) {}
    fn game_finished(&mut self, _: &GameRecord, _: &Standings) {}
}

const BAR_WIDTH: usize = 24;

/// How often a progress line is written when there is no bar.
const LINE_INTERVAL: Duration = Duration::from_secs(30);

/// Prints a match's progress for a person watching.
#[derive(Debug)]
pub struct TerminalProgress {
    total: u32,
    done_before: u32,
    done: u32,
    started: Instant,
    bar: bool,
    /// When the last progress line (without a bar) was written.
    last_line: Instant,
}

impl TerminalProgress {
    /// Progress for a match of `total` games; draws a bar if standard error
    /// is a terminal.
    pub fn new(total: u32) -> TerminalProgress {
        TerminalProgress {
            total,
            done_before: 0,
            done: 0,
            started: Instant::now(),
            bar: std::io::stderr().is_terminal(),
            last_line: Instant::now(),
        }
    }

    /// The time the games still to play will take, at the pace of the
    /// games played in this run.
    fn eta(&self) -> Option<Duration> {
        let played_now = self.done - self.done_before;
        (played_now > 0 && self.done < self.total).then(|| {
            self.started
                .elapsed()
                .mul_f64(f64::from(self.total - self.done) / f64::from(played_now))
        })
    }

    fn draw_bar(&self, status: &str) {
        let filled = if self.total == 0 {
            BAR_WIDTH
        } else {
            (self.done as usize * BAR_WIDTH / self.total as usize).min(BAR_WIDTH)
        };
        let eta = self
            .eta()
            .map_or_else(String::new, |eta| format!("  ETA {}", duration_text(eta)));
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[2K[{}{}] {}/{}  {status}{eta}",
            "#".repeat(filled),
            ".".repeat(BAR_WIDTH - filled),
            self.done,
            self.total,
        );
        let _ = err.flush();
    }

    /// Clears the bar (before the final summary is printed).
    pub fn finish(&self) {
        if self.bar {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}

/// `1 h 05 min`, `4 min 10 s`, `12 s`.
fn duration_text(duration: Duration) -> String {
    let secs = duration.as_secs();
    match secs {
        0..60 => format!("{secs} s"),
        60..3600 => format!("{} min {:02} s", secs / 60, secs % 60),
        _ => format!("{} h {:02} min", secs / 3600, secs / 60 % 60),
    }
}

/// One line describing a finished game, the `number`-th of `total`.
pub fn game_line(record: &GameRecord, number: u32, total: u32) -> String {
    let best = record.win_points.iter().copied().max().unwrap_or(0);
    let winners: Vec<&str> = record
        .players
        .iter()
        .zip(&record.win_points)
        .filter(|&(_, &w)| w == best && best > 0)
        .map(|(name, _)| name.as_str())
        .collect();
    let outcome = match winners.as_slice() {
        [winner] => format!("{winner} wins"),
        [] => "draw".to_owned(),
        several if several.len() == record.players.len() => "draw".to_owned(),
        several => format!("{} share the win", several.join(" and ")),
    };
    let score = match (record.players.as_slice(), record.points.as_slice()) {
        ([a, b], [points_a, points_b]) => format!("{a} {points_a} – {points_b} {b}"),
        (players, points) => players
            .iter()
            .zip(points)
            .map(|(name, points)| format!("{name} {points}"))
            .collect::<Vec<_>>()
            .join(" – "),
    };
    let starter = usize::from(record.starter.saturating_sub(1));
    let mut line = format!(
        "game {number}/{total}: {} ({} started), {outcome}, {:.1} s",
        score,
        record.players.get(starter).map_or("?", String::as_str),
        record.duration_ms as f64 / 1000.0,
    );
    for (name, (cause, reason)) in record
        .players
        .iter()
        .zip(record.causes.iter().zip(&record.reasons))
    {
        if *cause != crate::record::Cause::Regular {
            // The results file keeps the server's (official, German) text;
            // the terminal reads English.
            let reason = spielleiter_protocol::english::english(reason);
            line.push_str(&format!("; {name}: {} {reason}", cause.name()));
        }
    }
    line
}

impl TerminalProgress {
    /// The run starts with `done` games recorded and `to_play` to play.
    fn begin(&mut self, done: u32, to_play: u32, status: &str) {
        self.done_before = done;
        self.done = done;
        self.total = done + to_play;
        if done > 0 {
            println!(
                "resuming: {} recorded, {to_play} to play",
                crate::stats::games_text(done)
            );
        }
        if self.bar {
            self.draw_bar(status);
        }
    }

    /// A game was recorded: its line, then the bar or, without one, a
    /// progress line now and then.
    fn recorded(&mut self, record: &GameRecord, number: u32, status: &str) {
        self.done += 1;
        if self.bar {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
        println!("{}", game_line(record, number, self.total));
        if self.bar {
            self.draw_bar(status);
        } else if self.last_line.elapsed() >= LINE_INTERVAL {
            self.last_line = Instant::now();
            let eta = self.eta().map_or_else(String::new, |eta| {
                format!(", about {} left", duration_text(eta))
            });
            eprintln!("progress: {} of {} games{eta}", self.done, self.total);
        }
    }
}

/// A match's running totals: each player's wins, draws and losses.
fn match_status(summary: &Summary) -> String {
    let players: Vec<String> = summary
        .players
        .iter()
        .map(|p| format!("{} {}-{}-{}", p.name, p.wins, p.draws, p.losses))
        .collect();
    format!(
        "{}  irregular {}",
        players.join("  "),
        summary.irregular_games
    )
}

/// A tournament's running state: who leads.
fn league_status(standings: &Standings) -> String {
    match standings.rows.first() {
        Some(leader) if standings.games > 0 => format!(
            "leader {} ({}-{}-{})  irregular {}",
            leader.stats.name,
            leader.stats.wins,
            leader.stats.draws,
            leader.stats.losses,
            standings.irregular_games
        ),
        _ => String::new(),
    }
}

impl MatchObserver for TerminalProgress {
    fn started(&mut self, done: u32, to_play: u32, summary: &Summary) {
        self.begin(done, to_play, &match_status(summary));
    }

    fn game_finished(&mut self, record: &GameRecord, summary: &Summary) {
        self.recorded(record, record.game, &match_status(summary));
    }
}

impl TournamentObserver for TerminalProgress {
    fn started(&mut self, done: u32, to_play: u32, standings: &Standings) {
        self.begin(done, to_play, &league_status(standings));
    }

    fn game_finished(&mut self, record: &GameRecord, standings: &Standings) {
        self.recorded(record, self.done + 1, &league_status(standings));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_left_read_naturally() {
        assert_eq!(duration_text(Duration::from_secs(12)), "12 s");
        assert_eq!(duration_text(Duration::from_secs(250)), "4 min 10 s");
        assert_eq!(duration_text(Duration::from_secs(3900)), "1 h 05 min");
    }
}
