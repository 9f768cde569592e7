//! Ostseeschach 2022 for people: seats as teams with their colour and
//! direction, ambers and the light pieces' lead as points, and the board
//! with coordinates.

use std::fmt::Write;

use spielleiter_protocol::Decimal;
use spielleiter_rules::{
    AnyGame,
    ostseeschach::{BOARD_SIZE, Coordinates, Ostseeschach, Team},
};

use super::Presentation;

/// Ostseeschach 2022's [`Presentation`].
#[derive(Clone, Copy, Debug)]
pub struct Ostseeschach2022;

/// How a team is described: its official colour and where it starts.
fn team_description(team: Team) -> &'static str {
    match team {
        Team::One => "red, from x = 0",
        Team::Two => "blue, from x = 7",
    }
}

impl Presentation for Ostseeschach2022 {
    fn seat(&self, seat: usize, name: &str) -> String {
        let team = Team::ALL[seat.min(1)];
        let description = team_description(team);
        if name.is_empty() {
            format!("team {team} ({description})")
        } else {
            format!("{name} (team {team}: {description})")
        }
    }

    /// `N ambers, light pieces K ahead` from the parts `Bernsteine` and
    /// `Leichtfiguren Vorne`.
    fn points(&self, parts: &[Decimal]) -> String {
        let part = |index: usize| {
            parts
                .get(index)
                .map_or_else(|| "?".to_owned(), Decimal::to_string)
        };
        format!("{} ambers, light pieces {} ahead", part(0), part(1))
    }

    fn picture(&self, game: &AnyGame) -> Option<String> {
        let AnyGame::Ostseeschach2022(game) = game else {
            return None;
        };
        Some(format!(
            "The game ended after {} turns, ambers ONE {} : TWO {}.\n\n{}    capitals: team ONE, small: team TWO · H Herzmuschel, M Moewe, S Seestern,\n    R Robbe · a tower shows its top piece and its height (e.g. R2)\n",
            game.turn(),
            game.ambers(Team::One),
            game.ambers(Team::Two),
            board_picture(game)
        ))
    }
}

/// The board with column (x) and row (y) numbers; each field two
/// characters as the official server draws them (`RR` a Robbe of ONE, `h2`
/// a tower of TWO with a Herzmuschel on top, `--` empty).
pub fn board_picture(game: &Ostseeschach) -> String {
    let mut out = String::from("    ");
    for x in 0..BOARD_SIZE {
        let _ = write!(out, "{x:<3}");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    for y in 0..BOARD_SIZE as i32 {
        let _ = write!(out, "{y:>2}  ");
        for x in 0..BOARD_SIZE as i32 {
            if x > 0 {
                out.push(' ');
            }
            match game.piece_at(Coordinates::new(x, y)) {
                Some(piece) => {
                    let _ = write!(out, "{piece}");
                }
                None => out.push_str("--"),
            }
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
        games::ostseeschach2022::score_definition,
        result::{GameResult, PlayerScore, ScoreCause},
    };
    use spielleiter_rules::ostseeschach::{Move, StartLine};

    use super::*;
    use crate::show::result_text;

    #[test]
    fn the_board_shows_pieces_and_towers_with_coordinates() {
        let mut game = Ostseeschach::new("RHSMHRMS".parse::<StartLine>().expect("a line"));
        for mv in [
            Move::new(0, 5, 2, 4),
            Move::new(7, 2, 5, 3),
            Move::new(2, 4, 4, 5),
        ] {
            game.play(&mv).expect("legal");
        }
        game.play(&Move::new(5, 3, 4, 5))
            .expect("TWO's Robbe captures");
        let picture = board_picture(&game);
        let lines: Vec<&str> = picture.lines().collect();
        assert_eq!(lines.len(), 1 + BOARD_SIZE);
        assert_eq!(lines[0], "    0  1  2  3  4  5  6  7");
        assert_eq!(lines[1], " 0  RR -- -- -- -- -- -- ss");
        assert_eq!(&lines[6][4..], "-- -- -- -- r2 -- -- ss");
        assert_eq!(picture.matches("--").count(), 64 - 15);
    }

    #[test]
    fn results_name_teams_ambers_lead_and_the_winner() {
        let score = |cause, parts: [i64; 3]| PlayerScore {
            display_name: String::new(),
            cause,
            reason: String::new(),
            parts: parts.into_iter().map(Decimal::integer).collect(),
        };
        let result = GameResult {
            layout: ResultLayout::Season2022,
            definition: score_definition(),
            scores: vec![
                score(ScoreCause::Regular, [1, 1, 3]),
                score(ScoreCause::Regular, [1, 1, 3]),
            ],
            winners: Vec::new(),
            conclusion: None,
        };
        let text = result_text(
            GameType::Ostseeschach2022,
            &result,
            &["alice".to_owned(), String::new()],
        );
        assert_eq!(
            text,
            "alice (team ONE: red, from x = 0): 1 ambers, light pieces 3 ahead, REGULAR\n\
             team TWO (blue, from x = 7): 1 ambers, light pieces 3 ahead, REGULAR\n\
             No winner.\n"
        );
    }
}
