//! Match statistics from the game records: per player wins, draws (shared
//! wins), losses, places (for more than two players), average game points
//! with their standard deviation, and irregular ends by kind; for a match
//! of two players an Elo difference with a 95 % confidence interval.

use std::fmt;

use crate::record::{Cause, GameRecord, ThinkTimes};

/// Irregular ends of one player's games, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Irregular {
    /// Soft and hard timeouts.
    pub timeouts: u32,
    /// Rule violations.
    pub violations: u32,
    /// Left the game, crashed, or never connected.
    pub crashes: u32,
    /// Hung while not timed (the match's game time limit ended the game).
    pub hangs: u32,
}

impl Irregular {
    /// All irregular ends.
    pub fn total(&self) -> u32 {
        self.timeouts + self.violations + self.crashes + self.hangs
    }

    fn count(&mut self, cause: Cause) {
        match cause {
            Cause::Regular | Cause::Unknown => {}
            Cause::SoftTimeout | Cause::HardTimeout => self.timeouts += 1,
            Cause::RuleViolation => self.violations += 1,
            Cause::Left | Cause::Crashed | Cause::NoConnection => self.crashes += 1,
            Cause::Hung => self.hangs += 1,
        }
    }
}

/// One player's record over a match.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerStats {
    /// The display name.
    pub name: String,
    /// Games won alone.
    pub wins: u32,
    /// Games drawn: the win shared with others (or nobody won).
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Mean game points per game.
    pub points_mean: f64,
    /// Sample standard deviation of the game points (0 for one game).
    pub points_sd: f64,
    /// How often the player finished in each place: `places[0]` first
    /// places, `places[1]` second, … (one entry per seat of the games).
    /// Players are placed by win points, then game points; players equal
    /// in both share a place (see [`place`]).
    pub places: Vec<u32>,
    /// The mean place (1 is first; 0 without games).
    pub place_mean: f64,
    /// The player's own irregular ends (not the opponent's).
    pub irregular: Irregular,
    /// The player's think times over the games whose replay recorded them.
    pub think: ThinkTimes,
}

