//! Game results as the wire carries them: the score definition, one score
//! per player, the winners, and the admin's score report (`lobby.md`
//! §7.7). These shapes are the same for every game; a game supplies its
//! definition and its numbers, and its season's [`ResultLayout`] says how
//! they are written (2021: `blokus-2021.md` §9.3; 2022 and 2027:
//! `ostseeschach-2022.md` §13.3, `blokus-2027.md` §7).

use std::{fmt, str::FromStr};

use crate::{
    error::DecodeError,
    seats::{SEAT_LABELS, parse_seat, seat_label},
    xml::{ByteSink, Element, XmlReader, XmlWriter, parse_bool, write::format_int},
};

/// How a result (`<data class="result">`) is laid out after its
/// `<definition>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResultLayout {
    /// 2021: one `<score cause reason>` per player, then one
    /// `<winner displayName>` with `<color class="team">` per winner (both
    /// players on a draw).
    Season2021,
    /// 2022: `<scores>` with one `<entry>` per player (`<player name?
    /// team/>`, `<score cause reason>`), then `<winner team/>` if one player
    /// won alone.
    Season2022,
    /// 2027: `<scores>` as in 2022 but `<score>` without attributes, then
    /// always `<winner team? regular reason/>`.
    Season2027,
}

/// Why a player's score is what it is (`ScoreCause` of the official server).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreCause {
    /// The game ended normally for this player.
    Regular,
    /// The player left: disconnect, protocol error.
    Left,
    /// The player broke a rule.
    RuleViolation,
    /// The player's move came after the soft time limit.
    SoftTimeout,
    /// The player sent no move before the hard time limit (decisions.md §6:
    /// reported as its own cause, unlike the official server).
    HardTimeout,
    /// Unknown cause (exists in the official enum; never produced).
    Unknown,
}

impl ScoreCause {
    /// Every cause, in the official enum order.
    pub const ALL: [ScoreCause; 6] = [
        ScoreCause::Regular,
        ScoreCause::Left,
        ScoreCause::RuleViolation,
        ScoreCause::SoftTimeout,
        ScoreCause::HardTimeout,
        ScoreCause::Unknown,
    ];

    /// The wire name, e.g. `RULE_VIOLATION`.
    pub const fn name(self) -> &'static str {
        match self {
            ScoreCause::Regular => "REGULAR",
            ScoreCause::Left => "LEFT",
            ScoreCause::RuleViolation => "RULE_VIOLATION",
            ScoreCause::SoftTimeout => "SOFT_TIMEOUT",
            ScoreCause::HardTimeout => "HARD_TIMEOUT",
            ScoreCause::Unknown => "UNKNOWN",
        }
    }
}

impl FromStr for ScoreCause {
    type Err = DecodeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ScoreCause::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| DecodeError::invalid("score cause", s))
    }
}

/// How a score fragment is combined over several games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Aggregation {
    /// Added up (`SUM`).
    Sum,
    /// Averaged (`AVERAGE`).
    Average,
}

impl Aggregation {
    /// The wire name.
    pub const fn name(self) -> &'static str {
        match self {
            Aggregation::Sum => "SUM",
            Aggregation::Average => "AVERAGE",
        }
    }
}

impl FromStr for Aggregation {
    type Err = DecodeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "SUM" => Ok(Aggregation::Sum),
            "AVERAGE" => Ok(Aggregation::Average),
            _ => Err(DecodeError::invalid("aggregation", s)),
        }
    }
}

/// A decimal number as Java's `BigDecimal.toString()` writes it: an
/// unscaled integer and a number of fraction digits (`2`, `52.000000`).
///
/// Equality is representational: `2` and `2.0` differ, as they do on the
/// wire.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Decimal {
    unscaled: i64,
    scale: u8,
}

impl Decimal {
    /// The largest number of fraction digits supported.
    pub const MAX_SCALE: u8 = 18;

    /// An integer.
    pub const fn integer(value: i64) -> Decimal {
        Decimal {
            unscaled: value,
            scale: 0,
        }
    }

