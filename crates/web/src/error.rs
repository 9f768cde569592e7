//! Why a JSON route refuses, as the pages read it: a status and a body
//! `{"error": "…", "login": true|false}`.

use axum::{
    Json,
    http::StatusCode,
    response::{IntoResponse, Response},
};

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