impl PlayerStats {
    /// The statistics of `name` over `games`: each a record and the
    /// player's position in its lists.
    pub fn over<'a>(
        name: &str,
        games: impl Iterator<Item = (&'a GameRecord, usize)> + Clone,
    ) -> PlayerStats {
        let mut stats = PlayerStats {
            name: name.to_owned(),
            wins: 0,
            draws: 0,
            losses: 0,
            points_mean: 0.0,
            points_sd: 0.0,
            places: Vec::new(),
            place_mean: 0.0,
            irregular: Irregular::default(),
            think: ThinkTimes::default(),
        };
        let (mut place_sum, mut games_played) = (0, 0);
        for (record, player) in games.clone() {
            let place = place(record, player);
            if stats.places.len() < record.win_points.len().max(place) {
                stats.places.resize(record.win_points.len().max(place), 0);
            }
            stats.places[place - 1] += 1;
            place_sum += place;
            games_played += 1;
            match outcome(record, player) {
                Outcome::Win => stats.wins += 1,
                Outcome::Draw => stats.draws += 1,
                Outcome::Loss => stats.losses += 1,
            }
            stats
                .irregular
                .count(record.causes.get(player).copied().unwrap_or(Cause::Unknown));
            if let Some(think) = record.think_times.get(player) {
                stats.think.merge(think);
            }
        }
        let points: Vec<f64> = games
            .map(|(r, player)| f64::from(r.points.get(player).copied().unwrap_or(0)))
            .collect();
        (stats.points_mean, stats.points_sd) = mean_and_sd(&points);
        if games_played > 0 {
            stats.place_mean = place_sum as f64 / f64::from(games_played);
        }
        stats
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

/// The players of `records` whose every game there ended before they
/// joined it (their program crashed, could not start, or did not connect),
/// in the order they first appear: such a run measured nothing about them.
pub fn never_joined(records: &[GameRecord]) -> Vec<String> {
    let mut names: Vec<&str> = Vec::new();
    for record in records {
        for name in &record.players {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
    }
    names
        .into_iter()
        .filter(|name| {
            records.iter().all(|record| {
                record
                    .players
                    .iter()
                    .zip(&record.causes)
                    .filter(|(player, _)| player == name)
                    .all(|(_, cause)| matches!(cause, Cause::Crashed | Cause::NoConnection))
            })
        })
        .map(str::to_owned)
        .collect()
}

/// An Elo difference with its 95 % confidence interval, all finite (see
/// `elo_interval`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloDifference {
    /// Point estimate: player 1's rating minus player 2's.
    pub estimate: f64,
    /// Lower bound of the 95 % interval.
    pub low: f64,
    /// Upper bound of the 95 % interval.
    pub high: f64,
}

/// The statistics of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Games recorded.
    pub games: u32,
    /// Games in which somebody's end was irregular.
    pub irregular_games: u32,
    /// Player 1, player 2, ….
    pub players: Vec<PlayerStats>,
    /// Player 1's score fraction: (wins + draws / 2) / games.
    pub score: f64,
    /// Player 1's Elo advantage over player 2; `None` without games and in
    /// matches of more than two players.
    pub elo: Option<EloDifference>,
}

/// z for a two-sided 95 % interval of the normal distribution.
pub(crate) const Z_95: f64 = 1.959_963_984_540_054;

/// The Elo difference that makes `score` the expected score:
/// `E = 1 / (1 + 10^(-D/400))` solved for `D`, i.e.
/// `D = -400 · log10(1/score - 1)`; ±∞ at scores 1 and 0.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

impl Summary {
    /// Computes the statistics of `records`; `names` are the players'
    /// display names (used when there are no records yet).
    pub fn from_records(names: &[String], records: &[GameRecord]) -> Summary {
        let players: Vec<PlayerStats> = names
            .iter()
            .enumerate()
            .map(|(player, name)| PlayerStats::over(name, records.iter().map(|r| (r, player))))
            .collect();
        let games = records.len() as u32;
        // Player 1's score in each game: 1, ½ or 0.
        let scores: Vec<f64> = records
            .iter()
            .map(|r| match outcome(r, 0) {
                Outcome::Win => 1.0,
                Outcome::Draw => 0.5,
                Outcome::Loss => 0.0,
            })
            .collect();
        let score = if games == 0 {
            0.5
        } else {
            scores.iter().sum::<f64>() / f64::from(games)
        };
        Summary {
            games,
            irregular_games: records.iter().filter(|r| !r.is_regular()).count() as u32,
            players,
            score,
            elo: (games > 0 && names.len() == 2).then(|| elo_interval(&scores)),
        }
    }
}

/// How a game ended for one player.
pub(crate) enum Outcome {
    /// Won alone.
    Win,
    /// Shared the win with others (or nobody won).
    Draw,
    /// Lost.
    Loss,
}

/// A player with the most win points won, alone, or drew with the others
/// that have as many (a shared win, or nobody won); everybody else lost.
pub(crate) fn outcome(record: &GameRecord, player: usize) -> Outcome {
    let own = record.win_points.get(player).copied().unwrap_or(0);
    let best = record.win_points.iter().copied().max().unwrap_or(0);
    let sharing = record.win_points.iter().filter(|&&w| w == best).count();
    match (own == best, sharing) {
        (false, _) => Outcome::Loss,
        (true, 1) => Outcome::Win,
        (true, _) => Outcome::Draw,
    }
}

/// The place of `player` in a game (1 is first): 1 + the number of players
/// with more win points, or as many win points and more game points. So
/// winners come before everybody else, winners sharing a regular win (on
/// equal points) share the first place, and an offender, who has no win
/// points, comes after everybody who has.
pub fn place(record: &GameRecord, player: usize) -> usize {
    let key = |p: usize| {
        (
            record.win_points.get(p).copied().unwrap_or(0),
            record.points.get(p).copied().unwrap_or(0),
        )
    };
    let own = key(player);
    1 + (0..record.win_points.len())
        .filter(|&other| key(other) > own)
        .count()
}

/// A player that is better than the other at a significance level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Significance {
    /// The better player: 0 for player 1, 1 for player 2.
    pub better: usize,
    /// The probability of the other player winning this few games or fewer
    /// if both were equally strong.
    pub p_value: f64,
}

