//! The 20×20 Blokus games for people: the seasons (2021, 2027) with seats
//! as teams with their colours, classic Blokus with seats, colours, points
//! and places, and the board with coordinates.

use std::fmt::Write;

use spielleiter_protocol::Decimal;
use spielleiter_protocol::seats::seat_label;
use spielleiter_rules::{
    AnyGame,
    blokus::{
        BOARD_SIZE, Classic, ClassicPlayers, Color, SwcBlokus, SwcVariant, Team, variant::EndRule,
    },
};

use super::Presentation;

/// The [`Presentation`] of the Blokus seasons.
#[derive(Clone, Copy, Debug)]
pub struct SwcBlokusPresentation;

impl Presentation for SwcBlokusPresentation {
    fn seat(&self, seat: usize, name: &str) -> String {
        let team = Team::ALL[seat.min(1)];
        let [a, b] = team.colors().map(Color::name);
        if name.is_empty() {
            format!("team {} ({a}, {b})", team.name())
        } else {
            format!("{name} (team {}: {a}, {b})", team.name())
        }
    }

    fn points(&self, parts: &[Decimal]) -> String {
        let points = parts
            .first()
            .map_or_else(|| "?".to_owned(), Decimal::to_string);
        format!("{points} points")
    }

    fn picture(&self, game: &AnyGame) -> Option<String> {
        match game {
            AnyGame::Blokus2021(game) => Some(final_position(game)),
            AnyGame::Blokus2027(game) => Some(final_position(game)),
            _ => None,
        }
    }
}

/// The last round a game of the season `V` can reach (its turn limit ends
/// the game then).
fn last_round<V: SwcVariant>() -> u32 {
    match V::END {
        EndRule::TurnLimit(turns) | EndRule::TurnLimitOrFinishedRound(turns) => turns / 4,
        EndRule::NoColorLeft => u32::MAX,
    }
}

/// The final position with a line on the start piece and the game's length.
fn final_position<V: SwcVariant>(game: &SwcBlokus<V>) -> String {
    format!(
        "Start piece {}; the game ended after {} turns (round {}).\n\n{}    B blue, R red: team ONE · Y yellow, G green: team TWO\n",
        game.start_piece(),
        game.turn(),
        game.round().min(last_round::<V>()),
        board_picture(game)
    )
}

/// The [`Presentation`] of classic Blokus for `players`.
#[derive(Clone, Copy, Debug)]
pub struct ClassicPresentation(pub ClassicPlayers);

impl Presentation for ClassicPresentation {
    /// `alice (seat ONE: BLUE, RED)`; in the three-player game GREEN,
    /// played in turn, is named with nobody.
    fn seat(&self, seat: usize, name: &str) -> String {
        let colors: Vec<&str> = if seat < self.0.count() {
            self.0
                .scoring_colors(seat)
                .iter()
                .map(|c| c.name())
                .collect()
        } else {
            Vec::new()
        };
        let label = seat_label(seat);
        let colors = colors.join(", ");
        if name.is_empty() {
            format!("seat {label} ({colors})")
        } else {
            format!("{name} (seat {label}: {colors})")
        }
    }

    /// `87 points, place 1`.
    fn points(&self, parts: &[Decimal]) -> String {
        let part = |i: usize| {
            parts
                .get(i)
                .map_or_else(|| "?".to_owned(), Decimal::to_string)
        };
        format!("{} points, place {}", part(0), part(1))
    }

    fn picture(&self, game: &AnyGame) -> Option<String> {
        match game {
            AnyGame::BlokusClassic(game)
            | AnyGame::BlokusClassic3(game)
            | AnyGame::BlokusClassic2(game) => Some(classic_position(game)),
            _ => None,
        }
    }
}

/// The final position of a classic game with each colour's points.
fn classic_position(game: &Classic) -> String {
    let points: Vec<String> = Color::ALL
        .iter()
        .map(|&c| format!("{} {}", c.name(), game.color_points(c)))
        .collect();
    format!(
        "The game ended after {} turns; points by colour: {}.\n\n{}    B blue, Y yellow, R red, G green\n",
        game.turn(),
        points.join(", "),
        board_of(|x, y| game.color_at(x, y))
    )
}

/// The board with column and row numbers; one letter per colour (`B`lue,
/// `Y`ellow, `R`ed, `G`reen), `.` for an empty field.
pub fn board_picture<V: SwcVariant>(game: &SwcBlokus<V>) -> String {
    board_of(|x, y| game.color_at(x, y))
}

/// The board of `color_at` (see [`board_picture`]).
fn board_of(color_at: impl Fn(i32, i32) -> Option<Color>) -> String {
    let mut out = String::from("    ");
    for x in 0..BOARD_SIZE {
        out.push(char::from(b'0' + (x / 10) as u8));
    }
    out.push_str("\n    ");
    for x in 0..BOARD_SIZE {
        out.push(char::from(b'0' + (x % 10) as u8));
    }
    out.push('\n');
    for y in 0..BOARD_SIZE as i32 {
        let _ = write!(out, "{y:>2}  ");
        for x in 0..BOARD_SIZE as i32 {
            out.push(match color_at(x, y) {
                Some(Color::Blue) => 'B',
                Some(Color::Yellow) => 'Y',
                Some(Color::Red) => 'R',
                Some(Color::Green) => 'G',
                None => '.',
            });
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use spielleiter_protocol::{
        GameType,
        dialect::ResultLayout,
        games::blokus2021::score_definition,
        result::{GameResult, PlayerScore, ScoreCause, Winner},
    };
    use spielleiter_rules::blokus::{Blokus, Move, MoveList, PieceKind};

    use super::*;
    use crate::show::result_text;

    #[test]
    fn the_board_shows_pieces_by_colour_with_coordinates() {
        let mut game = Blokus::new(PieceKind::PentoI);
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        let first = moves.get(0).expect("a move");
        game.play(&Move::Set(first)).expect("legal");
        let picture = board_picture(&game);
        let lines: Vec<&str> = picture.lines().collect();
        assert_eq!(lines.len(), 2 + BOARD_SIZE);
        assert_eq!(lines[1], "    01234567890123456789");
        assert_eq!(picture.matches('B').count(), 5);
        assert_eq!(picture.matches('.').count(), 400 - 5);
    }

    #[test]
    fn results_name_teams_points_causes_and_the_winner() {
        let score = |cause, points| PlayerScore {
            display_name: String::new(),
            cause,
            reason: String::new(),
            parts: vec![Decimal::integer(0), Decimal::integer(points)],
        };
        let result = GameResult {
            layout: ResultLayout::Season2021,
            definition: score_definition(),
            scores: vec![
                score(ScoreCause::Regular, 87),
                score(ScoreCause::SoftTimeout, 65),
            ],
            winners: vec![Winner {
                display_name: "alice".to_owned(),
                seat: 0,
            }],
            conclusion: None,
        };
        let text = result_text(
            GameType::Blokus2021,
            &result,
            &["alice".to_owned(), String::new()],
        );
        assert_eq!(
            text,
            "alice (team ONE: BLUE, RED): 87 points, REGULAR\n\
             team TWO (YELLOW, GREEN): 65 points, SOFT_TIMEOUT\n\
             Winner: alice (team ONE: BLUE, RED)\n"
        );
    }
}
