//! The organiser's calendar in the door (issue 37): every matchday and
//! knockout round with the step its stage allows (freeze and schedule now,
//! publish, take the publication back, play failed games again), the form
//! for a new matchday and the one for the final — the `contest matchday …`
//! and `contest final …` commands on a page. Only organisers see or take
//! any of it ([`route_access`](crate::route_access), rule
//! `Resource::OrganiserPages`). Each step is one [`ContestCalendar::take`]:
//! the store refuses what its command refuses, with the same reason, and
//! the page says so.

use std::sync::Arc;

use askama::Template;
use axum::{
    Form,
    extract::{Path, State, rejection::FormRejection},
    http::StatusCode,
    response::Response,
};
use serde::Deserialize;
use spielleiter_contest::{
    BracketSize, CalendarDone, CalendarError, CalendarStep, ContestCalendar, KnockoutRound,
    MatchdayEntry, MatchdayStage, Phase, Timestamp,
};

use super::{
    Door, bounded,
    message::{Nav, render, render_message},
    pages::{Answer, Refusal, answer, door, fields, when},
    results_pages::{matchday_title, phase_of_path, phase_path},
};
use crate::{app::App, route_access::Who};

/// Where the calendar's forms go back to.
const CALENDAR: &str = "/contest/organiser/calendar";

/// The most a step may wait for the store: a matchday's freezing writes
/// every encounter's games in one transaction (300 teams: a few hundred
/// rows), longer than a page's read.
const STEP_TIME_LIMIT: std::time::Duration = std::time::Duration::from_secs(30);

fn calendar_of(door: &Door) -> Result<&Arc<dyn ContestCalendar>, Refusal> {
    door.calendar.as_ref().ok_or_else(|| {
        Refusal::new(
            StatusCode::NOT_FOUND,
            "No calendar here",
            "This contest's store keeps no matchdays.",
        )
    })
}

/// A button of a matchday's row: its step's address part and label.
struct StepButton {
    step: &'static str,
    label: &'static str,
    /// Whether the form asks whether the moves are timed (a knockout
    /// round's freeze: a matchday's were set when it was made).
    asks_timed: bool,
}

/// The buttons a matchday's (or round's) stage allows.
fn buttons(phase: Phase, stage: Option<MatchdayStage>) -> Vec<StepButton> {
    let button = |step, label| StepButton {
        step,
        label,
        asks_timed: false,
    };
    match stage {
        None => vec![StepButton {
            asks_timed: true,
            ..button("play", "Freeze and schedule now")
        }],
        Some(MatchdayStage::Planned) => vec![StepButton {
            asks_timed: phase == Phase::Final,
            ..button("play", "Freeze and schedule now")
        }],
        Some(MatchdayStage::Scheduled) => vec![button("retry", "Play its failed games again")],
        Some(MatchdayStage::Played) => vec![button("publish", "Publish")],
        Some(MatchdayStage::Published) => vec![button("unpublish", "Take the publication back")],
    }
}

