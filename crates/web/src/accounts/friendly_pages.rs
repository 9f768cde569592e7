//! A team's friendly games in the door (issue 36): its challenges made and
//! received with their state and score, Accept / Decline / Withdraw as the
//! model allows, the form to challenge one team or every team with the
//! hour's limit shown, and each played game's replay in the viewer with
//! the team's own program's log of it. The team's members and the
//! organisers see it; only its members challenge and answer
//! ([`route_access`](crate::route_access), rule `Resource::Versions`); a
//! challenge's games are shown under either of its two teams only, and
//! under each its own program's log only, never the other's. Friendly
//! games never count.

use std::{collections::BTreeMap, sync::Arc};

use askama::Template;
use axum::{
    Form, Json,
    extract::{Path, State, rejection::FormRejection},
    http::{HeaderMap, StatusCode},
    response::{Html, Response},
};
use serde::Deserialize;
use spielleiter_archive::GameArchive;
use spielleiter_contest::{
    Action, Challenge, ChallengeAnswer, ChallengeId, ChallengeState, FriendlyGames, Resource, Side,
    StoreError, TeamId,
};

use super::{
    Door, bounded,
    message::{Nav, render},
    pages::{Answer, Refusal, answer, door, fields, refused_as, see_other, when},
};
use crate::{app::App, error::ApiError, route_access::Who, viewer};

fn friendly_of(door: &Door) -> Result<&Arc<dyn FriendlyGames>, Refusal> {
    door.friendly.as_ref().ok_or_else(|| {
        Refusal::new(
            StatusCode::NOT_FOUND,
            "No friendly games here",
            "This contest's store keeps no friendly games.",
        )
    })
}

#[derive(Template)]
#[template(path = "contest/friendly.html")]
struct FriendlyPage {
    nav: Nav,
    team: String,
    team_id: TeamId,
    may_change: bool,
    limit: u32,
    left: u32,
    others: Vec<(TeamId, String)>,
    rows: Vec<ChallengeRow>,
}

struct ChallengeRow {
    id: i64,
    other: String,
    made_by_us: bool,
    created: String,
    state: &'static str,
    score: String,
    answers: Vec<(&'static str, &'static str)>,
    games: Vec<u32>,
}

fn state_name(state: ChallengeState) -> &'static str {
    match state {
        ChallengeState::Open => "waiting for an answer",
        ChallengeState::Accepted => "accepted: its games wait for the workers",
        ChallengeState::Declined => "declined",
        ChallengeState::Withdrawn => "withdrawn",
        ChallengeState::Played => "played",
    }
}

