//! `/api/games`: the hosted games' ids and titles, as the rules catalogue
//! names them, so that the pages name games without a list of their own.

use axum::Json;
use serde::Serialize;
use spielleiter_rules::GameType;

/// One hosted game.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct GameView {
    /// The protocol id (`gameType`).
    pub id: &'static str,
    /// The title for people, e.g. `Blokus 2021`.
    pub title: &'static str,
}

/// Every game this server hosts (test builds: the test games too, as their
/// rooms show on the pages), in catalogue order.
pub fn games() -> Vec<GameView> {
    GameType::ALL
        .iter()
        .map(|game| GameView {
            id: game.id(),
            title: game.title(),
        })
        .collect()
}

/// `GET /api/games`.
pub async fn list() -> Json<Vec<GameView>> {
    Json(games())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hosted_game_is_named_once_by_its_catalogue_title() {
        let games = games();
        assert_eq!(games.len(), GameType::ALL.len());
        let blokus = games
            .iter()
            .find(|g| g.id == "swc_2021_blokus")
            .expect("hosted");
        assert_eq!(blokus.title, GameType::Blokus2021.title());
        let json = serde_json::to_string(&games).expect("serialisable");
        assert!(json.starts_with(r#"[{"id":""#), "{json}");
    }
}
