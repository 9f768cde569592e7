//! A team's notices in the door (issue 36): what its members are told —
//! builds, tests, challenges, friendly encounters, a deadline near without
//! an active version — newest first, those a member has not marked as read
//! marked "new" for them, and the member's "Mark as read". The team's
//! members and the organisers see them ([`route_access`](crate::route_access),
//! rule `Resource::Versions`); only members keep a read mark.

use std::sync::Arc;

use askama::Template;
use axum::{
    Form,
    extract::{Path, State, rejection::FormRejection},
    http::StatusCode,
};
use serde::Deserialize;
use spielleiter_contest::{AccountKind, NoticeId, TeamId, TeamNotices};

use super::{
    Door, bounded,
    message::{Nav, render},
    pages::{Answer, Refusal, answer, door, fields, refused_as, see_other, when},
};
use crate::{app::App, route_access::Who};

fn notices_of(door: &Door) -> Result<&Arc<dyn TeamNotices>, Refusal> {
    door.notices.as_ref().ok_or_else(|| {
        Refusal::new(
            StatusCode::NOT_FOUND,
            "No notices here",
            "This contest's store keeps no notices.",
        )
    })
}

#[derive(Template)]
#[template(path = "contest/notices.html")]
struct NoticesPage {
    nav: Nav,
    team: String,
    team_id: TeamId,
    notices: Vec<NoticeRow>,
    /// The newest notice shown, where the viewer keeps a read mark and
    /// has not read it: what "Mark as read" marks up to.
    mark_up_to: Option<i64>,
    unread: usize,
}

struct NoticeRow {
    when: String,
    text: String,
    unread: bool,
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
        let store = notices_of(door)?;
        let notices = bounded(store.notices(team)).await?;
        // Only a member of the team has a mark; an organiser's reading
        // marks nothing.
        let member = who.account.as_ref().and_then(|account| match account.kind {
            AccountKind::Member { team: of, .. } if of == team => Some(account.id),
            _ => None,
        });
        let last_read = match member {
            Some(member) => Some(bounded(store.last_read(team, member)).await?),
            None => None,
        };
        let is_unread = |id: NoticeId| match last_read {
            Some(Some(mark)) => id > mark,
            Some(None) => true,
            None => false,
        };
        let newest = notices.first().map(|n| n.id);
        let rows: Vec<NoticeRow> = notices
            .into_iter()
            .map(|notice| NoticeRow {
                when: when(notice.at),
                unread: is_unread(notice.id),
                text: notice.text,
            })
            .collect();
        let unread = rows.iter().filter(|row| row.unread).count();
        Ok(render(&NoticesPage {
            nav: Nav::of(&who),
            team: record.name,
            team_id: team,
            mark_up_to: newest.filter(|_| unread > 0).map(|id| id.0),
            unread,
            notices: rows,
        }))
    }
    .await;
    answer(&who, result)
}

/// The "Mark as read" form's field: the newest notice the page showed.
#[derive(Deserialize)]
pub(crate) struct ReadFields {
    up_to: i64,
}

/// `POST /contest/teams/{team}/notices/read`: marks the team's notices up
/// to the one named as read by the member signed in.
pub(crate) async fn mark_read(
    State(app): State<Arc<App>>,
    who: Who,
    Path(team): Path<TeamId>,
    form: Result<Form<ReadFields>, FormRejection>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let fields = fields(form)?;
        let member = who.account.as_ref().map(|a| a.id).ok_or_else(|| {
            Refusal::new(
                StatusCode::CONFLICT,
                "Not done",
                "Only the team's members keep a read mark on its notices.",
            )
        })?;
        bounded(notices_of(door)?.mark_read(team, member, NoticeId(fields.up_to)))
            .await
            .map_err(refused_as("Not done"))?;
        Ok(see_other(&format!("/contest/teams/{team}/notices")))
    }
    .await;
    answer(&who, result)
}

pub(crate) fn routes() -> axum::Router<Arc<App>> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/contest/teams/{team}/notices", get(notices))
        .route("/contest/teams/{team}/notices/read", post(mark_read))
}
