//! [`TerminalProgress`]: a line per finished game on standard output and,
//! when standard error is a terminal, a progress bar with running totals
//! below it.

use std::{
    io::{IsTerminal, Write},
    time::Instant,
};

use crate::{record::GameRecord, runner::MatchObserver, stats::Summary};

const BAR_WIDTH: usize = 24;

/// Prints a match's progress for a person watching.
#[derive(Debug)]
pub struct TerminalProgress {
    total: u32,
    done_before: u32,
    done: u32,
    started: Instant,
    bar: bool,
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
        }
    }

    fn draw_bar(&self, summary: &Summary) {
        let filled = if self.total == 0 {
            BAR_WIDTH
        } else {
            (self.done as usize * BAR_WIDTH / self.total as usize).min(BAR_WIDTH)
        };
        let played_now = self.done - self.done_before;
        let eta = if played_now > 0 && self.done < self.total {
            let per_game = self.started.elapsed().as_secs_f64() / f64::from(played_now);
            format!(
                "  ETA {:.0} s",
                per_game * f64::from(self.total - self.done)
            )
        } else {
            String::new()
        };
        let players: Vec<String> = summary
            .players
            .iter()
            .map(|p| format!("{} {}-{}-{}", p.name, p.wins, p.draws, p.losses))
            .collect();
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[2K[{}{}] {}/{}  {}  irregular {}{eta}",
            "#".repeat(filled),
            ".".repeat(BAR_WIDTH - filled),
            self.done,
            self.total,
            players.join("  "),
            summary.irregular_games,
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

/// One line describing a finished game.
pub fn game_line(record: &GameRecord, total: u32) -> String {
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
        "game {}/{total}: {} ({} started), {outcome}, {:.1} s",
        record.game,
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
            line.push_str(&format!("; {name}: {} {reason}", cause.name()));
        }
    }
    line
}

impl MatchObserver for TerminalProgress {
    fn started(&mut self, done: u32, to_play: u32, summary: &Summary) {
        self.done_before = done;
        self.done = done;
        self.total = done + to_play;
        if done > 0 {
            println!("resuming: {done} games recorded, {to_play} to play");
        }
        if self.bar {
            self.draw_bar(summary);
        }
    }

    fn game_finished(&mut self, record: &GameRecord, summary: &Summary) {
        self.done += 1;
        if self.bar {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
        println!("{}", game_line(record, self.total));
        if self.bar {
            self.draw_bar(summary);
        }
    }
}