    /// `unscaled × 10^-scale`; the scale is capped at [`Self::MAX_SCALE`].
    pub const fn new(unscaled: i64, scale: u8) -> Decimal {
        Decimal {
            unscaled,
            scale: if scale > Self::MAX_SCALE {
                Self::MAX_SCALE
            } else {
                scale
            },
        }
    }

    /// The digits without the decimal point.
    pub const fn unscaled(self) -> i64 {
        self.unscaled
    }

    /// The number of fraction digits.
    pub const fn scale(self) -> u8 {
        self.scale
    }

    /// The integer value, if the number has no fraction digits.
    pub const fn as_integer(self) -> Option<i64> {
        if self.scale == 0 {
            Some(self.unscaled)
        } else {
            None
        }
    }

    /// Formats into `buf` without allocating.
    fn format(self, buf: &mut [u8; 24]) -> &str {
        let mut digits = [0; 20];
        let text = format_int(self.unscaled, &mut digits);
        let (negative, magnitude) = match text.strip_prefix('-') {
            Some(m) => (true, m.as_bytes()),
            None => (false, text.as_bytes()),
        };
        let scale = usize::from(self.scale);
        let mut len = 0;
        let mut push = |b: u8| {
            buf[len] = b;
            len += 1;
        };
        if negative {
            push(b'-');
        }
        if scale == 0 {
            magnitude.iter().for_each(|&b| push(b));
        } else if magnitude.len() > scale {
            let (int, frac) = magnitude.split_at(magnitude.len() - scale);
            int.iter().for_each(|&b| push(b));
            push(b'.');
            frac.iter().for_each(|&b| push(b));
        } else {
            push(b'0');
            push(b'.');
            (magnitude.len()..scale).for_each(|_| push(b'0'));
            magnitude.iter().for_each(|&b| push(b));
        }
        core::str::from_utf8(&buf[..len]).unwrap_or("0")
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.format(&mut [0; 24]))
    }
}

impl FromStr for Decimal {
    type Err = DecodeError;

    /// Parses `[+-]digits[.digits]`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let invalid = || DecodeError::invalid("decimal number", s);
        let (negative, body) = match s.as_bytes().first() {
            Some(b'-') => (true, &s[1..]),
            Some(b'+') => (false, &s[1..]),
            _ => (false, s),
        };
        let (int, frac) = body.split_once('.').unwrap_or((body, ""));
        let all_digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
        if int.is_empty()
            || !all_digits(int)
            || !all_digits(frac)
            || (body.contains('.') && frac.is_empty())
            || frac.len() > usize::from(Decimal::MAX_SCALE)
        {
            return Err(invalid());
        }
        let mut unscaled: i64 = 0;
        for b in int.bytes().chain(frac.bytes()) {
            let digit = i64::from(b - b'0');
            unscaled = unscaled
                .checked_mul(10)
                .and_then(|v| {
                    if negative {
                        v.checked_sub(digit)
                    } else {
                        v.checked_add(digit)
                    }
                })
                .ok_or_else(invalid)?;
        }
        Ok(Decimal {
            unscaled,
            scale: frac.len() as u8,
        })
    }
}

/// One component of a score, as declared in the result's definition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScoreFragment {
    /// The display name, e.g. `Gewinner`.
    pub name: String,
    /// How the fragment is combined over games.
    pub aggregation: Aggregation,
    /// Whether the fragment counts for the ranking.
    pub relevant_for_ranking: bool,
}

/// One player's score.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerScore {
    /// The player's display name (written by the 2022 and 2027 layouts;
    /// empty when read from a 2021 result).
    pub display_name: String,
    /// Why the score is what it is (not written by the 2027 layout).
    pub cause: ScoreCause,
    /// A human-readable reason; empty for a regular end (not written by the
    /// 2027 layout).
    pub reason: String,
    /// One value per fragment of the definition, in the same order.
    pub parts: Vec<Decimal>,
}

/// A player named as winner.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Winner {
    /// The player's display name.
    pub display_name: String,
    /// The player's seat.
    pub seat: usize,
}

