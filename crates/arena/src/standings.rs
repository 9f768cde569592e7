//! The league table of a tournament: one [`Standing`] per player over
//! every recorded game, ranked by the game's rule ([`Ranking`], from the
//! catalogue), with a Bradley–Terry [`Rating`] per player and the irregular
//! ends; shown as a table, CSV or JSON.
//!
//! The rating is a Bradley–Terry fit over all games at once, not a crate's
//! incremental rating (`skillratings`' Elo, Glicko-2, TrueSkill, Weng-Lin
//! update after each game): a tournament plays games in parallel and
//! records them in the order they end, and its standings must not depend on
//! that order (the same games give the same table), which a fit over the
//! whole set guarantees and an update rule does not; the fit also gives
//! each rating its 95 % interval.

use std::{cmp::Ordering, fmt};

use serde::Serialize;
use spielleiter_rules::Ranking;

use crate::{
    record::GameRecord,
    stats::{PlayerStats, THINK_HEADER, THINK_WIDTH, Z_95, games_text, signed, think_text},
};

/// A player's strength on the Elo scale (400 points: 10 to 1 odds), with a
/// 95 % interval; the players' ratings average 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The estimate.
    pub estimate: f64,
    /// Lower bound of the 95 % interval.
    pub low: f64,
    /// Upper bound of the 95 % interval.
    pub high: f64,
}

/// One player's row of the league table.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// Place in the table, from 1.
    pub rank: u32,
    /// Wins, draws, losses, game points and irregular ends (the name
    /// included).
    pub stats: PlayerStats,
    /// Win points: 2 per win, 1 per draw.
    pub win_points: u32,
    /// Share of the games won, a draw counting half (0 without games).
    pub win_rate: f64,
    /// The player's rating from every game.
    pub rating: Rating,
}

/// The league table: every player, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// How the table is ranked.
    pub ranking: Ranking,
    /// Games counted.
    pub games: u32,
    /// Games in which somebody's end was irregular.
    pub irregular_games: u32,
    /// The rows, best first.
    pub rows: Vec<Standing>,
}

/// What a ranking calls itself in the table's heading.
fn ranking_text(ranking: Ranking) -> &'static str {
    match ranking {
        Ranking::WinPoints => "win points, then mean game points",
        Ranking::WinRate => "win rate (a draw counts half)",
        Ranking::WinsThenPoints => "wins, then mean game points",
    }
}

impl Standings {
    /// The table of `names` (the players in the order they were entered)
    /// over `records`; a record counts for every player named in it. Ties
    /// the ranking leaves are broken by the rating, then by the order of
    /// entry.
    pub fn from_records(names: &[String], ranking: Ranking, records: &[GameRecord]) -> Standings {
        let ratings = bradley_terry(names, records);
        let mut rows: Vec<Standing> = names
            .iter()
            .zip(ratings)
            .map(|(name, rating)| {
                let games = records.iter().filter_map(|record| {
                    let position = record.players.iter().position(|p| p == name)?;
                    Some((record, position))
                });
                let stats = PlayerStats::over(name, games);
                let played = stats.games();
                Standing {
                    rank: 0,
                    win_points: 2 * stats.wins + stats.draws,
                    win_rate: if played == 0 {
                        0.0
                    } else {
                        (f64::from(stats.wins) + f64::from(stats.draws) / 2.0) / f64::from(played)
                    },
                    stats,
                    rating,
                }
            })
            .collect();
        // Ratings as shown (whole points): equal records rate equal up to
        // the fit's rounding noise, and then keep the order of entry.
        rows.sort_by(|a, b| {
            rule_order(ranking, b, a).then(
                b.rating
                    .estimate
                    .round()
                    .total_cmp(&a.rating.estimate.round()),
            )
        });
        // Equal records by the game's rule share a rank (1, 1, 3): the
        // rating orders them in the table but does not rank one above the
        // other.
        for place in 0..rows.len() {
            rows[place].rank = match place.checked_sub(1) {
                Some(above) if rule_order(ranking, &rows[above], &rows[place]).is_eq() => {
                    rows[above].rank
                }
                _ => place as u32 + 1,
            };
        }
        Standings {
            ranking,
            games: records.len() as u32,
            irregular_games: records.iter().filter(|r| !r.is_regular()).count() as u32,
            rows,
        }
    }

