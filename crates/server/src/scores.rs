//! The test-mode score table (`lobby.md` §7.7): while an administrator has
//! switched test mode on, every game result is added to per-player totals
//! keyed by display name, which `scoreForPlayer` reports. The official
//! TestClient reads its statistics this way.
//!
//! Sums are plain sums; averages follow the official arithmetic exactly, so
//! the reported figures are the same digit for digit:
//! `new = old × round6((n − 1) / n) + round6(value / n)`, the sum rounded to
//! 8 significant digits, all roundings half-up.

use std::collections::HashMap;

use spielleiter_protocol::result::{
    Aggregation, Decimal, GameResult, PlayerScoreReport, ScoreFragment, ScoreValue,
};

/// Fraction digits of the divisions in the average.
const DIVISION_SCALE: u32 = 6;
/// Significant digits the average is rounded to.
const AVERAGE_PRECISION: u32 = DIVISION_SCALE + 2;

/// The recorded totals of every player.
#[derive(Debug, Default)]
pub struct ScoreTable {
    players: HashMap<String, Record>,
}

#[derive(Debug)]
struct Record {
    games: u32,
    values: Vec<ScoreValue>,
}

impl ScoreTable {
    /// Adds a result for the players `names` (in seat order). Results of
    /// games whose players share a name (such as two anonymous `join`
    /// players) are not recorded, as they could not be told apart.
    pub fn record(&mut self, names: &[String], result: &GameResult) {
        if names.len() != result.scores.len() || has_duplicates(names) {
            return;
        }
        for (name, score) in names.iter().zip(&result.scores) {
            let record = self.players.entry(name.clone()).or_insert_with(|| Record {
                games: 0,
                values: result
                    .definition
                    .iter()
                    .map(|fragment| ScoreValue {
                        fragment: fragment.clone(),
                        value: Decimal::integer(0),
                    })
                    .collect(),
            });
            if !same_fragments(&record.values, &result.definition) {
                // A result of another game under the same name: the totals
                // would mean nothing, so they are left as they are.
                continue;
            }
            record.games += 1;
            let n = record.games;
            for (total, part) in record.values.iter_mut().zip(&score.parts) {
                total.value = match total.fragment.aggregation {
                    Aggregation::Sum => add(total.value, *part),
                    Aggregation::Average => running_average(total.value, n, *part),
                };
            }
        }
    }

    /// The report for `name`, if any of its games was recorded.
    pub fn report(&self, name: &str) -> Option<PlayerScoreReport> {
        self.players.get(name).map(|record| PlayerScoreReport {
            display_name: name.to_owned(),
            number_of_tests: record.games,
            values: record.values.clone(),
        })
    }
}

fn has_duplicates(names: &[String]) -> bool {
    names
        .iter()
        .enumerate()
        .any(|(i, name)| names[..i].contains(name))
}

fn same_fragments(values: &[ScoreValue], definition: &[ScoreFragment]) -> bool {
    values.len() == definition.len() && values.iter().zip(definition).all(|(v, f)| &v.fragment == f)
}

/// A decimal as an exact `(unscaled, scale)` pair with room to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Exact {
    unscaled: i128,
    scale: u32,
}

impl From<Decimal> for Exact {
    fn from(d: Decimal) -> Exact {
        Exact {
            unscaled: i128::from(d.unscaled()),
            scale: u32::from(d.scale()),
        }
    }
}

impl Exact {
    fn rescaled(self, scale: u32) -> i128 {
        self.unscaled * 10i128.pow(scale - self.scale)
    }

    fn add(self, other: Exact) -> Exact {
        let scale = self.scale.max(other.scale);
        Exact {
            unscaled: self.rescaled(scale) + other.rescaled(scale),
            scale,
        }
    }

    fn mul(self, other: Exact) -> Exact {
        Exact {
            unscaled: self.unscaled * other.unscaled,
            scale: self.scale + other.scale,
        }
    }

    /// `self / divisor` with `scale` fraction digits, rounded half-up
    /// (away from zero on a tie).
    fn div(self, divisor: i128, scale: u32) -> Exact {
        // self = u / 10^s; the quotient with `scale` digits is
        // u × 10^(scale − s) / divisor, or u / (divisor × 10^(s − scale)).
        let (numerator, denominator) = if scale >= self.scale {
            (self.unscaled * 10i128.pow(scale - self.scale), divisor)
        } else {
            (self.unscaled, divisor * 10i128.pow(self.scale - scale))
        };
        Exact {
            unscaled: div_half_up(numerator, denominator),
            scale,
        }
    }