/// How the game ended, as the 2027 layout states it in `<winner regular
/// reason>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Conclusion {
    /// Whether the game ended by its rules.
    pub regular: bool,
    /// Why it ended so (the winner, a draw, or the offender's violation).
    pub reason: String,
}

impl Default for Conclusion {
    fn default() -> Conclusion {
        Conclusion {
            regular: true,
            reason: String::new(),
        }
    }
}

/// The result of a game (`<data class="result">`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// How the result is written: the layout of the game's season.
    pub layout: ResultLayout,
    /// What the parts of each score mean.
    pub definition: Vec<ScoreFragment>,
    /// One score per player, in seat order.
    pub scores: Vec<PlayerScore>,
    /// The winners, in seat order: one, several on a draw, or none.
    pub winners: Vec<Winner>,
    /// How the game ended, where the layout says it (2027); `None` for the
    /// other layouts. (Boxed: rarely there, and results travel inside every
    /// message type.)
    pub conclusion: Option<Box<Conclusion>>,
}

/// A fragment with its aggregated value, in a score report.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScoreValue {
    /// The fragment.
    pub fragment: ScoreFragment,
    /// The aggregated value.
    pub value: Decimal,
}

/// An admin's score report for one player (`<playerScore>`, `lobby.md` §7.7).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayerScoreReport {
    /// The player.
    pub display_name: String,
    /// How many games were recorded.
    pub number_of_tests: u32,
    /// The aggregated values, one per fragment.
    pub values: Vec<ScoreValue>,
}

impl ScoreFragment {
    pub(crate) fn write<S: ByteSink>(&self, w: &mut XmlWriter<'_, S>) {
        w.start("fragment");
        w.attr("name", &self.name);
        w.open();
        w.text_element("aggregation", self.aggregation.name());
        w.text_element(
            "relevantForRanking",
            if self.relevant_for_ranking {
                "true"
            } else {
                "false"
            },
        );
        w.close("fragment");
    }

    pub(crate) fn read(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<Self, DecodeError> {
        let name = el.attribute("name")?.unwrap_or_default().into_owned();
        let mut aggregation = None;
        let mut relevant_for_ranking = false;
        while let Some(child) = r.next_child(&el)? {
            match child.name() {
                "aggregation" => aggregation = Some(r.text(child)?.parse()?),
                "relevantForRanking" => relevant_for_ranking = parse_bool(&r.text(child)?),
                _ => r.skip(child)?,
            }
        }
        Ok(ScoreFragment {
            name,
            aggregation: aggregation.ok_or(DecodeError::MissingChild {
                element: "fragment",
                child: "aggregation",
            })?,
            relevant_for_ranking,
        })
    }
}

fn write_decimal<S: ByteSink>(w: &mut XmlWriter<'_, S>, name: &str, value: Decimal) {
    w.text_element(name, value.format(&mut [0; 24]));
}

impl GameResult {
    /// Writes the children of `<data class="result">` in the result's
    /// layout.
    pub(crate) fn write_content<S: ByteSink>(&self, w: &mut XmlWriter<'_, S>) {
        w.start("definition");
        if self.definition.is_empty() {
            w.end_empty();
        } else {
            w.open();
            for fragment in &self.definition {
                fragment.write(w);
            }
            w.close("definition");
        }
        match self.layout {
            ResultLayout::Season2021 => {
                for score in &self.scores {
                    write_score(w, score, true);
                }
                for winner in &self.winners {
                    w.start("winner");
                    w.attr("displayName", &winner.display_name);
                    w.open();
                    w.text_element_with_class("color", "team", seat_label(winner.seat));
                    w.close("winner");
                }
            }
            ResultLayout::Season2022 | ResultLayout::Season2027 => {
                let with_cause = self.layout == ResultLayout::Season2022;
                w.start("scores");
                if self.scores.is_empty() {
                    w.end_empty();
                } else {
                    w.open();
                    for (seat, score) in self.scores.iter().enumerate() {
                        w.start("entry");
                        w.open();
                        w.start("player");
                        if !score.display_name.trim().is_empty() {
                            w.attr("name", &score.display_name);
                        }
                        w.attr_raw("team", seat_label(seat));
                        w.end_empty();
                        write_score(w, score, with_cause);
                        w.close("entry");
                    }
                    w.close("scores");
                }
                let sole_winner = match self.winners.as_slice() {
                    [winner] => Some(winner.seat),
                    _ => None,
                };
                if with_cause {
                    if let Some(seat) = sole_winner {
                        w.start("winner");
                        w.attr_raw("team", seat_label(seat));
                        w.end_empty();
                    }
                } else {
                    let conclusion = self.conclusion.as_deref().cloned().unwrap_or_default();
                    w.start("winner");
                    if let Some(seat) = sole_winner {
                        w.attr_raw("team", seat_label(seat));
                    }
                    w.attr_bool("regular", conclusion.regular);
                    w.attr("reason", &conclusion.reason);
                    w.end_empty();
                }
            }
        }
    }