#[derive(Template)]
#[template(path = "contest/calendar.html")]
struct CalendarPage {
    nav: Nav,
    contest: String,
    rows: Vec<CalendarRow>,
    phases: Vec<(&'static str, String)>,
    has_final: bool,
    bracket: &'static str,
}

struct CalendarRow {
    title: String,
    href: String,
    stage: &'static str,
    deadline: String,
    action: String,
    buttons: Vec<StepButton>,
}

fn row(entry: &MatchdayEntry) -> CalendarRow {
    CalendarRow {
        title: matchday_title(entry.phase, entry.number),
        href: if entry.phase == Phase::Final {
            "/contest/final".to_owned()
        } else {
            format!(
                "/contest/matchdays/{}/{}",
                phase_path(entry.phase),
                entry.number
            )
        },
        stage: entry.stage.title(),
        deadline: entry.deadline.map(when).unwrap_or_default(),
        action: format!(
            "/contest/organiser/matchdays/{}/{}",
            phase_path(entry.phase),
            entry.number
        ),
        buttons: buttons(entry.phase, Some(entry.stage)),
    }
}

/// `GET /contest/organiser/calendar`.
pub(crate) async fn calendar(State(app): State<Arc<App>>, who: Who) -> Answer {
    let result = async {
        let door = door(&app)?;
        calendar_of(door)?;
        let contest = bounded(door.store.contest()).await?;
        let results = door.results.as_ref().ok_or_else(|| {
            Refusal::new(
                StatusCode::NOT_FOUND,
                "No calendar here",
                "This contest's store keeps no matchdays.",
            )
        })?;
        let matchdays = bounded(results.results.matchdays()).await?;
        let knockout = bounded(results.results.knockout()).await?;
        let mut rows: Vec<CalendarRow> = matchdays
            .iter()
            .filter(|m| m.phase != Phase::Final)
            .map(row)
            .collect();
        if let Some(knockout) = &knockout {
            for round in &knockout.rounds {
                match &round.results {
                    Some(results) => rows.push(row(&results.matchday)),
                    None => rows.push(CalendarRow {
                        title: matchday_title(Phase::Final, round.round.number()),
                        href: "/contest/final".to_owned(),
                        stage: "waiting to be played",
                        deadline: String::new(),
                        action: format!(
                            "/contest/organiser/matchdays/final/{}",
                            round.round.number()
                        ),
                        buttons: buttons(Phase::Final, None),
                    }),
                }
            }
        }
        let phases = [Phase::Trial, Phase::Championship, Phase::ChampionsLeague]
            .into_iter()
            .map(|p| (phase_path(p), capitalise(p.title())))
            .collect();
        Ok(render(&CalendarPage {
            nav: Nav::of(&who),
            contest: contest.name,
            rows,
            phases,
            has_final: knockout.is_some(),
            bracket: match contest.settings.bracket {
                BracketSize::Four => "4",
                BracketSize::Eight => "8",
            },
        }))
    }
    .await;
    answer(&who, result)
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Takes `step` for `who` and answers with what it did, or the store's
/// reason for refusing it.
async fn take(door: &Door, who: &Who, step: CalendarStep) -> Result<Response, Refusal> {
    let calendar = calendar_of(door)?;
    let taken = tokio::time::timeout(STEP_TIME_LIMIT, calendar.take(step, door.now())).await;
    let done = match taken {
        Ok(Ok(done)) => done,
        Ok(Err(CalendarError::Refused(why))) => {
            tracing::info!(?step, %why, "an organiser's step on the calendar is refused");
            return Err(Refusal::new(
                StatusCode::CONFLICT,
                "Refused",
                super::pages::sentence(&why),
            ));
        }
        Ok(Err(CalendarError::Backend { store, cause })) => {
            tracing::warn!(?step, %store, %cause, "an organiser's step on the calendar failed");
            return Err(failed_store());
        }
        Err(_) => {
            tracing::warn!(?step, "an organiser's step on the calendar took too long");
            return Err(failed_store());
        }
    };
    let by = who
        .account
        .as_ref()
        .map_or("the administrator", |a| a.display_name.as_str());
    tracing::info!(
        ?step,
        by,
        games = done.games,
        "an organiser's step on the calendar"
    );
    Ok(render_message(
        &Nav::of(who),
        StatusCode::OK,
        "Done",
        &done_text(step, done),
        Some(CALENDAR),
    ))
}

fn failed_store() -> Refusal {
    Refusal::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "Something failed",
        "The contest's store failed; nothing may have changed. Please look at the calendar again.",
    )
}

fn games(n: u64) -> String {
    if n == 1 {
        "1 game".to_owned()
    } else {
        format!("{n} games")
    }
}

/// What a step did, for the organiser.
fn done_text(step: CalendarStep, done: CalendarDone) -> String {
    let title = matchday_title(done.phase, done.number);
    match step {
        CalendarStep::NewMatchday { deadline, .. } => match deadline {
            Some(at) => format!(
                "{title} is made. At its deadline, {}, a contest worker freezes and schedules it; \
                 “Freeze and schedule now” does it at once.",
                when(at)
            ),
            None => format!("{title} is made. “Freeze and schedule now” freezes and schedules it."),
        },
        CalendarStep::NewFinal { .. } => {
            format!("The final is made; its first round is {title}.")
        }
        CalendarStep::Play { .. } if !done.changed => {
            format!("{title} was scheduled before; nothing changed.")
        }
        CalendarStep::Play { .. } => format!(
            "{title} is frozen and scheduled: its {} wait for the contest workers.",
            games(done.games)
        ),
        CalendarStep::Publish { .. } => {
            format!("{title} is published: its line-up and results are everybody's.")
        }
        CalendarStep::Unpublish { .. } => format!(
            "{title} is no longer published: its results are the organisers' and each encounter's two teams' again."
        ),
        CalendarStep::RetryFailed { .. } => format!(
            "{} of {title} wait for the contest workers again.",
            games(done.games)
        ),
    }
}

/// The new matchday's fields.
#[derive(Deserialize)]
pub(crate) struct MatchdayFields {
    phase: String,
    #[serde(default)]
    deadline: String,
    #[serde(default)]
    untimed: Option<String>,
}

/// A deadline as the form sends it: a browser's `datetime-local`
/// (`2026-12-05T18:00`, read as UTC) or a time with its offset
/// (`2026-12-05T18:00:00+01:00`); empty for none.
fn deadline_of(text: &str) -> Result<Option<Timestamp>, Refusal> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let at = text
        .parse::<jiff::Timestamp>()
        .or_else(|_| {
            text.parse::<jiff::civil::DateTime>()
                .and_then(|t| t.to_zoned(jiff::tz::TimeZone::UTC))
                .map(|z| z.timestamp())
        })
        .map_err(|_| {
            Refusal::bad_input(format!(
                "The deadline “{text}” is no time; write it as 2026-12-05T18:00 (UTC) or with its offset."
            ))
        })?;
    Ok(Some(Timestamp(at.as_second())))
}