/// `GET /contest/teams/{team}/friendly`.
pub(crate) async fn friendly(
    State(app): State<Arc<App>>,
    who: Who,
    Path(team): Path<TeamId>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let record = bounded(door.store.team(team)).await?;
        let store = friendly_of(door)?;
        let names: BTreeMap<TeamId, String> = bounded(door.store.teams())
            .await?
            .into_iter()
            .map(|t| (t.id, t.name))
            .collect();
        let name = |t: TeamId| {
            names
                .get(&t)
                .cloned()
                .unwrap_or_else(|| format!("team {t}"))
        };
        let may_change = who.may(Action::Change, &Resource::Versions { team });
        let rate = bounded(store.rate(team, door.now())).await?;
        let rows = bounded(store.challenges(team))
            .await?
            .into_iter()
            .map(|entry| {
                let c = entry.challenge;
                let made_by_us = c.challenger == team;
                let ours = if made_by_us { Side::Home } else { Side::Away };
                let (mut won, mut lost) = (0, 0);
                for result in entry.games.iter().flatten() {
                    match result.winner {
                        Some(side) if side == ours => won += 1,
                        Some(_) => lost += 1,
                        None => {}
                    }
                }
                let played = entry.games.iter().flatten().count();
                let answers = match (c.state, made_by_us, may_change) {
                    (ChallengeState::Open, false, true) => {
                        vec![("accept", "Accept"), ("decline", "Decline")]
                    }
                    (ChallengeState::Open, true, true) => vec![("withdraw", "Withdraw")],
                    _ => Vec::new(),
                };
                ChallengeRow {
                    id: c.id.0,
                    other: name(if made_by_us {
                        c.challenged
                    } else {
                        c.challenger
                    }),
                    made_by_us,
                    created: when(c.created_at),
                    state: state_name(c.state),
                    score: if entry.games.is_empty() {
                        String::new()
                    } else {
                        format!(
                            "{won}–{lost} in games won ({played} of {} played)",
                            entry.games.len()
                        )
                    },
                    answers,
                    games: (1..)
                        .zip(&entry.games)
                        .filter(|(_, g)| g.is_some())
                        .map(|(n, _)| n)
                        .collect(),
                }
            })
            .collect();
        Ok(render(&FriendlyPage {
            nav: Nav::of(&who),
            team: record.name,
            team_id: team,
            may_change,
            limit: rate.limit,
            left: rate.limit.saturating_sub(rate.used),
            others: names
                .iter()
                .filter(|(id, _)| **id != team)
                .map(|(id, n)| (*id, n.clone()))
                .collect(),
            rows,
        }))
    }
    .await;
    answer(&who, result)
}

/// The challenge form's field: a team's id, or `all`.
#[derive(Deserialize)]
pub(crate) struct ChallengeFields {
    to: String,
}

/// `POST /contest/teams/{team}/friendly`: challenges one team or all.
pub(crate) async fn challenge(
    State(app): State<Arc<App>>,
    who: Who,
    Path(team): Path<TeamId>,
    form: Result<Form<ChallengeFields>, FormRejection>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let fields = fields(form)?;
        let to = match fields.to.trim() {
            "all" => None,
            id => Some(TeamId(id.parse().map_err(|_| {
                Refusal::bad_input("Choose the team to challenge, or every team.")
            })?)),
        };
        let made = bounded(friendly_of(door)?.challenge(team, to, door.now()))
            .await
            .map_err(refused_as("Not done"))?;
        tracing::info!(
            team = team.0,
            challenges = made.len(),
            "a team challenged others to friendly games"
        );
        Ok(see_other(&format!("/contest/teams/{team}/friendly")))
    }
    .await;
    answer(&who, result)
}

/// `POST /contest/teams/{team}/friendly/{challenge}/{answer}`.
pub(crate) async fn answer_challenge(
    State(app): State<Arc<App>>,
    who: Who,
    Path((team, challenge, reply)): Path<(TeamId, i64, String)>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let reply = match reply.as_str() {
            "accept" => ChallengeAnswer::Accept,
            "decline" => ChallengeAnswer::Decline,
            "withdraw" => ChallengeAnswer::Withdraw,
            _ => {
                return Err(Refusal::new(
                    StatusCode::NOT_FOUND,
                    "Not found",
                    "No such answer.",
                ));
            }
        };
        bounded(friendly_of(door)?.answer(team, ChallengeId(challenge), reply, door.now()))
            .await
            .map_err(refused_as("Not done"))?;
        Ok(see_other(&format!("/contest/teams/{team}/friendly")))
    }
    .await;
    answer(&who, result)
}

/// `GET /contest/teams/{team}/friendly/{challenge}/games/{game}`: the
/// replay viewer's page.
pub(crate) async fn game_page() -> Html<&'static str> {
    crate::pages::replay().await
}

/// Which of a friendly season's players `team`'s program is: the season
/// is scheduled with the challenger as its first player and the
/// challenged as its second (seats alternate from game to game, the
/// players' indices do not); `None` for a team not in the challenge.
fn player_of(challenge: &Challenge, team: TeamId) -> Option<usize> {
    if team == challenge.challenger {
        Some(0)
    } else if team == challenge.challenged {
        Some(1)
    } else {
        None
    }
}

