//! The door's pages of one message — refusals of the access rule, a form
//! out of date, no contest served, and each page's notices — and the header
//! every page of the door shows ([`Nav`]). Below both the pages and the
//! access rule, which answer with them.

use askama::Template;
use axum::{
    http::StatusCode,
    response::{Html, IntoResponse, Response},
};
use spielleiter_contest::{Account, Viewer};
use tracing::warn;

/// What every page's header shows.
#[derive(Debug, Default)]
pub(crate) struct Nav {
    /// Who is signed in, by name.
    pub(super) name: Option<String>,
    /// Whether anyone is (the logout button).
    pub(super) signed_in: bool,
    /// The CSRF token of the session's forms.
    pub(super) csrf: String,
    /// The viewer's own page (their team's, or the organiser's).
    pub(super) home: Option<String>,
    pub(super) home_label: &'static str,
}

impl Nav {
    /// The header of `viewer` (signed in as `account`, with the session's
    /// `csrf` token for the logout button).
    pub(crate) fn new(viewer: Viewer, account: Option<&Account>, csrf: Option<&str>) -> Nav {
        let (home, home_label) = match viewer {
            Viewer::Member { team, .. } => (Some(format!("/contest/teams/{team}")), "Your team"),
            Viewer::Organiser { .. } => (Some("/contest/organiser".to_owned()), "Organise"),
            Viewer::Anonymous => (None, ""),
        };
        let name = match (account, viewer) {
            (Some(account), _) => Some(account.display_name.clone()),
            (None, Viewer::Organiser { .. }) => Some("the administrator".to_owned()),
            _ => None,
        };
        Nav {
            signed_in: name.is_some(),
            name,
            csrf: csrf.unwrap_or_default().to_owned(),
            home,
            home_label,
        }
    }
}

#[derive(Template)]
#[template(path = "contest/message.html")]
struct MessagePage<'a> {
    nav: Nav,
    title: &'a str,
    text: &'a str,
    error: bool,
    back: &'a str,
    back_label: &'a str,
}

/// A page of one message with `status` (an error when it is no success),
/// and the way back to `back` (the contest's page by default).
pub(crate) fn message(status: StatusCode, title: &str, text: &str, back: Option<&str>) -> Response {
    render_message(&Nav::default(), status, title, text, back)
}

pub(super) fn render_message(
    nav: &Nav,
    status: StatusCode,
    title: &str,
    text: &str,
    back: Option<&str>,
) -> Response {
    let page = MessagePage {
        nav: Nav {
            name: nav.name.clone(),
            signed_in: nav.signed_in,
            csrf: nav.csrf.clone(),
            home: nav.home.clone(),
            home_label: nav.home_label,
        },
        title,
        text,
        error: !status.is_success() && !status.is_redirection(),
        back: back.unwrap_or("/contest"),
        back_label: if back.is_some() {
            "Back"
        } else {
            "The contest's page"
        },
    };
    (status, render(&page)).into_response()
}

pub(super) fn render(page: &impl Template) -> Response {
    match page.render() {
        Ok(html) => Html(html).into_response(),
        Err(error) => {
            warn!(%error, "a contest page could not be rendered");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "the page could not be made\n",
            )
                .into_response()
        }
    }
}

/// The answer to a page the access rule refuses, under the header of
/// the viewer it refuses (`nav`).
pub(crate) fn refused(nav: &Nav, anonymous: bool, path: &str) -> Response {
    if anonymous {
        let login = if path.starts_with("/contest") {
            "/contest/login"
        } else {
            "/login"
        };
        return render_message(
            nav,
            StatusCode::UNAUTHORIZED,
            "Please log in",
            "This page is shown only after a login.",
            Some(login),
        );
    }
    render_message(
        nav,
        StatusCode::FORBIDDEN,
        "Not yours",
        "This page is not yours to see or change.",
        None,
    )
}

/// The answer to a form without the CSRF token of its session.
pub(crate) fn forged() -> Response {
    message(
        StatusCode::FORBIDDEN,
        "The form is out of date",
        "This form was not sent from this browser's page, or the page is out of date (you logged out or in meanwhile). Load the page again and send it from there; nothing was changed.",
        None,
    )
}

/// The answer of every contest page when no contest is served.
pub(crate) fn no_contest() -> Response {
    message(
        StatusCode::NOT_FOUND,
        "No contest",
        "No contest is served here.",
        Some("/"),
    )
}
