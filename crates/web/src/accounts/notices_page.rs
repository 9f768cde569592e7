//! A team's notices in the door (issue 36): what its members are told —
//! builds, tests, challenges, friendly encounters, a deadline near without
//! an active version — newest first. The team's members and the organisers
//! see them ([`route_access`](crate::route_access), rule
//! `Resource::Versions`). Mail is not sent yet: the page is where they are.

use std::sync::Arc;

use askama::Template;
use axum::{
    extract::{Path, State},
    http::StatusCode,
};
use spielleiter_contest::TeamId;

use super::{
    bounded,
    message::{Nav, render},
    pages::{Answer, Refusal, answer, door, when},
};
use crate::{app::App, route_access::Who};

#[derive(Template)]
#[template(path = "contest/notices.html")]
struct NoticesPage {
    nav: Nav,
    team: String,
    team_id: TeamId,
    notices: Vec<(String, String)>,
}

/// `GET /contest/teams/{team}/notices`.
pub(crate) async fn notices(
    State(app): State<Arc<App>>,
    who: Who,
    Path(team): Path<TeamId>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let record = bounded(door.store.team(team)).await?;
        let store = door.notices.as_ref().ok_or_else(|| {
            Refusal::new(
                StatusCode::NOT_FOUND,
                "No notices here",
                "This contest's store keeps no notices.",
            )
        })?;
        let notices = bounded(store.notices(team))
            .await?
            .into_iter()
            .map(|notice| (when(notice.at), notice.text))
            .collect();
        Ok(render(&NoticesPage {
            nav: Nav::of(&who),
            team: record.name,
            team_id: team,
            notices,
        }))
    }
    .await;
    answer(&who, result)
}

pub(crate) fn routes() -> axum::Router<Arc<App>> {
    axum::Router::new().route("/contest/teams/{team}/notices", axum::routing::get(notices))
}