    /// Reads the children of `<data class="result">`, written in
    /// `layout`; `cause_of` tells the cause of an irregular end's reason
    /// (the season's [`SeasonTexts::cause_of`](crate::dialect::SeasonTexts::cause_of)). What the 2022 and 2027 layouts leave out is
    /// restored as the server meant it: seats of a 2022 result without
    /// `<winner>` that share the most win points, and have some, drew; a
    /// regular 2027 end without a winner team is a draw of all seats with
    /// the most win points, and the players who lost an
    /// irregular end (or all, if nobody won) get the conclusion's reason
    /// and the cause it tells.
    pub(crate) fn read_content(
        r: &mut XmlReader<'_>,
        el: &Element<'_>,
        layout: ResultLayout,
        cause_of: impl Fn(&str) -> ScoreCause,
    ) -> Result<Self, DecodeError> {
        let mut result = GameResult {
            layout,
            definition: Vec::new(),
            scores: Vec::new(),
            winners: Vec::new(),
            conclusion: None,
        };
        // The 2022 and 2027 layouts name winners by seat only.
        let mut winner_seats = Vec::new();
        while let Some(child) = r.next_child(el)? {
            match child.name() {
                "definition" => {
                    while let Some(fragment) = r.next_child(&child)? {
                        if fragment.name() == "fragment" {
                            result.definition.push(ScoreFragment::read(r, fragment)?);
                        } else {
                            r.skip(fragment)?;
                        }
                    }
                }
                "score" if layout == ResultLayout::Season2021 => {
                    result.scores.push(read_score(r, child, String::new())?);
                }
                "scores" if layout != ResultLayout::Season2021 => {
                    while let Some(entry) = r.next_child(&child)? {
                        if entry.name() == "entry" {
                            result.scores.push(read_entry(r, entry)?);
                        } else {
                            r.skip(entry)?;
                        }
                    }
                }
                "winner" if layout == ResultLayout::Season2021 => {
                    let display_name = child
                        .attribute("displayName")?
                        .unwrap_or_default()
                        .into_owned();
                    let seat = read_team_child(r, &child, "winner")?;
                    result.winners.push(Winner { display_name, seat });
                }
                "winner" => {
                    if let Some(team) = child.attribute("team")? {
                        winner_seats.push(parse_seat(&team, SEAT_LABELS.len())?);
                    }
                    if layout == ResultLayout::Season2027 {
                        result.conclusion = Some(Box::new(Conclusion {
                            regular: child.attribute("regular")?.is_some_and(|v| parse_bool(&v)),
                            reason: child.attribute("reason")?.unwrap_or_default().into_owned(),
                        }));
                    }
                    r.skip(child)?;
                }
                _ => r.skip(child)?,
            }
        }
        for seat in winner_seats {
            let display_name = result
                .scores
                .get(seat)
                .map(|s| s.display_name.clone())
                .unwrap_or_default();
            result.winners.push(Winner { display_name, seat });
        }
        // The 2022 layout names a sole winner only: seats that share the
        // most win points, and have some, drew.
        if layout == ResultLayout::Season2022 && result.winners.is_empty() {
            let tied = result.tied_seats();
            let drew = |w: &Winner| {
                let points = result.scores.get(w.seat).and_then(|s| s.parts.first());
                points.and_then(|p| p.as_integer()).is_some_and(|p| p > 0)
            };
            if tied.len() > 1 && tied.iter().all(drew) {
                result.winners = tied;
            }
        }
        if let Some(conclusion) = result.conclusion.as_deref() {
            if conclusion.regular && result.winners.is_empty() {
                result.winners = result.tied_seats();
            } else if !conclusion.regular {
                let cause = cause_of(&conclusion.reason);
                let reason = conclusion.reason.clone();
                for (seat, score) in result.scores.iter_mut().enumerate() {
                    if !result.winners.iter().any(|w| w.seat == seat) {
                        score.cause = cause;
                        score.reason.clone_from(&reason);
                    }
                }
            }
        }
        Ok(result)
    }