    /// The table as CSV: a header line, then one line per player, best
    /// first (the name first, then the rank).
    pub fn to_csv(&self) -> String {
        let mut csv = String::from(
            "player,rank,games,wins,draws,losses,win_points,win_rate,points_mean,points_sd,\
             rating,rating_low,rating_high,timeouts,violations,crashes,hangs,\
             think_mean_ms,think_max_ms\n",
        );
        for row in &self.rows {
            let p = &row.stats;
            csv.push_str(&format!(
                "{},{},{},{},{},{},{},{:.4},{:.2},{:.2},{:.1},{:.1},{:.1},{},{},{},{},{},{}\n",
                csv_field(&p.name),
                row.rank,
                p.games(),
                p.wins,
                p.draws,
                p.losses,
                row.win_points,
                row.win_rate,
                p.points_mean,
                p.points_sd,
                row.rating.estimate,
                row.rating.low,
                row.rating.high,
                p.irregular.timeouts,
                p.irregular.violations,
                p.irregular.crashes,
                p.irregular.hangs,
                // Empty where no replay recorded the player's think times.
                p.think
                    .mean_ms()
                    .map_or_else(String::new, |ms| format!("{ms:.3}")),
                p.think
                    .max_ms()
                    .map_or_else(String::new, |ms| format!("{ms:.3}")),
            ));
        }
        csv
    }

    /// The table as a JSON object: the ranking, the game counts and the
    /// rows, best first, each starting with the player's name.
    pub fn to_json(&self) -> serde_json::Value {
        let rows: Vec<JsonRow<'_>> = self
            .rows
            .iter()
            .map(|row| {
                let p = &row.stats;
                JsonRow {
                    player: &p.name,
                    rank: row.rank,
                    games: p.games(),
                    wins: p.wins,
                    draws: p.draws,
                    losses: p.losses,
                    win_points: row.win_points,
                    win_rate: row.win_rate,
                    points_mean: p.points_mean,
                    points_sd: p.points_sd,
                    rating: JsonRating {
                        estimate: row.rating.estimate,
                        low: row.rating.low,
                        high: row.rating.high,
                    },
                    irregular: JsonIrregular {
                        timeouts: p.irregular.timeouts,
                        violations: p.irregular.violations,
                        crashes: p.irregular.crashes,
                        hangs: p.irregular.hangs,
                    },
                    think_mean_ms: p.think.mean_ms(),
                    think_max_ms: p.think.max_ms(),
                }
            })
            .collect();
        serde_json::json!({
            "ranking": ranking_name(self.ranking),
            "games": self.games,
            "irregular_games": self.irregular_games,
            "standings": rows,
        })
    }
}

/// A row of the JSON table, fields in the order shown.
#[derive(Serialize)]
struct JsonRow<'a> {
    player: &'a str,
    rank: u32,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    win_points: u32,
    win_rate: f64,
    points_mean: f64,
    points_sd: f64,
    rating: JsonRating,
    irregular: JsonIrregular,
    /// `null` where no replay recorded the player's think times.
    think_mean_ms: Option<f64>,
    think_max_ms: Option<f64>,
}

#[derive(Serialize)]
struct JsonRating {
    estimate: f64,
    low: f64,
    high: f64,
}

#[derive(Serialize)]
struct JsonIrregular {
    timeouts: u32,
    violations: u32,
    crashes: u32,
    hangs: u32,
}

/// The ranking's name in the JSON table.
fn ranking_name(ranking: Ranking) -> &'static str {
    match ranking {
        Ranking::WinPoints => "win_points",
        Ranking::WinRate => "win_rate",
        Ranking::WinsThenPoints => "wins_then_points",
    }
}

/// `a` against `b` by the ranking's criteria alone.
fn rule_order(ranking: Ranking, a: &Standing, b: &Standing) -> Ordering {
    let points = || a.stats.points_mean.total_cmp(&b.stats.points_mean);
    match ranking {
        Ranking::WinPoints => a.win_points.cmp(&b.win_points).then_with(points),
        Ranking::WinRate => a.win_rate.total_cmp(&b.win_rate),
        Ranking::WinsThenPoints => a.stats.wins.cmp(&b.stats.wins).then_with(points),
    }
}

/// A CSV field, quoted when it holds a comma, quote or line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

