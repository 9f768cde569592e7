//! A version's test games in the door (issue 36): the newest test's games
//! against the built-in `random` bot with their results, each game's
//! replay in the viewer, what the team's program printed in it (capped as
//! the workers keep it) and its wire log. A team's own and the organisers'
//! only ([`route_access`](crate::route_access), rule
//! `Resource::Versions`): another team never sees a team's programs' logs.
//!
//! The games are read from the test's season's archive (the one interface
//! to finished games), as an encounter's are: a game not in it yet is
//! waiting for a worker.

use std::sync::Arc;

use askama::Template;
use axum::{
    Json,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
    response::{Html, Response},
};
use spielleiter_archive::{Cause, GameArchive};
use spielleiter_contest::{TeamId, VersionNumber};

use super::{
    Door, archive_within, bounded,
    message::{Nav, render},
    pages::{Answer, Refusal, answer, door},
};
use crate::{app::App, error::ApiError, route_access::Who, viewer};

#[derive(Template)]
#[template(path = "contest/version_test.html")]
struct TestPage {
    nav: Nav,
    team: String,
    team_id: TeamId,
    number: u32,
    state: &'static str,
    tested: bool,
    planned: u32,
    games: Vec<TestGameRow>,
}

struct TestGameRow {
    number: u32,
    first: &'static str,
    result: String,
    end: &'static str,
    href: String,
}

/// What a cause means for the team's program.
fn end_text(cause: Cause) -> &'static str {
    match cause {
        Cause::Regular => "ended by the rules",
        Cause::Left => "left the game",
        Cause::RuleViolation => "broke a rule",
        Cause::SoftTimeout => "moved too late",
        Cause::HardTimeout => "sent no move in time",
        Cause::Unknown => "ended by the server",
        Cause::Crashed => "crashed before it joined",
        Cause::NoConnection => "never joined",
        Cause::Hung => "took too long",
    }
}

/// Why a test's games cannot be read.
enum Unread {
    /// No such version (or no versions kept here).
    NotFound,
    /// The store failed.
    Failed,
}

impl From<Unread> for Refusal {
    fn from(why: Unread) -> Refusal {
        match why {
            Unread::NotFound => no_versions(),
            Unread::Failed => failed(),
        }
    }
}

/// The archive of the newest test's games of `team`'s version `number`,
/// `None` before its first test.
async fn test_archive(
    door: &Door,
    team: TeamId,
    number: VersionNumber,
) -> Result<Option<Arc<dyn GameArchive>>, Unread> {
    let store = door.versions.as_ref().ok_or(Unread::NotFound)?;
    let season = match bounded(store.test_season(team, number)).await {
        Ok(Some(season)) => season,
        Ok(None) => return Ok(None),
        Err(spielleiter_contest::StoreError::NotFound(_)) => return Err(Unread::NotFound),
        Err(error) => {
            tracing::warn!(%error, "a version's test cannot be read");
            return Err(Unread::Failed);
        }
    };
    let source = door.results.as_ref().ok_or(Unread::NotFound)?;
    match archive_within(source.archives.archive(&season)).await {
        Ok(archive) => Ok(Some(archive)),
        Err(error) => {
            tracing::warn!(?error, season, "a test's games cannot be read");
            Err(Unread::Failed)
        }
    }
}

fn no_versions() -> Refusal {
    Refusal::new(
        StatusCode::NOT_FOUND,
        "No versions here",
        "This contest's store keeps no versions.",
    )
}

fn failed() -> Refusal {
    Refusal::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "Something failed",
        "The test's games could not be read; please try again later.",
    )
}