/// Whether one player is significantly better, as the official TestClient
/// decides it: if the players were equally strong, each game would be won
/// by either with probability ½, so a player's wins would follow
/// Binomial(games, ½) (draws count as games not won). If the probability
/// of a player winning at most as many games as it did is at most `level`,
/// the other player is better. The test is one-sided for each player.
pub fn significantly_better(summary: &Summary, level: f64) -> Option<Significance> {
    if summary.players.len() != 2 {
        return None;
    }
    (0..2).find_map(|player| {
        let p_value = binomial_half_cdf(summary.games, summary.players[player].wins);
        (p_value <= level).then_some(Significance {
            better: 1 - player,
            p_value,
        })
    })
}

/// P(X ≤ k) for X ~ Binomial(n, ½), summed in log space so that no term
/// underflows before it is added.
fn binomial_half_cdf(n: u32, k: u32) -> f64 {
    let n_f = f64::from(n);
    let mut log_term = -n_f * std::f64::consts::LN_2; // log C(n, 0) / 2^n
    let mut total = log_term.exp();
    for i in 1..=k.min(n) {
        log_term += (n_f - f64::from(i) + 1.0).ln() - f64::from(i).ln();
        total += log_term.exp();
    }
    total.min(1.0)
}

/// The Elo difference of the per-game scores `scores` (each 1, ½ or 0) and
/// its 95 % interval, with a prior of one drawn game.
///
/// The prior keeps the figures finite: a match of only wins (or only
/// losses) says the difference is large, not that it is infinite. The
/// score with the prior is `s = (Σ scores + ½) / (n + 1)`; the interval is
/// Wilson's score interval for `s` over `n + 1` games, which stays inside
/// (0, 1) (it treats a draw like a coin toss, so with draws it is a little
/// wider than needed). Both ends are mapped through [`elo_from_score`],
/// which is monotonic, so the bounds stay bounds.
fn elo_interval(scores: &[f64]) -> EloDifference {
    let n = scores.len() as f64 + 1.0;
    let score = (scores.iter().sum::<f64>() + 0.5) / n;
    let z2 = Z_95 * Z_95;
    let centre = (score + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z_95 / (1.0 + z2 / n) * (score * (1.0 - score) / n + z2 / (4.0 * n * n)).sqrt();
    EloDifference {
        estimate: elo_from_score(score),
        low: elo_from_score(centre - half),
        high: elo_from_score(centre + half),
    }
}

/// Mean and sample standard deviation (0 for fewer than two values).
fn mean_and_sd(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, 0.0);
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, variance.sqrt())
}

