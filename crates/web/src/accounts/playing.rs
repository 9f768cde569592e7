//! The contest's matchdays being played as the live page shows them
//! (`GET /api/contest/playing`, issue 37): each matchday and knockout
//! round whose games the workers play now, how far they are, and the games
//! running — each with its encounter's teams only for whoever may see that
//! encounter (its two teams and the organisers until it is published:
//! [`Resource::Encounter`]), the worker holding it for organisers only.
//! Everybody sees that a matchday is being played and its counts (the
//! calendar shows its state to all); nobody else its line-up.
//!
//! Workers play a contest's games in their own processes, so a game's
//! moves are not streamed here: the list names the game and its
//! matchday's page, where its result appears once it is recorded.

use std::{collections::BTreeMap, sync::Arc};

use axum::{Json, extract::State};
use serde::Serialize;
use spielleiter_contest::{Action, PlayingMatchday, Resource, TeamId, Viewer};

use super::{
    bounded,
    results_pages::{matchday_title, phase_path},
};
use crate::{app::App, error::ApiError, route_access::Who};

/// `GET /api/contest/playing`.
#[derive(Debug, Serialize)]
pub(crate) struct PlayingList {
    matchdays: Vec<PlayingView>,
}

/// A matchday being played.
#[derive(Debug, Serialize)]
struct PlayingView {
    title: String,
    href: String,
    done: u32,
    running: u32,
    waiting: u32,
    failed: u32,
    /// The running games this viewer may see.
    games: Vec<PlayingGameView>,
    /// The running games this viewer may not see (their line-up is not
    /// published).
    hidden: usize,
}

/// A running game.
#[derive(Debug, Serialize)]
struct PlayingGameView {
    encounter: String,
    game: u32,
    /// The worker holding it (organisers only).
    #[serde(skip_serializing_if = "Option::is_none")]
    worker: Option<String>,
    /// When it began, in seconds since the epoch.
    since: Option<i64>,
}

fn view(day: PlayingMatchday, who: &Who, names: &BTreeMap<TeamId, String>) -> PlayingView {
    let name = |team: TeamId| {
        names
            .get(&team)
            .cloned()
            .unwrap_or_else(|| format!("team {team}"))
    };
    let organiser = matches!(who.viewer, Viewer::Organiser { .. });
    let published = day.matchday.published();
    let (shown, hidden): (Vec<_>, Vec<_>) = day.games.into_iter().partition(|game| {
        who.may(
            Action::View,
            &Resource::Encounter {
                teams: game.teams,
                published,
            },
        )
    });
    let entry = day.matchday;
    PlayingView {
        title: matchday_title(entry.phase, entry.number),
        href: if entry.phase == spielleiter_contest::Phase::Final {
            "/contest/final".to_owned()
        } else {
            format!(
                "/contest/matchdays/{}/{}",
                phase_path(entry.phase),
                entry.number
            )
        },
        done: day.done,
        running: day.running,
        waiting: day.waiting,
        failed: day.failed,
        hidden: hidden.len(),
        games: shown
            .into_iter()
            .map(|game| PlayingGameView {
                encounter: format!("{} – {}", name(game.teams[0]), name(game.teams[1])),
                game: game.number,
                worker: organiser.then_some(game.worker),
                since: game.started_ms.map(|ms| ms.div_euclid(1000)),
            })
            .collect(),
    }
}

/// `GET /api/contest/playing`: the matchdays being played; 404 where no
/// contest is served.
pub(crate) async fn playing(
    State(app): State<Arc<App>>,
    who: Who,
) -> Result<Json<PlayingList>, ApiError> {
    let missing = || ApiError::NotFound("no contest is served here".to_owned());
    let door = app.contest.as_ref().ok_or_else(missing)?;
    let source = door.results.as_ref().ok_or_else(missing)?;
    let failed = |error: spielleiter_contest::StoreError| {
        tracing::warn!(%error, "the contest's store failed");
        ApiError::Internal("the contest's store failed".to_owned())
    };
    let playing = bounded(source.results.playing()).await.map_err(failed)?;
    let names: BTreeMap<TeamId, String> = if playing.iter().any(|day| !day.games.is_empty()) {
        bounded(door.store.teams())
            .await
            .map_err(failed)?
            .into_iter()
            .map(|team| (team.id, team.name))
            .collect()
    } else {
        BTreeMap::new()
    };
    Ok(Json(PlayingList {
        matchdays: playing
            .into_iter()
            .map(|day| view(day, &who, &names))
            .collect(),
    }))
}

pub(crate) fn routes() -> axum::Router<Arc<App>> {
    axum::Router::new().route("/api/contest/playing", axum::routing::get(playing))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

    use crate::accounts::testing::Site;

    /// What `viewer` gets: per matchday its counts, the games it shows
    /// (encounter, game, worker) and how many it hides.
    async fn seen(site: &Site, name: Option<&str>) -> serde_json::Value {
        let mut browser = site.browser([198, 51, 100, 9]);
        if let Some(name) = name {
            browser.log_in(name).await;
        }
        let reply = browser.get("/api/contest/playing").await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        serde_json::from_str(&reply.body).unwrap()
    }

    #[tokio::test]
    async fn a_running_game_is_shown_to_whoever_may_see_its_encounter_and_its_worker_to_organisers()
    {
        let site = Site::new().await;
        let t = site.team("T").await;
        let u = site.team("U").await;
        let v = site.team("V").await;
        let w = site.team("W").await;
        site.organiser("Grace").await;
        site.teacher(t, "Tess").await;
        assert_eq!(
            seen(&site, None).await["matchdays"],
            serde_json::json!([]),
            "nothing is being played"
        );
        site.results
            .set_playing(3, 5, &[(31, t, u, 2, "w1"), (32, v, w, 4, "w2")]);

        let organiser = seen(&site, Some("Grace")).await;
        let day = &organiser["matchdays"][0];
        assert_eq!(day["title"], "Championship, matchday 3");
        assert_eq!(day["href"], "/contest/matchdays/championship/3");
        assert_eq!(
            (day["done"].as_u64(), day["running"].as_u64()),
            (Some(5), Some(2))
        );
        assert_eq!(day["hidden"], 0);
        assert_eq!(
            day["games"],
            serde_json::json!([
                {"encounter": "T – U", "game": 2, "worker": "w1", "since": 1_800_000_000},
                {"encounter": "V – W", "game": 4, "worker": "w2", "since": 1_800_000_000},
            ])
        );

        let teacher = seen(&site, Some("Tess")).await;
        let day = &teacher["matchdays"][0];
        assert_eq!(
            day["games"],
            serde_json::json!([{"encounter": "T – U", "game": 2, "since": 1_800_000_000}]),
            "its own encounter, without the worker"
        );
        assert_eq!(day["hidden"], 1);

        let anonymous = seen(&site, None).await;
        let day = &anonymous["matchdays"][0];
        assert_eq!(day["games"], serde_json::json!([]));
        assert_eq!(
            (day["hidden"].as_u64(), day["done"].as_u64()),
            (Some(2), Some(5))
        );
        assert!(!anonymous.to_string().contains("T –"), "{anonymous}");
    }
}
