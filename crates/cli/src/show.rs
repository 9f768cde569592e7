//! Text pictures for people: a Blokus board with coordinates, and a game
//! result with names, points and causes. Used by `play` and `demo`.

use std::fmt::Write;

use spielleiter_protocol::{Decimal, result::GameResult};
use spielleiter_rules::blokus::{BOARD_SIZE, Blokus, Color, Team};

/// The board with column and row numbers; one letter per colour (`B`lue,
/// `Y`ellow, `R`ed, `G`reen), `.` for an empty field.
pub fn board_picture(game: &Blokus) -> String {
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
            out.push(match game.color_at(x, y) {
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

fn team_label(team: Team, names: &[String; 2]) -> String {
    let [a, b] = team.colors().map(Color::name);
    let name = &names[team.index()];
    if name.is_empty() {
        format!("team {} ({a}, {b})", team.name())
    } else {
        format!("{name} (team {}: {a}, {b})", team.name())
    }
}

fn number(value: Option<&Decimal>) -> String {
    value.map_or_else(|| "?".to_owned(), Decimal::to_string)
}

/// One line per team with its points and cause, then who won. `names` are
/// the display names of team ONE and team TWO.
pub fn result_text(result: &GameResult, names: &[String; 2]) -> String {
    let mut out = String::new();
    for (team, score) in [Team::One, Team::Two].into_iter().zip(&result.scores) {
        let _ = write!(
            out,
            "{}: {} points, {}",
            team_label(team, names),
            number(score.parts.get(1)),
            score.cause.name()
        );
        if !score.reason.is_empty() {
            let _ = write!(out, " ({})", score.reason);
        }
        out.push('\n');
    }
    match result.winners.as_slice() {
        [] => out.push_str("No winner.\n"),
        [winner] => {
            let _ = writeln!(out, "Winner: {}", team_label(winner.team, names));
        }
        _ => out.push_str("Draw.\n"),
    }
    out
}

#[cfg(test)]
mod tests {
    use spielleiter_protocol::{
        blokus2021::score_definition,
        result::{PlayerScore, ScoreCause, Winner},
    };
    use spielleiter_rules::blokus::{Move, MoveList, PieceKind};

    use super::*;

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
            cause,
            reason: String::new(),
            parts: vec![Decimal::integer(0), Decimal::integer(points)],
        };
        let result = GameResult {
            definition: score_definition(),
            scores: vec![
                score(ScoreCause::Regular, 87),
                score(ScoreCause::SoftTimeout, 65),
            ],
            winners: vec![Winner {
                display_name: "alice".to_owned(),
                team: Team::One,
            }],
        };
        let text = result_text(&result, &["alice".to_owned(), String::new()]);
        assert_eq!(
            text,
            "alice (team ONE: BLUE, RED): 87 points, REGULAR\n\
             team TWO (YELLOW, GREEN): 65 points, SOFT_TIMEOUT\n\
             Winner: alice (team ONE: BLUE, RED)\n"
        );
    }
}