/// `1st`, `2nd`, `3rd`, `4th`, … (up to the eight seats a game can have).
fn ordinal(n: usize) -> String {
    let suffix = match n {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// `1 game`, `2 games`.
pub(crate) fn games_text(games: u32) -> String {
    match games {
        1 => "1 game".to_owned(),
        n => format!("{n} games"),
    }
}

pub(crate) fn signed(value: f64) -> String {
    let rounded = value.round();
    if rounded == 0.0 {
        // Neither `+0` nor `-0`.
        "0".to_owned()
    } else {
        format!("{rounded:+.0}")
    }
}

/// The heading of the think-time column in the tables printed.
pub(crate) const THINK_HEADER: &str = "think ms (mean/max)";
/// Its width.
pub(crate) const THINK_WIDTH: usize = 19;

/// `12.3 / 250.0`: the mean and longest think time in milliseconds, or `–`
/// when no replay recorded the player's think times.
pub(crate) fn think_text(think: &ThinkTimes) -> String {
    match (think.mean_ms(), think.max_ms()) {
        (Some(mean), Some(max)) => format!("{mean:.1} / {max:.1}"),
        _ => "–".to_owned(),
    }
}

impl fmt::Display for Summary {
    /// The summary table printed at the end of a match.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self
            .players
            .iter()
            .map(|p| p.name.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        writeln!(
            f,
            "{}, {} irregular",
            games_text(self.games),
            self.irregular_games
        )?;
        // With more than two players a draw is a shared win, and places
        // say more than wins and losses.
        let many = self.players.len() > 2;
        let places_header = many.then(|| {
            let ordinals: Vec<String> = (1..=self.players.len()).map(ordinal).collect();
            format!("places {}", ordinals.join("/"))
        });
        let places_width = places_header.as_ref().map_or(0, |h| h.chars().count());
        let places = |p: &PlayerStats| {
            let counts: Vec<String> = p.places.iter().map(u32::to_string).collect();
            format!(
                "  {:>places_width$}  {:>5.2}",
                counts.join("/"),
                p.place_mean
            )
        };
        writeln!(
            f,
            "{:<width$}  {:>4} {:>6} {:>6}{}  {:>15}  {:>8} {:>10} {:>7} {:>5}  {:>THINK_WIDTH$}",
            "player",
            "wins",
            if many { "shared" } else { "draws" },
            "losses",
            places_header
                .as_ref()
                .map_or_else(String::new, |h| format!("  {h}  place")),
            "points (mean±sd)",
            "timeouts",
            "violations",
            "crashes",
            "hangs",
            THINK_HEADER,
        )?;
        for p in &self.players {
            writeln!(
                f,
                "{:<width$}  {:>4} {:>6} {:>6}{}  {:>15}  {:>8} {:>10} {:>7} {:>5}  {:>THINK_WIDTH$}",
                p.name,
                p.wins,
                p.draws,
                p.losses,
                if many { places(p) } else { String::new() },
                format!("{:.1} ± {:.1}", p.points_mean, p.points_sd),
                p.irregular.timeouts,
                p.irregular.violations,
                p.irregular.crashes,
                p.irregular.hangs,
                think_text(&p.think),
            )?;
        }
        if let Some(elo) = self.elo {
            write!(
                f,
                "Elo difference {} − {}: {} (95 % interval {} … {}), score {:.1} %",
                self.players[0].name,
                self.players[1].name,
                signed(elo.estimate),
                signed(elo.low),
                signed(elo.high),
                100.0 * self.score
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Cause;

    fn record(game: u32, win_points: [u32; 2], points: [u32; 2], causes: [Cause; 2]) -> GameRecord {
        GameRecord {
            game,
            game_type: String::new(),
            players: names().to_vec(),
            commands: Vec::new(),
            starter: 1,
            win_points: win_points.to_vec(),
            points: points.to_vec(),
            causes: causes.to_vec(),
            reasons: vec![String::new(); 2],
            duration_ms: 1,
            room: String::new(),
            replay: None,
            think_times: Vec::new(),
        }
    }

    fn names() -> [String; 2] {
        ["a".to_owned(), "b".to_owned()]
    }

    #[test]
    fn a_player_whose_every_game_ended_before_joining_is_named() {
        let (r, c, n, l) = (
            Cause::Regular,
            Cause::Crashed,
            Cause::NoConnection,
            Cause::Left,
        );
        let crashed = [
            record(1, [0, 2], [0, 0], [c, r]),
            record(2, [0, 2], [0, 0], [n, r]),
        ];
        assert_eq!(never_joined(&crashed), ["a"]);
        let once_joined = [
            record(1, [0, 2], [0, 0], [c, r]),
            record(2, [0, 2], [0, 0], [l, r]),
        ];
        assert!(never_joined(&once_joined).is_empty());
        assert!(never_joined(&[]).is_empty());
    }

    #[test]
    fn three_players_win_share_and_lose_and_have_no_elo() {
        let names = ["a".to_owned(), "b".to_owned(), "c".to_owned()];
        let r = Cause::Regular;
        let game = |game, win_points: [u32; 3]| GameRecord {
            game_type: String::new(),
            commands: Vec::new(),
            game,
            players: names.to_vec(),
            starter: 1,
            win_points: win_points.to_vec(),
            points: vec![5, 4, 3],
            causes: vec![r; 3],
            reasons: vec![String::new(); 3],
            duration_ms: 1,
            room: String::new(),
            replay: None,
            think_times: Vec::new(),
        };
        let records = [game(1, [2, 0, 0]), game(2, [1, 0, 1]), game(3, [0, 0, 0])];
        let summary = Summary::from_records(&names, &records);
        let counts: Vec<[u32; 3]> = summary
            .players
            .iter()
            .map(|p| [p.wins, p.draws, p.losses])
            .collect();
        assert_eq!(counts, [[1, 2, 0], [0, 1, 2], [0, 2, 1]]);
        // Places by win points, then points (5, 4, 3 in every game).
        let places: Vec<(Vec<u32>, f64)> = summary
            .players
            .iter()
            .map(|p| (p.places.clone(), p.place_mean))
            .collect();
        assert_eq!(
            places,
            [
                (vec![3, 0, 0], 1.0),
                (vec![0, 2, 1], 7.0 / 3.0),
                (vec![0, 1, 2], 8.0 / 3.0)
            ]
        );
        let table = summary.to_string();
        let lines: Vec<&str> = table.lines().collect();
        assert!(
            lines[1].contains(" shared losses  places 1st/2nd/3rd  place "),
            "{table}"
        );
        assert!(
            lines[3].starts_with("b          0      1      2"),
            "{table}"
        );
        assert!(lines[3].contains(" 0/2/1   2.33 "), "{table}");
        assert_eq!(summary.elo, None);
        assert!(significantly_better(&summary, 0.5).is_none());
    }

    #[test]
    fn elo_of_a_score_follows_the_logistic_curve() {
        assert_eq!(elo_from_score(0.5), 0.0);
        // 10^(D/400) = s / (1 - s): 3:1 is 400·log10(3) ≈ 190.8.
        assert!((elo_from_score(0.75) - 190.848).abs() < 1e-3);
        assert!((elo_from_score(0.25) + 190.848).abs() < 1e-3);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn counts_and_points_per_player() {
        let r = Cause::Regular;
        let records = [
            record(1, [2, 0], [90, 60], [r, r]),
            record(2, [1, 1], [70, 70], [r, r]),
            record(3, [0, 2], [50, 80], [Cause::SoftTimeout, r]),
            record(4, [2, 0], [30, 0], [r, Cause::Crashed]),
        ];
        let summary = Summary::from_records(&names(), &records);
        let [a, b] = &summary.players[..] else {
            panic!("two players");
        };
        assert_eq!((a.wins, a.draws, a.losses), (2, 1, 1));
        assert_eq!((b.wins, b.draws, b.losses), (1, 1, 2));
        assert_eq!(a.points_mean, 60.0);
        // Deviations 30, 10, -10, -30: sample variance 2000/3.
        assert!((a.points_sd - (2000.0f64 / 3.0).sqrt()).abs() < 1e-9);
        assert_eq!(
            a.irregular,
            Irregular {
                timeouts: 1,
                ..Irregular::default()
            }
        );
        assert_eq!(
            b.irregular,
            Irregular {
                crashes: 1,
                ..Irregular::default()
            }
        );
        assert_eq!(summary.irregular_games, 2);
        assert_eq!(summary.score, 0.625);
        let elo = summary.elo.expect("games were played");
        // One drawn game of prior: (2.5 + 0.5) / 5.
        assert!((elo.estimate - elo_from_score(0.6)).abs() < 1e-9);
        assert!(elo.low < elo.estimate && elo.estimate < elo.high);
        assert!(elo.low.is_finite() && elo.high.is_finite());
        // Forty such games narrow it around the estimate.
        let many: Vec<GameRecord> = (0..10).flat_map(|_| records.clone()).collect();
        let narrow = Summary::from_records(&names(), &many).elo.expect("games");
        assert!(narrow.high - narrow.low < elo.high - elo.low);
        assert!(narrow.low > -100.0 && narrow.high < 400.0, "{narrow:?}");
    }

    #[test]
    fn all_wins_or_all_losses_give_finite_figures() {
        let r = Cause::Regular;
        for (win_points, sign) in [([2, 0], 1.0), ([0, 2], -1.0)] {
            let records: Vec<GameRecord> = (1..=10)
                .map(|game| record(game, win_points, [50, 40], [r, r]))
                .collect();
            let elo = Summary::from_records(&names(), &records)
                .elo
                .expect("games were played");
            assert!(elo.estimate.is_finite() && elo.low.is_finite() && elo.high.is_finite());
            assert!(sign * elo.estimate > 300.0, "{elo:?}");
            assert!(elo.low < elo.estimate && elo.estimate < elo.high, "{elo:?}");
        }
        assert_eq!(signed(-0.2), "0");
        assert_eq!(signed(0.3), "0");
        assert_eq!(signed(-12.6), "-13");
    }

    #[test]
    fn binomial_tails_are_exact_for_small_games() {
        assert_eq!(binomial_half_cdf(0, 0), 1.0);
        assert!((binomial_half_cdf(4, 0) - 1.0 / 16.0).abs() < 1e-12);
        assert!((binomial_half_cdf(4, 1) - 5.0 / 16.0).abs() < 1e-12);
        assert!((binomial_half_cdf(4, 4) - 1.0).abs() < 1e-12);
        // 2^-2000 underflows as a single term, but its sum with the
        // others does not need it.
        assert!(binomial_half_cdf(2000, 1000) > 0.5);
    }

    #[test]
    fn one_player_winning_most_games_is_significantly_better() {
        let r = Cause::Regular;
        let won = |g| record(g, [2, 0], [1, 0], [r, r]);
        let lost = |g| record(g, [0, 2], [0, 1], [r, r]);
        // 9 of 10 won: P(the loser wins ≤ 1 of 10) = 11/1024 ≈ 0.011.
        let mut games: Vec<_> = (1..=9).map(won).collect();
        games.push(lost(10));
        let summary = Summary::from_records(&names(), &games);
        let found = significantly_better(&summary, 0.05).expect("significant");
        assert_eq!(found.better, 0);
        assert!((found.p_value - 11.0 / 1024.0).abs() < 1e-12);
        assert_eq!(significantly_better(&summary, 0.01), None);
        // 6 of 10: not significant at 5 %.
        let even: Vec<_> = (1..=6).map(won).chain((7..=10).map(lost)).collect();
        let summary = Summary::from_records(&names(), &even);
        assert_eq!(significantly_better(&summary, 0.05), None);
    }

    #[test]
    fn a_clean_sweep_has_a_finite_estimate_and_no_games_none() {
        let r = Cause::Regular;
        let records = [
            record(1, [2, 0], [1, 0], [r, r]),
            record(2, [2, 0], [1, 0], [r, r]),
        ];
        let elo = Summary::from_records(&names(), &records)
            .elo
            .expect("games");
        // Two wins and the prior's draw: 2.5 of 3.
        assert!((elo.estimate - elo_from_score(2.5 / 3.0)).abs() < 1e-9);
        let empty = Summary::from_records(&names(), &[]);
        assert_eq!(empty.elo, None);
        assert_eq!(empty.games, 0);
        assert!(format!("{empty}").contains("0 games"));
        let shown = format!("{}", Summary::from_records(&names(), &records));
        assert!(!shown.contains('∞'), "{shown}");
        assert!(
            shown.contains("Elo difference a − b: +280 (95 % interval "),
            "{shown}"
        );
    }
}