impl fmt::Display for Standings {
    /// The league table printed at the end of a tournament: one row per
    /// player, best first, each starting with the player's name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self
            .rows
            .iter()
            .map(|r| r.stats.name.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        writeln!(
            f,
            "{}, {} irregular; ranked by {}",
            games_text(self.games),
            self.irregular_games,
            ranking_text(self.ranking)
        )?;
        writeln!(
            f,
            "{:<width$}  {:>4} {:>5} {:>4} {:>5} {:>6} {:>8} {:>8} {:>7}  {:>RATING_WIDTH$}  {:>8} {:>10} {:>7} {:>5}  {:>THINK_WIDTH$}",
            "player",
            "rank",
            "games",
            "wins",
            "draws",
            "losses",
            "win pts",
            "win rate",
            "points",
            "rating (95 %)",
            "timeouts",
            "violations",
            "crashes",
            "hangs",
            THINK_HEADER,
        )?;
        for row in &self.rows {
            let p = &row.stats;
            writeln!(
                f,
                "{:<width$}  {:>4} {:>5} {:>4} {:>5} {:>6} {:>8} {:>7.1}% {:>7.1}  {:>RATING_WIDTH$}  {:>8} {:>10} {:>7} {:>5}  {:>THINK_WIDTH$}",
                p.name,
                row.rank,
                p.games(),
                p.wins,
                p.draws,
                p.losses,
                row.win_points,
                100.0 * row.win_rate,
                p.points_mean,
                // Each number in a column of its own width, so that signs
                // and digits line up from row to row.
                format!(
                    "{:>5} ({:>5} … {:>5})",
                    signed(row.rating.estimate),
                    signed(row.rating.low),
                    signed(row.rating.high)
                ),
                p.irregular.timeouts,
                p.irregular.violations,
                p.irregular.crashes,
                p.irregular.hangs,
                think_text(&p.think),
            )?;
        }
        Ok(())
    }
}

/// The width of the rating column: `+1234 (-1234 … +1234)`.
const RATING_WIDTH: usize = 21;

/// ln(10) / 400: the Elo scale's logistic slope.
const ELO_SLOPE: f64 = std::f64::consts::LN_10 / 400.0;

/// The Bradley–Terry ratings (on the Elo scale) of `names` from `records`,
/// with 95 % intervals, centred on 0.
///
/// Every game is read as a set of pairwise results: of two players in it,
/// the one with more win points beat the other (in a game of more than two
/// players, of equal win points the one with more game points: the better
/// place), equal are a draw (half a win each). In a game of n players each pair counts
/// 1 / (n − 1), so every game weighs as much for each player as a game of
/// two. The model: player i beats j with probability
/// 1 / (1 + 10^((r_j − r_i) / 400)). As prior, every player has drawn one
/// game against a virtual player rated 0; this keeps the estimates finite
/// for players who won or lost everything (as the match's Elo prior does).
/// The ratings maximise the likelihood (Newton's method; the
/// log-likelihood is concave); their covariance is the inverse of the
/// observed information, and the interval is the estimate ± 1.96 standard
/// errors after centring the ratings on their mean.
pub(crate) fn bradley_terry(names: &[String], records: &[GameRecord]) -> Vec<Rating> {
    let n = names.len();
    // (i, j, score of i, weight) for every pair of players in a game.
    let mut pairs: Vec<(usize, usize, f64, f64)> = Vec::new();
    for record in records {
        // In a game of two the result is the win or the draw; in a game of
        // more, the finishers behind the winner are ordered by their
        // points, as their places are.
        let many = record.players.len() > 2;
        let seated: Vec<(usize, (u32, u32))> = record
            .players
            .iter()
            .enumerate()
            .filter_map(|(i, name)| {
                let win_points = record.win_points.get(i).copied().unwrap_or(0);
                let points = record.points.get(i).copied().filter(|_| many);
                Some((
                    names.iter().position(|n| n == name)?,
                    (win_points, points.unwrap_or(0)),
                ))
            })
            .collect();
        if seated.len() < 2 {
            continue;
        }
        let weight = 1.0 / (seated.len() - 1) as f64;
        for (a, &(i, wi)) in seated.iter().enumerate() {
            for &(j, wj) in &seated[a + 1..] {
                let score = match wi.cmp(&wj) {
                    Ordering::Greater => 1.0,
                    Ordering::Equal => 0.5,
                    Ordering::Less => 0.0,
                };
                pairs.push((i, j, score, weight));
            }
        }
    }
    let expected = |d: f64| 1.0 / (1.0 + (-ELO_SLOPE * d).exp());
    let mut ratings = vec![0.0; n];
    let mut information = vec![vec![0.0; n]; n];
    for _ in 0..100 {
        // Gradient and information (the negative Hessian) of the
        // log-likelihood.
        let mut gradient = vec![0.0; n];
        for row in &mut information {
            row.fill(0.0);
        }
        for (i, &r) in ratings.iter().enumerate() {
            let p = expected(r);
            gradient[i] += ELO_SLOPE * (0.5 - p);
            information[i][i] += ELO_SLOPE * ELO_SLOPE * p * (1.0 - p);
        }
        for &(i, j, score, weight) in &pairs {
            let p = expected(ratings[i] - ratings[j]);
            let g = weight * ELO_SLOPE * (score - p);
            gradient[i] += g;
            gradient[j] -= g;
            let h = weight * ELO_SLOPE * ELO_SLOPE * p * (1.0 - p);
            information[i][i] += h;
            information[j][j] += h;
            information[i][j] -= h;
            information[j][i] -= h;
        }
        let Some(step) = solve(&information, &gradient) else {
            break;
        };
        let mut largest: f64 = 0.0;
        for (rating, delta) in ratings.iter_mut().zip(step) {
            // Bounded steps: far from the optimum a full Newton step can
            // overshoot.
            let delta = delta.clamp(-400.0, 400.0);
            *rating += delta;
            largest = largest.max(delta.abs());
        }
        if largest < 1e-9 {
            break;
        }
    }
    let covariance = invert(&information).unwrap_or_else(|| vec![vec![0.0; n]; n]);
    let mean = ratings.iter().sum::<f64>() / n.max(1) as f64;
    let nf = n as f64;
    let total: f64 = covariance.iter().flatten().sum();
    (0..n)
        .map(|i| {
            // Var(r_i − mean(r)) = C_ii − 2/n Σ_j C_ij + 1/n² Σ_jk C_jk.
            let row: f64 = covariance[i].iter().sum();
            let variance = (covariance[i][i] - 2.0 * row / nf + total / (nf * nf)).max(0.0);
            let half = Z_95 * variance.sqrt();
            let estimate = ratings[i] - mean;
            Rating {
                estimate,
                low: estimate - half,
                high: estimate + half,
            }
        })
        .collect()
}

