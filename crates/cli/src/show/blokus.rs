//! The 20×20 Blokus games for people: the seasons (2021, 2027) with seats
//! as teams with their colours, classic Blokus with seats, colours, points
//! and places. Their boards are drawn by the renderer (`spielleiter-render`).

use super::{GameView, Presentation};
use spielleiter_protocol::{Decimal, seats::seat_label};
use spielleiter_rules::{
    blokus::{ClassicPlayers, Color, Team},
    entry,
};

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
}

impl GameView for entry::Blokus2021 {
    const PRESENTATION: &'static dyn Presentation = &SwcBlokusPresentation;
}

impl GameView for entry::Blokus2027 {
    const PRESENTATION: &'static dyn Presentation = &SwcBlokusPresentation;
}

impl GameView for entry::BlokusClassic {
    const PRESENTATION: &'static dyn Presentation = &ClassicPresentation(ClassicPlayers::Four);
}

impl GameView for entry::BlokusClassic3 {
    const PRESENTATION: &'static dyn Presentation = &ClassicPresentation(ClassicPlayers::Three);
}

impl GameView for entry::BlokusClassic2 {
    const PRESENTATION: &'static dyn Presentation = &ClassicPresentation(ClassicPlayers::Two);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::show::result_text;
    use spielleiter_protocol::{
        GameType,
        dialect::ResultLayout,
        games::blokus2021::score_definition,
        result::{GameResult, PlayerScore, ScoreCause, Winner},
    };

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
