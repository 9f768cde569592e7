//! Why a JSON route refuses, as the pages read it: a status and a body
//! `{"error": "…", "login": true|false}`.

use axum::{
    Json,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use spielleiter_archive::{ArchiveError, LoadError};

/// A refusal of a JSON route.
#[derive(Debug)]
pub enum ApiError {
    /// Running games are not shown to this request; `login` tells whether a
    /// login would show them.
    Unauthorized {
        /// Whether a passphrase is configured.
        login: bool,
    },
    /// Nothing is known by this name.
    NotFound(String),
    /// The replay cannot be read.
    Unreadable(String),
    /// Too many event streams are open.
    Busy,
    /// Too many event streams are open from the request's address.
    BusyAddress,
    /// The address has guessed the passphrase wrong too often to be
    /// checked now.
    TooSoon,
    /// Something failed on the server.
    Internal(String),
}

impl From<crate::access::TooSoon> for ApiError {
    fn from(_: crate::access::TooSoon) -> ApiError {
        ApiError::TooSoon
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, error, login) = match self {
            ApiError::Unauthorized { login: true } => (
                StatusCode::UNAUTHORIZED,
                "running games are shown after a login".to_owned(),
                true,
            ),
            ApiError::Unauthorized { login: false } => (
                StatusCode::UNAUTHORIZED,
                "running games are not shown on this address".to_owned(),
                false,
            ),
            ApiError::NotFound(what) => (StatusCode::NOT_FOUND, what, false),
            ApiError::Unreadable(why) => (StatusCode::UNPROCESSABLE_ENTITY, why, false),
            ApiError::Busy => (
                StatusCode::SERVICE_UNAVAILABLE,
                "too many watchers; try again later".to_owned(),
                false,
            ),
            ApiError::BusyAddress => (
                StatusCode::SERVICE_UNAVAILABLE,
                "too many live pages open from your address; close one and try again".to_owned(),
                false,
            ),
            ApiError::TooSoon => (
                StatusCode::TOO_MANY_REQUESTS,
                crate::access::TooSoon.to_string(),
                false,
            ),
            ApiError::Internal(why) => (StatusCode::INTERNAL_SERVER_ERROR, why, false),
        };
        (
            status,
            Json(serde_json::json!({ "error": error, "login": login })),
        )
            .into_response()
    }
}

/// The error of a replay named in a request, as the answer says it.
pub(crate) fn archive_error(error: ArchiveError) -> ApiError {
    match error {
        ArchiveError::Load(LoadError::BadName(name)) => {
            ApiError::NotFound(format!("{name:?} is not a replay's name"))
        }
        // A symbolic link is no replay here: nothing is said about where
        // it points.
        ArchiveError::Load(error @ LoadError::NotAFile(_)) => {
            tracing::warn!(%error, "a replay's name in the replay directory is no regular file; not followed");
            ApiError::NotFound("no such replay".to_owned())
        }
        ArchiveError::NotFound(what) => ApiError::NotFound(what),
        error if error.is_not_found() => ApiError::NotFound("no such replay".to_owned()),
        // The archive's errors name the replay by its name, not its path.
        ArchiveError::Load(error) => ApiError::Unreadable(with_causes(&error)),
        error => {
            tracing::warn!(error = %with_causes(&error), "the archive failed");
            ApiError::Internal(error.to_string())
        }
    }
}

/// An error's message followed by its causes, as one line.
pub(crate) fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        text.push_str(": ");
        text.push_str(&next.to_string());
        cause = next.source();
    }
    text
}