/// `POST /contest/organiser/matchdays`: a new matchday.
pub(crate) async fn new_matchday(
    State(app): State<Arc<App>>,
    who: Who,
    form: Result<Form<MatchdayFields>, FormRejection>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let fields = fields(form)?;
        let phase = phase_of_path(&fields.phase)
            .filter(|p| *p != Phase::Final)
            .ok_or_else(|| {
                Refusal::bad_input(
                    "Choose the phase: trial, championship or champions league (the final's rounds come with the final).",
                )
            })?;
        let step = CalendarStep::NewMatchday {
            phase,
            deadline: deadline_of(&fields.deadline)?,
            timed: fields.untimed.is_none(),
        };
        take(door, &who, step).await
    }
    .await;
    answer(&who, result)
}

/// The final's field.
#[derive(Deserialize)]
pub(crate) struct FinalFields {
    #[serde(default)]
    size: String,
}

/// `POST /contest/organiser/final`: the final's bracket.
pub(crate) async fn new_final(
    State(app): State<Arc<App>>,
    who: Who,
    form: Result<Form<FinalFields>, FormRejection>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let fields = fields(form)?;
        let size = match fields.size.trim() {
            "" => None,
            "4" => Some(BracketSize::Four),
            "8" => Some(BracketSize::Eight),
            _ => return Err(Refusal::bad_input("The final seeds 4 or 8 teams.")),
        };
        take(door, &who, CalendarStep::NewFinal { size }).await
    }
    .await;
    answer(&who, result)
}

/// A step button's field.
#[derive(Deserialize)]
pub(crate) struct StepFields {
    #[serde(default)]
    untimed: Option<String>,
}

/// `POST /contest/organiser/matchdays/{phase}/{number}/{step}`: play,
/// publish, unpublish or retry a matchday (the final's round of that
/// number for the phase `final`).
pub(crate) async fn matchday_step(
    State(app): State<Arc<App>>,
    who: Who,
    Path((phase, number, step)): Path<(String, u32, String)>,
    form: Result<Form<StepFields>, FormRejection>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let fields = fields(form)?;
        let not_found = || Refusal::new(StatusCode::NOT_FOUND, "Not found", "No such step.");
        let phase = phase_of_path(&phase).ok_or_else(not_found)?;
        if phase == Phase::Final && KnockoutRound::of_number(number).is_none() {
            return Err(not_found());
        }
        let step = match step.as_str() {
            "play" => CalendarStep::Play {
                phase,
                number,
                timed: fields.untimed.is_none(),
            },
            "publish" => CalendarStep::Publish { phase, number },
            "unpublish" => CalendarStep::Unpublish { phase, number },
            "retry" => CalendarStep::RetryFailed { phase, number },
            _ => return Err(not_found()),
        };
        take(door, &who, step).await
    }
    .await;
    answer(&who, result)
}

pub(crate) fn routes() -> axum::Router<Arc<App>> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route(CALENDAR, get(calendar))
        .route("/contest/organiser/matchdays", post(new_matchday))
        .route("/contest/organiser/final", post(new_final))
        .route(
            "/contest/organiser/matchdays/{phase}/{number}/{step}",
            post(matchday_step),
        )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.
    use super::*;

    #[test]
    fn a_deadline_is_read_as_utc_or_with_its_offset_and_nothing_else() {
        assert_eq!(deadline_of("").unwrap(), None);
        assert_eq!(
            deadline_of("2026-12-05T18:00").unwrap(),
            Some(Timestamp(1_796_493_600))
        );
        assert_eq!(
            deadline_of("2026-12-05T19:00:00+01:00").unwrap(),
            Some(Timestamp(1_796_493_600))
        );
        assert!(deadline_of("tomorrow").is_err());
        assert!(deadline_of("2026-13-05T18:00").is_err());
    }

    #[test]
    fn each_stage_offers_the_one_step_it_allows() {
        let steps =
            |phase, stage| -> Vec<&str> { buttons(phase, stage).iter().map(|b| b.step).collect() };
        assert_eq!(
            steps(Phase::Championship, Some(MatchdayStage::Planned)),
            ["play"]
        );
        assert_eq!(
            steps(Phase::Championship, Some(MatchdayStage::Scheduled)),
            ["retry"]
        );
        assert_eq!(
            steps(Phase::Championship, Some(MatchdayStage::Played)),
            ["publish"]
        );
        assert_eq!(
            steps(Phase::Final, Some(MatchdayStage::Published)),
            ["unpublish"]
        );
        assert_eq!(steps(Phase::Final, None), ["play"]);
        assert!(buttons(Phase::Final, None)[0].asks_timed);
        assert!(!buttons(Phase::Trial, Some(MatchdayStage::Planned))[0].asks_timed);
    }
}