    /// The seats with the most win points (the first part), as winners.
    fn tied_seats(&self) -> Vec<Winner> {
        let win_points = |score: &PlayerScore| score.parts.first().and_then(|p| p.as_integer());
        let best = self.scores.iter().filter_map(win_points).max();
        self.scores
            .iter()
            .enumerate()
            .filter(|(_, score)| best.is_some() && win_points(score) == best)
            .map(|(seat, score)| Winner {
                display_name: score.display_name.clone(),
                seat,
            })
            .collect()
    }
}

/// One seat's share of a game's result, as the server decided it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatResult<'a> {
    /// The player's display name.
    pub display_name: &'a str,
    /// Why the score is what it is.
    pub cause: ScoreCause,
    /// The reason text (empty for a regular score).
    pub reason: String,
    /// 2 for a win, 1 for a shared win, 0 otherwise.
    pub win_points: u32,
    /// The game's own score parts.
    pub parts: &'a [i64],
    /// Whether this player ended the game irregularly (left, broke a rule,
    /// ran out of time).
    pub offender: bool,
}

/// Writes a `<score>`, with its `cause` and `reason` if `with_cause`.
fn write_score<S: ByteSink>(w: &mut XmlWriter<'_, S>, score: &PlayerScore, with_cause: bool) {
    w.start("score");
    if with_cause {
        w.attr("cause", score.cause.name());
        w.attr("reason", &score.reason);
    }
    if score.parts.is_empty() {
        w.end_empty();
        return;
    }
    w.open();
    for &part in &score.parts {
        write_decimal(w, "part", part);
    }
    w.close("score");
}

/// Reads a `<score>`; a missing `cause` (the 2027 layout) reads as regular.
fn read_score(
    r: &mut XmlReader<'_>,
    el: Element<'_>,
    display_name: String,
) -> Result<PlayerScore, DecodeError> {
    let cause = match el.attribute("cause")? {
        Some(cause) => cause.parse()?,
        None => ScoreCause::Regular,
    };
    let reason = el.attribute("reason")?.unwrap_or_default().into_owned();
    let mut parts = Vec::new();
    while let Some(part) = r.next_child(&el)? {
        if part.name() == "part" {
            parts.push(r.text(part)?.parse()?);
        } else {
            r.skip(part)?;
        }
    }
    Ok(PlayerScore {
        display_name,
        cause,
        reason,
        parts,
    })
}