/// `GET /contest/teams/{team}/versions/{number}/test`.
pub(crate) async fn test_page(
    State(app): State<Arc<App>>,
    who: Who,
    Path((team, number)): Path<(TeamId, u32)>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let record = bounded(door.store.team(team)).await?;
        let contest = bounded(door.store.contest()).await?;
        let store = door.versions.as_ref().ok_or_else(no_versions)?;
        let version = bounded(store.team_versions(team))
            .await?
            .into_iter()
            .find(|v| v.number.0 == number)
            .ok_or_else(|| Refusal::new(StatusCode::NOT_FOUND, "Not found", "No such version."))?;
        let archive = test_archive(door, team, VersionNumber(number)).await?;
        let mut games = Vec::new();
        if let Some(archive) = &archive {
            let mut listed = read(archive.list()).await?;
            listed.sort_by_key(|game| game.key.parse::<u32>().unwrap_or(u32::MAX));
            for game in listed {
                let record = read(archive.record(&game.key)).await?;
                let (ours, theirs) = (
                    record.win_points.first().copied().unwrap_or(0),
                    record.win_points.get(1).copied().unwrap_or(0),
                );
                let points = |i: usize| record.points.get(i).copied().unwrap_or(0);
                games.push(TestGameRow {
                    number: record.game,
                    first: if record.starter == 1 {
                        "your program"
                    } else {
                        "random"
                    },
                    result: format!(
                        "{}, {}–{} points",
                        match ours.cmp(&theirs) {
                            std::cmp::Ordering::Greater => "won",
                            std::cmp::Ordering::Less => "lost",
                            std::cmp::Ordering::Equal => "drawn",
                        },
                        points(0),
                        points(1)
                    ),
                    end: record.causes.first().map_or("not known", |&c| end_text(c)),
                    href: format!("/contest/teams/{team}/versions/{number}/test/{}", game.key),
                });
            }
        }
        Ok(render(&TestPage {
            nav: Nav::of(&who),
            team: record.name,
            team_id: team,
            number,
            state: super::versions_pages::state_name(version.state),
            tested: archive.is_some(),
            planned: contest.settings.test_games,
            games,
        }))
    }
    .await;
    answer(&who, result)
}

/// The archive and key of test game `game`, as the JSON routes answer.
async fn test_game(app: &App, team: TeamId, number: u32) -> Result<Arc<dyn GameArchive>, ApiError> {
    let door = app
        .contest
        .as_ref()
        .ok_or_else(|| ApiError::NotFound("no contest".to_owned()))?;
    match test_archive(door, team, VersionNumber(number)).await {
        Ok(Some(archive)) => Ok(archive),
        Ok(None) => Err(ApiError::NotFound("the version was not tested".to_owned())),
        Err(Unread::NotFound) => Err(ApiError::NotFound("no such version".to_owned())),
        Err(Unread::Failed) => Err(ApiError::Internal("the contest's store failed".to_owned())),
    }
}

/// An archive's answer for a page: what it holds, or the failure's page.
async fn read<T>(call: spielleiter_archive::ArchiveFuture<'_, T>) -> Result<T, Refusal> {
    archive_within(call).await.map_err(|error| {
        tracing::warn!(?error, "a test's games cannot be read");
        failed()
    })
}

/// `GET /contest/teams/{team}/versions/{number}/test/{game}`: the replay
/// viewer's page (it reads the replay below).
pub(crate) async fn game_page() -> Html<&'static str> {
    crate::pages::replay().await
}

/// `GET …/test/{game}/replay`: the game as the viewer reads it, with the
/// program's log and the wire log as downloads where they are kept.
pub(crate) async fn game_replay(
    State(app): State<Arc<App>>,
    Path((team, number, game)): Path<(TeamId, u32, u32)>,
) -> Result<Json<viewer::ReplayView>, ApiError> {
    let archive = test_game(&app, team, number).await?;
    // The version plays first in a test's season (its player 0).
    Ok(Json(
        super::team_game_view(
            &*archive,
            game,
            0,
            &format!("/contest/teams/{team}/versions/{number}/test/{game}"),
            true,
            format!("version {number}, test game {game}"),
        )
        .await?,
    ))
}

/// `GET …/test/{game}/log`: what the team's program printed in the game.
pub(crate) async fn game_log(
    State(app): State<Arc<App>>,
    Path((team, number, game)): Path<(TeamId, u32, u32)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let archive = test_game(&app, team, number).await?;
    let stored = archive_within(archive.player_log(&game.to_string(), 0)).await?;
    Ok(crate::wire_log::text_response(stored, &headers))
}

/// `GET …/test/{game}/wire`: the game's wire log.
pub(crate) async fn game_wire(
    State(app): State<Arc<App>>,
    Path((team, number, game)): Path<(TeamId, u32, u32)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let archive = test_game(&app, team, number).await?;
    let stored = archive_within(archive.wire_log(&game.to_string())).await?;
    Ok(crate::wire_log::text_response(stored, &headers))
}

pub(crate) fn routes() -> axum::Router<Arc<App>> {
    use axum::routing::get;
    axum::Router::new()
        .route(
            "/contest/teams/{team}/versions/{number}/test",
            get(test_page),
        )
        .route(
            "/contest/teams/{team}/versions/{number}/test/{game}",
            get(game_page),
        )
        .route(
            "/contest/teams/{team}/versions/{number}/test/{game}/replay",
            get(game_replay),
        )
        .route(
            "/contest/teams/{team}/versions/{number}/test/{game}/log",
            get(game_log),
        )
        .route(
            "/contest/teams/{team}/versions/{number}/test/{game}/wire",
            get(game_wire),
        )
}
