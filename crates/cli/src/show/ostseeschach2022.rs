//! Ostseeschach 2022 for people: seats as teams with their colour and
//! direction, ambers and the light pieces' lead as points. Its board is
//! drawn by the renderer (`spielleiter-render`).

use spielleiter_protocol::Decimal;
use spielleiter_rules::{entry, ostseeschach::Team};

use super::{GameView, Presentation};

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
}

impl GameView for entry::Ostseeschach2022 {
    const PRESENTATION: &'static dyn Presentation = &Ostseeschach2022;
}

#[cfg(test)]
mod tests {
    use spielleiter_protocol::{
        GameType,
        dialect::ResultLayout,
        games::ostseeschach2022::score_definition,
        result::{GameResult, PlayerScore, ScoreCause},
    };

    use super::*;
    use crate::show::result_text;

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
