//! Classic Blokus replays as game records of Pentobi (`.blksgf`,
//! Pentobi's `Pentobi-SGF.md`), so that Pentobi opens and analyses the
//! game: [`BLKSGF`], the classic games' record format, written from a
//! replay's states as a [`ClassicRecord`]; `spielleiter replay export
//! --format blksgf` writes it and the replay viewer offers it for download,
//! both through the catalogue ([`Replay::record`](crate::Replay::record)).
//!
//! What the format asks for, and how it is met here:
//! - UTF-8 with `CA[UTF-8]`; `GM` first, as a string: `Blokus`, `Blokus
//!   Three-Player` or `Blokus Two-Player`.
//! - Moves are properties of the colour that placed the piece: `1` BLUE,
//!   `2` YELLOW, `3` RED, `4` GREEN, in all three games (the two-player game
//!   has four colours, so `B`/`W` name its players, not its moves: `PB`,
//!   `PW` are the players' names there).
//! - A move's value is its cells in Pentobi's notation, comma-separated
//!   without spaces, in the order a1, b1, …, a2, … (e.g. `1[a20,b20,c20]`).
//! - The document defines no pass: a colour that cannot place is simply not
//!   written; every move names its colour.
//!
//! The root node also carries a game comment (`GC`) with the game type, the
//! seats and players, and the final points.

use std::fmt::Write as _;

use spielleiter_rules::blokus::{
    Classic, ClassicPlayers, Color, Move, Placement, notation::PentobiCells,
};

use super::state::State;
use crate::{games::record_format::RecordFormat, seats::seat_label};

/// Pentobi's game record, the record format of the classic games.
pub const BLKSGF: RecordFormat = RecordFormat {
    name: "blksgf",
    games: "classic Blokus",
    label: "Pentobi record (.blksgf)",
    media_type: "application/x-blokus-sgf; charset=utf-8",
};

/// The `.blksgf` record of a replay's `states` of classic Blokus for
/// `players`, or why they make none.
pub(crate) fn write(players: ClassicPlayers, states: &[&State]) -> Result<String, String> {
    ClassicRecord::of_states(players, states).map(|record| record.blksgf())
}

/// A classic game as a record: the players, their names and the
/// placements in order, checked against the rules.
#[derive(Clone, Debug)]
pub struct ClassicRecord {
    /// How many players share the colours.
    pub players: ClassicPlayers,
    /// The display names in seat order (blank if a player had none).
    pub names: Vec<String>,
    /// Every placement, in order.
    pub placements: Vec<Placement>,
    /// The position after the last placement.
    pub last: Classic,
}

impl ClassicRecord {
    /// The record of a replay's `states` of a game of `players`: the
    /// placements are the states' last moves, replayed by the rules from
    /// the initial position; the position reached must be the replay's
    /// last.
    ///
    /// # Errors
    ///
    /// There is no state, or the moves do not lead from one state to the
    /// next.
    pub fn of_states(players: ClassicPlayers, states: &[&State]) -> Result<ClassicRecord, String> {
        let (first, rest) = states
            .split_first()
            .ok_or_else(|| "the replay records no state".to_owned())?;
        let mut last = Classic::from_setup(&first.setup)
            .map_err(|error| format!("the first state: {error}"))?;
        if last != Classic::new(players) {
            return Err("the replay does not start at the initial position".to_owned());
        }
        let mut placements = Vec::new();
        for (index, state) in rest.iter().enumerate() {
            let Some(Move::Set(placement)) = state.setup.last_move else {
                return Err(format!(
                    "state {} names no placement as its last move",
                    index + 1
                ));
            };
            last.play(&Move::Set(placement))
                .map_err(|mistake| format!("move {}: {mistake} ({})", index + 1, mistake.name()))?;
            let recorded = Classic::from_setup(&state.setup)
                .map_err(|error| format!("state {}: {error}", index + 1))?;
            if recorded != last {
                return Err(format!(
                    "state {} is not the position its move leads to",
                    index + 1
                ));
            }
            placements.push(placement);
        }
        Ok(ClassicRecord {
            players,
            names: first.display_names.clone(),
            placements,
            last,
        })
    }

    /// The record in Pentobi's format (see the module documentation).
    pub fn blksgf(&self) -> String {
        let mut out = String::from("(;GM[");
        out.push_str(pentobi_game(self.players));
        out.push_str("]FF[4]CA[UTF-8]AP[Spielleiter:");
        out.push_str(env!("CARGO_PKG_VERSION"));
        out.push(']');
        if self.players == ClassicPlayers::Two {
            let _ = write!(
                out,
                "PB[{}]PW[{}]",
                escape(self.name(0)),
                escape(self.name(1))
            );
        }
        let _ = write!(out, "\nGC[{}]", escape(&self.comment()));
        for placement in &self.placements {
            let _ = write!(
                out,
                "\n;{}[{}]",
                color_property(placement.color),
                PentobiCells(placement)
            );
        }
        out.push_str(")\n");
        out
    }