    /// Rounded half-up to `digits` significant digits (only ever dropping
    /// fraction digits, as the totals here have few integer digits).
    fn round_significant(self, digits: u32) -> Exact {
        let precision = if self.unscaled == 0 {
            1
        } else {
            self.unscaled.unsigned_abs().ilog10() + 1
        };
        let drop = precision.saturating_sub(digits).min(self.scale);
        if drop == 0 {
            return self;
        }
        Exact {
            unscaled: div_half_up(self.unscaled, 10i128.pow(drop)),
            scale: self.scale - drop,
        }
    }

    fn to_decimal(self) -> Decimal {
        // Totals of game scores stay far below i64; saturate rather than
        // wrap if a pathological table ever got there.
        let unscaled = i64::try_from(self.unscaled).unwrap_or(if self.unscaled < 0 {
            i64::MIN
        } else {
            i64::MAX
        });
        Decimal::new(
            unscaled,
            u8::try_from(self.scale).unwrap_or(Decimal::MAX_SCALE),
        )
    }
}

fn div_half_up(numerator: i128, denominator: i128) -> i128 {
    let quotient = numerator / denominator;
    let remainder = numerator % denominator;
    if 2 * remainder.abs() >= denominator.abs() {
        quotient + numerator.signum() * denominator.signum()
    } else {
        quotient
    }
}

fn add(total: Decimal, value: Decimal) -> Decimal {
    Exact::from(total).add(Exact::from(value)).to_decimal()
}

/// The official running average after the `n`-th value.
fn running_average(old: Decimal, n: u32, value: Decimal) -> Decimal {
    let n = i128::from(n);
    let keep = Exact {
        unscaled: n - 1,
        scale: 0,
    }
    .div(n, DIVISION_SCALE);
    let share = Exact::from(value).div(n, DIVISION_SCALE);
    Exact::from(old)
        .mul(keep)
        .add(share)
        .round_significant(AVERAGE_PRECISION)
        .to_decimal()
}

#[cfg(test)]
mod tests {
    use spielleiter_protocol::{
        dialect::ResultLayout,
        games::blokus2021,
        result::{PlayerScore, ScoreCause},
    };

    use super::*;

    fn result(parts: [[i64; 2]; 2]) -> GameResult {
        GameResult {
            layout: ResultLayout::Season2021,
            definition: blokus2021::score_definition(),
            scores: parts
                .iter()
                .map(|p| PlayerScore {
                    display_name: String::new(),
                    cause: ScoreCause::Regular,
                    reason: String::new(),
                    parts: p.iter().map(|&v| Decimal::integer(v)).collect(),
                })
                .collect(),
            winners: Vec::new(),
            conclusion: None,
        }
    }

    fn names() -> Vec<String> {
        vec!["alice".to_owned(), "bob".to_owned()]
    }

    fn values(report: &PlayerScoreReport) -> Vec<String> {
        report.values.iter().map(|v| v.value.to_string()).collect()
    }

    #[test]
    fn the_official_example_sums_and_averages() {
        let mut table = ScoreTable::default();
        table.record(&names(), &result([[2, 47], [0, 30]]));
        table.record(&names(), &result([[2, 48], [0, 31]]));
        let alice = table.report("alice").expect("recorded");
        assert_eq!(alice.number_of_tests, 2);
        assert_eq!(values(&alice), ["4", "47.500000"]);
        let bob = table.report("bob").expect("recorded");
        assert_eq!(values(&bob), ["0", "30.500000"]);
        assert_eq!(table.report("carol"), None);
    }

    #[test]
    fn averages_round_like_big_decimal() {
        // 47, 48, 50: 47.5 × 0.666667 + 16.666667 = 48.3333495 → 48.333350.
        let mut table = ScoreTable::default();
        for points in [47, 48, 50] {
            table.record(&names(), &result([[2, points], [0, 0]]));
        }
        let alice = table.report("alice").expect("recorded");
        assert_eq!(values(&alice), ["6", "48.333350"]);
    }

    #[test]
    fn players_with_the_same_name_are_not_recorded() {
        let mut table = ScoreTable::default();
        let same = vec![String::new(), String::new()];
        table.record(&same, &result([[1, 10], [1, 10]]));
        assert_eq!(table.report(""), None);
    }

    #[test]
    fn half_up_rounding_goes_away_from_zero() {
        assert_eq!(div_half_up(5, 2), 3);
        assert_eq!(div_half_up(-5, 2), -3);
        assert_eq!(div_half_up(4, 3), 1);
        assert_eq!(div_half_up(-4, 3), -1);
    }
}
