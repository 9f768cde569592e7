//! The JSON the pages read: rooms (running and finished), their players,
//! clocks and results, and replays. Field names are the pages' contract;
//! the HTTP tests check them.

use std::time::{Duration, SystemTime};

use serde::Serialize;
use spielleiter_protocol::{english::english, games, result::GameResult};
use spielleiter_render::{Labels, picture, seat_name};
use spielleiter_rules::{AnyGame, Game};
use spielleiter_server::showroom::{RoomPhase, RoomSnapshot};

/// A seat of a game.
#[derive(Debug, Serialize)]
pub struct PlayerView {
    /// The display name, or the seat's label (`ONE`, …) when it has none.
    pub name: String,
    /// Whether a player has taken the seat (always true in replays).
    pub seated: bool,
    /// The game's own score parts as they stand (Blokus: the points).
    pub points: Vec<i64>,
    /// The same parts for people, each with its name: `81 points · place
    /// 2`, `3 ambers · light piece ahead: 4`.
    pub score: String,
    /// Whether the seat is to move.
    pub to_move: bool,
}

/// The clock of the player to move.
#[derive(Debug, Serialize)]
pub struct ClockView {
    /// The seat asked for a move.
    pub seat: usize,
    /// Milliseconds since the request, when the view was made.
    pub elapsed_ms: u64,
    /// The soft limit in milliseconds; `null` for an untimed player.
    pub soft_ms: Option<u64>,
    /// The hard limit in milliseconds; `null` for an untimed player.
    pub hard_ms: Option<u64>,
}

/// One seat's part of a result.
#[derive(Debug, Serialize)]
pub struct ScoreView {
    /// The cause as the protocol names it, e.g. `REGULAR`.
    pub cause: &'static str,
    /// The reason text in English (empty for a regular end).
    pub reason: String,
    /// The parts of the score as text (win points first).
    pub parts: Vec<String>,
    /// The same parts for people, each with its name: `2 win points · 85
    /// points · place 1`.
    pub score: String,
}

/// A game's result.
#[derive(Debug, Serialize)]
pub struct ResultView {
    /// The names of the score's parts, in English.
    pub definition: Vec<String>,
    /// One score per seat.
    pub scores: Vec<ScoreView>,
    /// The winners' seats (several on a draw, none when nobody won).
    pub winners: Vec<usize>,
    /// One line for people, e.g. `alice wins` or `draw`.
    pub summary: String,
}

/// A room, running or finished: what the room page and the room list show.
#[derive(Debug, Serialize)]
pub struct RoomView {
    /// The room id.
    pub id: String,
    /// The game's protocol id.
    pub game: &'static str,
    /// `waiting`, `running`, `paused` or `over`.
    pub phase: &'static str,
    /// The game's turn counter.
    pub turn: u32,
    /// The seats.
    pub players: Vec<PlayerView>,
    /// The clock of the player to move, if a move request is out.
    pub clock: Option<ClockView>,
    /// The result, once the game is over.
    pub result: Option<ResultView>,
    /// Seconds since 1970 when the room opened.
    pub opened: u64,
    /// Grows with every change of the room.
    pub version: u64,
    /// The board as an SVG document (only where a page draws it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub svg: Option<String>,
}

/// One turn of a replay's move list: the move, or a turn the rules skipped.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct TurnView {
    /// The turn's number; a move list's numbers run on without gaps.
    pub turn: u32,
    /// The move, or why the turn had none, in words.
    pub words: String,
    /// Whether the rules skipped the turn (a colour that could place
    /// nothing).
    pub skipped: bool,
}

/// Every turn from `before` to `after` (one move apart) for a move list:
/// the move, then the turns the rules skipped after it.
pub fn turns(before: &AnyGame, after: &AnyGame) -> Vec<TurnView> {
    spielleiter_render::turns_in_words(before, after)
        .into_iter()
        .map(|turn| TurnView {
            turn: turn.turn,
            words: turn.words,
            skipped: turn.skipped,
        })
        .collect()
}

/// The seats of `game` with the names `names`.
pub fn players(game: &AnyGame, names: &[String], seated: &[bool]) -> Vec<PlayerView> {
    // The game's own parts are its result's fragments after the win points.
    let labels: Vec<String> = games::score_definition(game.game_type())
        .iter()
        .skip(1)
        .map(|fragment| part_label(&fragment.name))
        .collect();
    (0..game.player_count())
        .map(|seat| {
            let points = game.score(seat).as_slice().to_vec();
            PlayerView {
                name: seat_name(names, seat),
                seated: seated.get(seat).copied().unwrap_or(true),
                score: score_text(&points, &labels),
                points,
                to_move: game.player_to_move() == Some(seat),
            }
        })
        .collect()
}

/// A score fragment's name as a label of one game's part, in English:
/// `∅ Punkte` (a mean over games in the official result) is one game's
/// points here.
fn part_label(fragment: &str) -> String {
    let english = english(fragment);
    english
        .strip_prefix("mean ")
        .map_or_else(|| english.clone(), str::to_owned)
}