    fn name(&self, seat: usize) -> &str {
        self.names.get(seat).map_or("", String::as_str)
    }

    /// The game comment: game type, seats with players and colours, points.
    fn comment(&self) -> String {
        let mut text = format!("{} (Spielleiter).", self.players.game_id());
        for seat in 0..self.players.count() {
            let colors: Vec<&str> = self
                .players
                .scoring_colors(seat)
                .iter()
                .map(|c| c.name())
                .collect();
            let name = match self.name(seat) {
                "" => String::new(),
                name => format!(" {name}"),
            };
            let _ = write!(
                text,
                "\n{}{name}: {}, {} points",
                seat_label(seat),
                colors.join(" + "),
                self.last.points(seat)
            );
        }
        if self.players == ClassicPlayers::Three {
            text.push_str("\nGREEN is played in turn and counts for nobody.");
        }
        let points: Vec<String> = Color::ALL
            .iter()
            .map(|&c| format!("{} {}", c.name(), self.last.color_points(c)))
            .collect();
        let _ = write!(text, "\nPoints by colour: {}.", points.join(", "));
        text
    }
}

/// Pentobi's `GM` value of a classic game.
pub const fn pentobi_game(players: ClassicPlayers) -> &'static str {
    match players {
        ClassicPlayers::Four => "Blokus",
        ClassicPlayers::Three => "Blokus Three-Player",
        ClassicPlayers::Two => "Blokus Two-Player",
    }
}

/// The move property of `color`: `1` to `4` in move order.
pub const fn color_property(color: Color) -> char {
    match color {
        Color::Blue => '1',
        Color::Yellow => '2',
        Color::Red => '3',
        Color::Green => '4',
    }
}

/// An SGF text value: `\` and `]` escaped with a backslash.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::blokus::{MoveList, PieceKind, Rotation};

    use super::*;

    fn record(players: ClassicPlayers, moves: usize, names: &[&str]) -> ClassicRecord {
        let mut last = Classic::new(players);
        let mut list = MoveList::new();
        let mut placements = Vec::new();
        for _ in 0..moves {
            last.legal_moves(&mut list);
            let placement = list.get(list.len() / 2).expect("a move");
            last.play(&Move::Set(placement)).expect("legal");
            placements.push(placement);
        }
        ClassicRecord {
            players,
            names: names.iter().map(|n| (*n).to_owned()).collect(),
            placements,
            last,
        }
    }

    #[test]
    fn moves_are_cells_of_their_colour_in_pentobi_order() {
        let mut game = record(ClassicPlayers::Two, 0, &["a]b", "c\\d"]);
        let trio = Placement {
            color: Color::Blue,
            kind: PieceKind::TrioL,
            rotation: Rotation::None,
            flipped: false,
            x: 0,
            y: 0,
        };
        game.last.play(&Move::Set(trio)).expect("legal");
        game.placements.push(trio);
        let text = game.blksgf();
        assert!(
            text.starts_with("(;GM[Blokus Two-Player]FF[4]CA[UTF-8]AP[Spielleiter:"),
            "{text}"
        );
        assert!(text.contains("]PB[a\\]b]PW[c\\\\d]\nGC[blokus_classic_2 (Spielleiter)."));
        // TRIO_L at the top-left corner covers (0,0), (0,1), (1,1): a20,
        // a19, b19, written bottom row first, each row left to right.
        let mut cells: Vec<(i32, i32)> = trio.cells().collect();
        cells.sort_unstable();
        assert_eq!(cells, [(0, 0), (0, 1), (1, 1)]);
        assert!(text.ends_with("\n;1[a19,b19,a20])\n"), "{text}");
    }

    #[test]
    fn four_and_three_players_name_every_colour_and_no_pass() {
        let text = record(ClassicPlayers::Three, 9, &["x", "y", "z"]).blksgf();
        assert!(text.starts_with("(;GM[Blokus Three-Player]"), "{text}");
        assert!(!text.contains("PB["));
        let moves: Vec<&str> = text.lines().filter(|l| l.starts_with(';')).collect();
        assert_eq!(moves.len(), 9);
        for (index, line) in moves.iter().enumerate() {
            let property = ['1', '2', '3', '4'][index % 4];
            assert!(line.starts_with(&format!(";{property}[")), "{line}");
        }
        assert!(text.contains("\nGREEN is played in turn"), "{text}");
        assert!(
            record(ClassicPlayers::Four, 1, &[])
                .blksgf()
                .starts_with("(;GM[Blokus]")
        );
    }
}