/// Solves `matrix · x = rhs` (Gaussian elimination with partial pivoting);
/// `None` if the matrix is singular.
fn solve(matrix: &[Vec<f64>], rhs: &[f64]) -> Option<Vec<f64>> {
    let n = rhs.len();
    let mut rows: Vec<Vec<f64>> = matrix
        .iter()
        .zip(rhs)
        .map(|(row, &b)| {
            let mut row = row.clone();
            row.push(b);
            row
        })
        .collect();
    for column in 0..n {
        let pivot =
            (column..n).max_by(|&a, &b| rows[a][column].abs().total_cmp(&rows[b][column].abs()))?;
        if rows[pivot][column].abs() < 1e-300 {
            return None;
        }
        rows.swap(column, pivot);
        let pivot_row = rows[column].clone();
        for (index, row) in rows.iter_mut().enumerate() {
            let factor = row[column] / pivot_row[column];
            if index != column && factor != 0.0 {
                for (value, above) in row.iter_mut().zip(&pivot_row).skip(column) {
                    *value -= factor * above;
                }
            }
        }
    }
    Some(
        rows.iter()
            .enumerate()
            .map(|(i, row)| row[n] / row[i])
            .collect(),
    )
}

/// The inverse of a square matrix, column by column.
fn invert(matrix: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = matrix.len();
    let mut columns = Vec::with_capacity(n);
    for column in 0..n {
        let unit: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i == column))).collect();
        columns.push(solve(matrix, &unit)?);
    }
    // The information matrix is symmetric, so is its inverse: columns are
    // rows.
    Some(columns)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Cause;

    fn game(players: &[&str], win_points: &[u32], points: &[u32]) -> GameRecord {
        let n = players.len();
        GameRecord {
            game: 1,
            game_type: String::new(),
            players: players.iter().map(|p| (*p).to_owned()).collect(),
            commands: Vec::new(),
            starter: 1,
            win_points: win_points.to_vec(),
            points: points.to_vec(),
            causes: vec![Cause::Regular; n],
            reasons: vec![String::new(); n],
            duration_ms: 1,
            room: String::new(),
            replay: None,
            think_times: Vec::new(),
        }
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn equal_records_share_a_rank_and_ratings_line_up() {
        // a and b beat c once each and draw each other: equal records.
        let records = [
            game(&["a", "c"], &[2, 0], &[10, 5]),
            game(&["b", "c"], &[2, 0], &[10, 5]),
            game(&["a", "b"], &[1, 1], &[7, 7]),
        ];
        let table = Standings::from_records(&names(&["a", "b", "c"]), Ranking::WinPoints, &records);
        let ranks: Vec<(&str, u32)> = table
            .rows
            .iter()
            .map(|row| (row.stats.name.as_str(), row.rank))
            .collect();
        assert_eq!(ranks, [("a", 1), ("b", 1), ("c", 3)]);
        let text = table.to_string();
        assert!(text.starts_with("3 games, 0 irregular;"), "{text}");
        // The rating column ends at the same place in every row, negative
        // or not.
        let ends: Vec<usize> = text
            .lines()
            .skip(1)
            .map(|line| {
                line.chars()
                    .position(|c| c == ')')
                    .unwrap_or_else(|| panic!("{line}"))
            })
            .collect();
        assert!(ends.windows(2).all(|w| w[0] == w[1]), "{text}");
        let one = Standings::from_records(&names(&["a", "c"]), Ranking::WinPoints, &records[..1]);
        assert!(one.to_string().starts_with("1 game, "), "{one}");
    }

    #[test]
    fn two_players_rate_as_their_score_says() {
        // 300 wins and 100 losses: a 3:1 score, 400·log10(3) ≈ 191 apart.
        let mut records = vec![game(&["a", "b"], &[2, 0], &[1, 0]); 300];
        records.extend(vec![game(&["a", "b"], &[0, 2], &[0, 1]); 100]);
        let ratings = bradley_terry(&names(&["a", "b"]), &records);
        let difference = ratings[0].estimate - ratings[1].estimate;
        assert!((difference - 190.8).abs() < 3.0, "{difference}");
        assert!((ratings[0].estimate + ratings[1].estimate).abs() < 1e-6);
        assert!(ratings[0].low < ratings[0].estimate && ratings[0].estimate < ratings[0].high);
        // Fewer games, wider intervals.
        let few = bradley_terry(&names(&["a", "b"]), &records[295..305]);
        assert!(few[0].high - few[0].low > 2.0 * (ratings[0].high - ratings[0].low));
    }

    #[test]
    fn clean_sweeps_stay_finite_and_ordered() {
        let records = vec![
            game(&["a", "b"], &[2, 0], &[1, 0]),
            game(&["b", "c"], &[2, 0], &[1, 0]),
            game(&["a", "c"], &[2, 0], &[1, 0]),
        ];
        let ratings = bradley_terry(&names(&["a", "b", "c"]), &records);
        for r in &ratings {
            assert!(r.estimate.is_finite() && r.low.is_finite() && r.high.is_finite());
        }
        assert!(ratings[0].estimate > ratings[1].estimate);
        assert!(ratings[1].estimate > ratings[2].estimate);
        // No games: everybody 0.
        let none = bradley_terry(&names(&["a", "b"]), &[]);
        assert_eq!(none[0].estimate, 0.0);
    }

    #[test]
    fn places_behind_the_winner_count_in_games_of_more_players() {
        // b wins every game; c always has more points than a.
        let records = vec![game(&["a", "b", "c"], &[0, 2, 0], &[10, 50, 30]); 6];
        let ratings = bradley_terry(&names(&["a", "b", "c"]), &records);
        assert!(ratings[1].estimate > ratings[2].estimate);
        assert!(ratings[2].estimate > ratings[0].estimate);
        // In a game of two, equal win points are a draw whatever the points.
        let draws = vec![game(&["a", "b"], &[1, 1], &[10, 50]); 6];
        let ratings = bradley_terry(&names(&["a", "b"]), &draws);
        assert!(ratings[0].estimate.abs() < 1e-9);
    }

    #[test]
    fn each_ranking_orders_by_its_own_criteria() {
        // b wins most, a draws much, c loses.
        let records = vec![
            game(&["a", "b"], &[1, 1], &[10, 10]),
            game(&["a", "c"], &[1, 1], &[10, 10]),
            game(&["a", "b"], &[2, 0], &[10, 0]),
            game(&["b", "c"], &[2, 0], &[90, 0]),
            game(&["b", "c"], &[2, 0], &[90, 0]),
            game(&["b", "a"], &[2, 0], &[90, 0]),
        ];
        let order = |ranking| -> Vec<String> {
            Standings::from_records(&names(&["c", "a", "b"]), ranking, &records)
                .rows
                .iter()
                .map(|r| r.stats.name.clone())
                .collect()
        };
        // Win points: b 7 (3 wins, 1 draw), a 4 (1 win, 2 draws), c 1.
        assert_eq!(order(Ranking::WinPoints), ["b", "a", "c"]);
        // Win rate: b 3.5/5, a 2/4, c 0.5/3.
        assert_eq!(order(Ranking::WinRate), ["b", "a", "c"]);
        let table = Standings::from_records(&names(&["c", "a", "b"]), Ranking::WinPoints, &records);
        let b = &table.rows[0];
        assert_eq!((b.rank, b.win_points, b.stats.games()), (1, 7, 5));
        assert!((b.win_rate - 0.7).abs() < 1e-12);
        // Equal wins: the mean points decide.
        let equal = vec![
            game(&["x", "y"], &[2, 0], &[5, 0]),
            game(&["x", "y"], &[0, 2], &[0, 50]),
        ];
        let table = Standings::from_records(&names(&["x", "y"]), Ranking::WinsThenPoints, &equal);
        assert_eq!(table.rows[0].stats.name, "y");
        let text = table.to_string();
        let first_row = text.lines().nth(2).unwrap_or_default();
        assert!(first_row.starts_with("y "), "{text}");
        let csv = table.to_csv();
        assert!(
            csv.lines()
                .nth(1)
                .unwrap_or_default()
                .starts_with("y,1,2,1,0,1,2,0.5000,25.00"),
            "{csv}"
        );
        let json = table.to_json();
        assert_eq!(json["standings"][1]["player"], "x");
        assert_eq!(json["standings"][1]["irregular"]["violations"], 0);
        assert_eq!(json["ranking"], "wins_then_points");
    }

    #[test]
    #[allow(
        clippy::unwrap_used,
        reason = "test code: a failed unwrap is a failed test"
    )]
    fn think_times_are_each_players_mean_and_longest_over_its_games() {
        let think = |ms: &[u64]| {
            let mut times = crate::ThinkTimes::default();
            for &ms in ms {
                times.add(std::time::Duration::from_millis(ms));
            }
            times
        };
        let mut first = game(&["x", "y"], &[2, 0], &[5, 0]);
        first.think_times = vec![think(&[10, 30]), think(&[100])];
        let mut second = game(&["y", "x"], &[2, 0], &[5, 0]);
        // Lists are by player, as named on the command line.
        second.think_times = vec![think(&[300, 200]), think(&[50])];
        // A game whose replay was not found counts no think times.
        let third = game(&["x", "y"], &[1, 1], &[5, 5]);
        let table = Standings::from_records(
            &names(&["x", "y"]),
            Ranking::WinPoints,
            &[first, second, third],
        );
        let x = table.rows.iter().find(|r| r.stats.name == "x").unwrap();
        assert_eq!(x.stats.think.mean_ms(), Some(30.0));
        assert_eq!(x.stats.think.max_ms(), Some(50.0));
        let y = table.rows.iter().find(|r| r.stats.name == "y").unwrap();
        assert_eq!(y.stats.think.mean_ms(), Some(200.0));
        assert_eq!(y.stats.think.max_ms(), Some(300.0));

        let text = table.to_string();
        assert!(text.contains("think ms (mean/max)"), "{text}");
        assert!(text.contains("30.0 / 50.0"), "{text}");
        assert!(text.contains("200.0 / 300.0"), "{text}");
        let csv = table.to_csv();
        assert!(
            csv.lines()
                .next()
                .unwrap()
                .ends_with(",think_mean_ms,think_max_ms")
        );
        assert!(csv.contains(",30.000,50.000\n"), "{csv}");
        let json = table.to_json();
        let row = |name: &str| {
            json["standings"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["player"] == name)
                .cloned()
                .unwrap()
        };
        assert_eq!(row("y")["think_mean_ms"], 200.0);
        assert_eq!(row("y")["think_max_ms"], 300.0);

        // Without any recorded think times: a dash, empty fields, null.
        let table = Standings::from_records(
            &names(&["x", "y"]),
            Ranking::WinPoints,
            &[game(&["x", "y"], &[2, 0], &[5, 0])],
        );
        assert!(table.to_string().contains('–'));
        assert!(table.to_csv().lines().nth(1).unwrap().ends_with(",,"));
        assert!(table.to_json()["standings"][0]["think_mean_ms"].is_null());
    }
}