/// `81 points · place 2 · light piece ahead: 3`: each part with its label.
/// A part that is no amount reads better with its label first: a place,
/// and Ostseeschach's distance of the furthest light piece (the pictures
/// word it so too).
fn score_text(points: &[impl std::fmt::Display], labels: &[String]) -> String {
    points
        .iter()
        .enumerate()
        .map(
            |(index, value)| match labels.get(index).map(String::as_str) {
                Some("place") => format!("place {value}"),
                Some(label) if label.ends_with(" ahead") => format!("{label}: {value}"),
                Some(label) => quantity(&value.to_string(), label),
                None => value.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join(" · ")
}

/// `value label` as a person says it: the label in lower case (the
/// league game's wire names its part `Cells`), and in the singular for one
/// ("1 amber", "1 cell").
fn quantity(value: &str, label: &str) -> String {
    const SINGULAR: [(&str, &str); 4] = [
        ("points", "point"),
        ("ambers", "amber"),
        ("pieces", "piece"),
        ("cells", "cell"),
    ];
    let label = label.to_lowercase();
    let label = if value == "1" {
        label
            .split(' ')
            .map(|word| {
                SINGULAR
                    .iter()
                    .find(|(plural, _)| *plural == word)
                    .map_or(word, |(_, singular)| singular)
            })
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        label
    };
    format!("{value} {label}")
}

/// The result for the pages.
pub fn result(result: &GameResult, names: &[String]) -> ResultView {
    let winners: Vec<usize> = result.winners.iter().map(|w| w.seat).collect();
    let summary = match winners.as_slice() {
        [] => "no winner".to_owned(),
        [seat] => format!("{} wins", seat_name(names, *seat)),
        seats if seats.len() == result.scores.len() => "draw".to_owned(),
        seats => {
            let names: Vec<String> = seats.iter().map(|&s| seat_name(names, s)).collect();
            format!("{} share the win", names.join(", "))
        }
    };
    // One game's parts: `∅ Punkte` (a mean over the games of a series in
    // the official result) is this game's points.
    let definition: Vec<String> = result
        .definition
        .iter()
        .map(|f| part_label(&f.name))
        .collect();
    ResultView {
        scores: result
            .scores
            .iter()
            .map(|score| {
                let parts: Vec<String> = score.parts.iter().map(ToString::to_string).collect();
                ScoreView {
                    cause: score.cause.name(),
                    reason: english(&score.reason),
                    score: score_text(&parts, &definition),
                    parts,
                }
            })
            .collect(),
        definition,
        winners,
        summary,
    }
}

/// The board of `game` as SVG, with the players' names and notes (the
/// result's, once the game has ended), and the move that led to it in
/// words where the caller knows the position before (a replay): the
/// picture alone cannot tell what a move took.
pub fn board_svg(
    game: &AnyGame,
    names: &[String],
    notes: Vec<String>,
    last_move: Option<String>,
) -> String {
    // The notes are the result's, given once there is one: the game has
    // ended then, whatever the position says (a disqualification).
    let labels = Labels {
        names: names.to_vec(),
        ended: !notes.is_empty(),
        notes,
        last_move,
    };
    picture(game, &labels).svg()
}

/// Seconds since 1970.
pub fn unix_seconds(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// The board of a room's snapshot as SVG, with the result under it once
/// there is one.
pub fn board(snapshot: &RoomSnapshot) -> String {
    let names = &snapshot.names;
    let notes = snapshot
        .result
        .as_deref()
        .map(|r| format!("result: {}", result(r, names).summary));
    board_svg(&snapshot.game, names, notes.into_iter().collect(), None)
}

/// The view of a room's snapshot; with `svg` the board is drawn too.
pub fn room(snapshot: &RoomSnapshot, svg: bool) -> RoomView {
    let game = &snapshot.game;
    let names = &snapshot.names;
    let clock = snapshot.pending.map(|pending| ClockView {
        seat: pending.seat,
        elapsed_ms: millis(pending.asked_at.elapsed()),
        soft_ms: pending.limits.map(|(soft, _)| millis(soft)),
        hard_ms: pending.limits.map(|(_, hard)| millis(hard)),
    });
    let result = snapshot.result.as_deref().map(|r| result(r, names));
    let over = snapshot.phase == RoomPhase::Over;
    let mut players = players(game, names, &snapshot.seated);
    if over {
        for player in &mut players {
            player.to_move = false;
        }
    }
    RoomView {
        id: snapshot.id.to_string(),
        game: snapshot.game_type().id(),
        phase: snapshot.phase.name(),
        turn: game.turn(),
        players,
        clock,
        svg: svg.then(|| board(snapshot)),
        result,
        opened: unix_seconds(snapshot.opened),
        version: snapshot.version,
    }
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::GameType;

    use super::*;

    #[test]
    fn every_games_score_parts_are_named_in_english() {
        for &game in GameType::ALL {
            for fragment in games::score_definition(game) {
                let english = english(&fragment.name);
                assert!(
                    !spielleiter_protocol::english::looks_german(&english)
                        && !english.contains('∅'),
                    "{game}: {english}"
                );
            }
        }
        assert_eq!(
            score_text(&[81, 2], &["points".into(), "place".into()]),
            "81 points · place 2"
        );
        assert_eq!(
            score_text(
                &[1, 3],
                &[
                    english("Bernsteine"),
                    part_label(&english("Leichtfiguren Vorne"))
                ]
            ),
            "1 amber · light piece ahead: 3"
        );
        assert_eq!(
            score_text(&[4, 1], &["Cells".into(), "win points".into()]),
            "4 cells · 1 win point"
        );
        assert_eq!(part_label("∅ Punkte"), "points");
    }
}