/// The archive of challenge `challenge`'s games as `team` reads it, and
/// which of its players is `team`'s program.
async fn friendly_games(
    app: &App,
    team: TeamId,
    challenge: ChallengeId,
) -> Result<(Arc<dyn GameArchive>, usize), ApiError> {
    let missing = |what: &str| ApiError::NotFound(format!("no such {what}"));
    let store_failed = |error: StoreError| match error {
        StoreError::NotFound(what) => missing(what),
        other => ApiError::Internal(other.to_string()),
    };
    let door = app.contest.as_ref().ok_or_else(|| missing("contest"))?;
    let store = door.friendly.as_ref().ok_or_else(|| missing("challenge"))?;
    let player = bounded(store.challenges(team))
        .await
        .map_err(store_failed)?
        .iter()
        .find(|entry| entry.challenge.id == challenge)
        .and_then(|entry| player_of(&entry.challenge, team))
        .ok_or_else(|| missing("challenge"))?;
    let season = bounded(store.friendly_season(team, challenge))
        .await
        .map_err(store_failed)?;
    let source = door.results.as_ref().ok_or_else(|| missing("game"))?;
    let archive = super::archive_within(source.archives.archive(&season)).await?;
    Ok((archive, player))
}

/// `GET …/games/{game}/replay`: a friendly game as the viewer reads it,
/// with the team's own program's log as a download where it is kept.
pub(crate) async fn game_replay(
    State(app): State<Arc<App>>,
    Path((team, challenge, game)): Path<(TeamId, i64, u32)>,
) -> Result<Json<viewer::ReplayView>, ApiError> {
    let (archive, player) = friendly_games(&app, team, ChallengeId(challenge)).await?;
    Ok(Json(
        super::team_game_view(
            &*archive,
            game,
            player,
            &format!("/contest/teams/{team}/friendly/{challenge}/games/{game}"),
            false,
            format!("friendly {challenge}, game {game}"),
        )
        .await?,
    ))
}

/// `GET …/games/{game}/log`: what the team's own program printed in the
/// game (the other team's program's log is that team's).
pub(crate) async fn game_log(
    State(app): State<Arc<App>>,
    Path((team, challenge, game)): Path<(TeamId, i64, u32)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (archive, player) = friendly_games(&app, team, ChallengeId(challenge)).await?;
    let stored = super::archive_within(archive.player_log(&game.to_string(), player)).await?;
    Ok(crate::wire_log::text_response(stored, &headers))
}

pub(crate) fn routes() -> axum::Router<Arc<App>> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route(
            "/contest/teams/{team}/friendly",
            get(friendly).post(challenge),
        )
        .route(
            "/contest/teams/{team}/friendly/{challenge}/{answer}",
            post(answer_challenge),
        )
        .route(
            "/contest/teams/{team}/friendly/{challenge}/games/{game}",
            get(game_page),
        )
        .route(
            "/contest/teams/{team}/friendly/{challenge}/games/{game}/replay",
            get(game_replay),
        )
        .route(
            "/contest/teams/{team}/friendly/{challenge}/games/{game}/log",
            get(game_log),
        )
}

#[cfg(test)]
mod tests {
    use spielleiter_contest::Timestamp;

    use super::*;

    #[test]
    fn each_team_reads_its_own_programs_log_only() {
        let challenge = Challenge {
            id: ChallengeId(4),
            challenger: TeamId(7),
            challenged: TeamId(3),
            created_at: Timestamp(0),
            state: ChallengeState::Played,
        };
        // The season's first player is the challenger, whoever moves first.
        assert_eq!(player_of(&challenge, TeamId(7)), Some(0));
        assert_eq!(player_of(&challenge, TeamId(3)), Some(1));
        assert_eq!(player_of(&challenge, TeamId(5)), None);
    }
}