/// Reads an `<entry>` of `<scores>`: `<player name? team/>` and `<score>`.
fn read_entry(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<PlayerScore, DecodeError> {
    let mut display_name = String::new();
    let mut score = None;
    while let Some(child) = r.next_child(&el)? {
        match child.name() {
            "player" => {
                display_name = child.attribute("name")?.unwrap_or_default().into_owned();
                r.skip(child)?;
            }
            "score" => score = Some(read_score(r, child, String::new())?),
            _ => r.skip(child)?,
        }
    }
    let mut score = score.ok_or(DecodeError::MissingChild {
        element: "entry",
        child: "score",
    })?;
    score.display_name = display_name;
    Ok(score)
}

/// Reads the `<color class="team">ONE</color>` child of `el` (other
/// children are skipped) as a seat.
fn read_team_child(
    r: &mut XmlReader<'_>,
    el: &Element<'_>,
    element: &'static str,
) -> Result<usize, DecodeError> {
    let mut seat = None;
    while let Some(child) = r.next_child(el)? {
        if child.name() == "color" {
            seat = Some(parse_seat(&r.text(child)?, SEAT_LABELS.len())?);
        } else {
            r.skip(child)?;
        }
    }
    seat.ok_or(DecodeError::MissingChild {
        element,
        child: "color",
    })
}

impl PlayerScoreReport {
    pub(crate) fn write<S: ByteSink>(&self, w: &mut XmlWriter<'_, S>) {
        w.start("score");
        w.attr("displayName", &self.display_name);
        w.attr_int("numberOfTests", i64::from(self.number_of_tests));
        if self.values.is_empty() {
            w.end_empty();
            return;
        }
        w.open();
        for value in &self.values {
            w.start("values");
            w.open();
            value.fragment.write(w);
            write_decimal(w, "value", value.value);
            w.close("values");
        }
        w.close("score");
    }

    pub(crate) fn read(r: &mut XmlReader<'_>, el: Element<'_>) -> Result<Self, DecodeError> {
        let display_name = el
            .attribute("displayName")?
            .unwrap_or_default()
            .into_owned();
        let number_of_tests = match el.attribute("numberOfTests")? {
            Some(n) => n
                .parse()
                .map_err(|_| DecodeError::invalid("number of tests", n))?,
            None => 0,
        };
        let mut values = Vec::new();
        while let Some(child) = r.next_child(&el)? {
            if child.name() != "values" {
                r.skip(child)?;
                continue;
            }
            let mut fragment = None;
            let mut value = None;
            while let Some(item) = r.next_child(&child)? {
                match item.name() {
                    "fragment" => fragment = Some(ScoreFragment::read(r, item)?),
                    "value" => value = Some(r.text(item)?.parse()?),
                    _ => r.skip(item)?,
                }
            }
            values.push(ScoreValue {
                fragment: fragment.ok_or(DecodeError::MissingChild {
                    element: "values",
                    child: "fragment",
                })?,
                value: value.ok_or(DecodeError::MissingChild {
                    element: "values",
                    child: "value",
                })?,
            });
        }
        Ok(PlayerScoreReport {
            display_name,
            number_of_tests,
            values,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_print_like_big_decimal() {
        assert_eq!(Decimal::integer(87).to_string(), "87");
        assert_eq!(Decimal::integer(-3).to_string(), "-3");
        assert_eq!(Decimal::new(52_000_000, 6).to_string(), "52.000000");
        assert_eq!(Decimal::new(5, 3).to_string(), "0.005");
        assert_eq!(Decimal::new(-5, 1).to_string(), "-0.5");
        assert_eq!(
            Decimal::new(i64::MIN, 18).to_string(),
            "-9.223372036854775808"
        );
    }

    #[test]
    fn decimals_parse_back() {
        for text in ["0", "87", "-3", "52.000000", "0.005", "-0.5", "47.500000"] {
            let value: Decimal = text.parse().expect(text);
            assert_eq!(value.to_string(), text);
        }
        assert_eq!("+7".parse::<Decimal>().expect("+7"), Decimal::integer(7));
        for bad in [
            "",
            "-",
            "1.",
            ".5",
            "1e3",
            "0x10",
            " 1",
            "99999999999999999999",
        ] {
            assert!(bad.parse::<Decimal>().is_err(), "{bad}");
        }
    }

    #[test]
    fn causes_have_official_names() {
        for cause in ScoreCause::ALL {
            assert_eq!(cause.name().parse::<ScoreCause>().expect("name"), cause);
        }
        assert!("regular".parse::<ScoreCause>().is_err());
    }
}
