//! The one access rule applied to every route: each route of the router
//! has a row in [`ROUTES`] naming the contest's rule
//! ([`may`](spielleiter_contest::may) over a [`Viewer`], an
//! [`Action`] and a [`Resource`]) that decides it, and what guards its
//! forms against other sites (CSRF). A layer over the whole router
//! ([`decide`]) finds who asks ([`Who`]: a contest session's account, the
//! administrator's login or bearer token, or nobody), applies the route's
//! row before its handler runs, and answers a route without a row with an
//! error instead of serving it. The matrix of every route against every
//! kind of viewer is `ACCESS.md` beside the crate's manifest, and the
//! test in `route_access/tests/matrix.rs` asks the router for its routes and checks each
//! cell.
//!
//! Running games (and the seats to play them) and the logs of the
//! server's own games are the administrator's unless the pages are open to
//! all; the administrator's passphrase login is an organiser. A route
//! whose resource depends on what it finds (a room that runs or is
//! finished) is decided by its handler with the same rule
//! ([`Rule::ByData`]).

use std::{net::IpAddr, sync::Arc};

use axum::{
    Json,
    extract::{FromRequestParts, MatchedPath, Request, State},
    http::{HeaderMap, Method, StatusCode, header, request::Parts},
    middleware::Next,
    response::{IntoResponse, Response},
};
use spielleiter_contest::{
    Account, Action, EncounterId, InviteKind, Resource, SessionId, TeamId, Viewer, may,
};
use tracing::{error, warn};

use crate::{
    accounts::{
        self, MAX_FORM_BYTES, MAX_UPLOAD_BYTES,
        secrets::{self, ACCOUNT_COOKIE, CSRF_FIELD, FORM_COOKIE},
    },
    app::App,
    connections::Peer,
};

/// What decides a route.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Rule {
    /// [`Resource::Public`]: everybody's.
    Public,
    /// [`Resource::RunningGames`] with the pages' openness.
    Live,
    /// [`Resource::GameLogs`] with the pages' openness.
    Logs,
    /// [`Resource::ContestPages`].
    ContestPages,
    /// [`Resource::OrganiserPages`].
    Organiser,
    /// [`Resource::Account`] of the viewer's own account.
    OwnAccount,
    /// A team's resource, the team from the path's `{team}`.
    Team(fn(TeamId) -> Resource),
    /// The request carries its own credential (a passphrase, an invite
    /// link's token, a seat's cookie), which the handler checks: open to
    /// everybody before it.
    Credential,
    /// The handler decides with the same rule by what it finds: a room
    /// running ([`Resource::RunningGames`]) or finished
    /// ([`Resource::Public`]); an invite's kind; each encounter of a
    /// matchday's page ([`Resource::Encounter`]), the standings
    /// ([`Resource::Standings`]).
    ByData,
    /// [`Resource::Encounter`] of the path's `{encounter}`: its two teams
    /// and whether its matchday or round is published, read from the
    /// contest's store before the handler runs (a game's replay).
    Encounter,
}

/// What keeps another site from sending the route's request in a
/// visitor's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Forgery {
    /// Nothing to guard: the request changes nothing.
    Reads,
    /// The form carries the CSRF token of the session it is sent with.
    SessionToken,
    /// The form carries the CSRF token of the form cookie the login and
    /// invite pages set (there is no session yet).
    FormToken,
    /// The body must be JSON, which another site's page cannot send
    /// without the browser asking first (CORS, never allowed here), and the
    /// seat's cookie is `SameSite=Strict`.
    JsonOnly,
    /// The administrator's passphrase form: the passphrase is the
    /// credential, which another site does not know.
    Passphrase,
    /// A multipart upload form (a team's ZIP) carrying the CSRF token of
    /// its session, its body capped at [`MAX_UPLOAD_BYTES`] before it is
    /// read whole.
    UploadToken,
}

/// One route's row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RouteRule {
    /// `GET` (and `HEAD`) or `POST`.
    pub method: &'static str,
    /// The route as the router names it (`/replays/{name}`).
    pub path: &'static str,
    /// What decides it.
    pub rule: Rule,
    /// What guards it against forgery.
    pub forgery: Forgery,
}

const fn get(path: &'static str, rule: Rule) -> RouteRule {
    RouteRule {
        method: "GET",
        path,
        rule,
        forgery: Forgery::Reads,
    }
}

const fn post(path: &'static str, rule: Rule, forgery: Forgery) -> RouteRule {
    RouteRule {
        method: "POST",
        path,
        rule,
        forgery,
    }
}

const fn team_pages(team: TeamId) -> Resource {
    Resource::TeamPages { team }
}

const fn members(team: TeamId) -> Resource {
    Resource::Members { team }
}

const fn versions(team: TeamId) -> Resource {
    Resource::Versions { team }
}

const fn student_invites(team: TeamId) -> Resource {
    Resource::Invite {
        team,
        kind: InviteKind::Student,
    }
}

/// Every route of the web side and its rule.
pub(crate) const ROUTES: &[RouteRule] = {
    use Forgery::{FormToken, JsonOnly, Passphrase, SessionToken, UploadToken};
    use Rule::{
        ByData, ContestPages, Credential, Encounter, Live, Logs, Organiser, OwnAccount, Public,
        Team,
    };
    &[
        get("/", Public),
        get("/rooms/{id}", Public),
        get("/replays", Public),
        get("/replays/{name}", Public),
        get("/season", Public),
        get("/season/games/{number}", Public),
        get("/login", Public),
        post("/login", Credential, Passphrase),
        get("/assets/{file}", Public),
        get("/assets/play.js", Public),
        get("/assets/play.css", Public),
        get("/play", Public),
        get("/play/{id}", Public),
        get("/api/play", Public),
        post("/api/play", Live, JsonOnly),
        get("/api/play/{id}", Credential),
        post("/api/play/{id}/move", Credential, JsonOnly),
        post("/api/play/{id}/why", Credential, JsonOnly),
        post("/api/play/{id}/leave", Credential, JsonOnly),
        get("/api/rooms", ByData),
        get("/api/rooms/{id}", ByData),
        get("/api/rooms/{id}/board.svg", ByData),
        get("/api/rooms/{id}/events", ByData),
        get("/api/replays", Public),
        get("/api/replays/{name}", Public),
        get("/api/replays/{name}/wire", Logs),
        get("/api/replays/{name}/file", Public),
        get("/api/replays/{name}/blksgf", Public),
        get("/api/season", Public),
        get("/api/season/games", Public),
        get("/api/season/games/{number}/replay", ByData),
        get("/api/season/games/{number}/replay.xml.gz", Public),
        get("/api/season/games/{number}/replay.blksgf", Public),
        get("/api/season/games/{number}/logs/{player}", Logs),
        get("/api/season/games/{number}/wire", Logs),
        get("/api/games", Public),
        get("/metrics", Public),
        get("/healthz", Public),
        // The contest's pages.
        get("/contest", ContestPages),
        get("/contest/login", Credential),
        post("/contest/login", Credential, FormToken),
        post("/contest/logout", Credential, SessionToken),
        get("/contest/account", OwnAccount),
        post("/contest/account/password", OwnAccount, SessionToken),
        post("/contest/account/mail", OwnAccount, SessionToken),
        post(
            "/contest/account/sessions/{session}/end",
            OwnAccount,
            SessionToken,
        ),
        get("/contest/invite/{token}", Credential),
        post("/contest/invite/{token}", Credential, FormToken),
        get("/contest/teams/{team}", Team(team_pages)),
        post(
            "/contest/teams/{team}/invites",
            Team(student_invites),
            SessionToken,
        ),
        post(
            "/contest/teams/{team}/invites/{invite}/withdraw",
            ByData,
            SessionToken,
        ),
        post(
            "/contest/teams/{team}/members/{member}/remove",
            Team(members),
            SessionToken,
        ),
        post(
            "/contest/teams/{team}/settings",
            Team(team_pages),
            SessionToken,
        ),
        // The contest's results (issue 37): each encounter as its
        // publication allows.
        get("/contest/matchdays", ContestPages),
        get("/contest/matchdays/{phase}/{number}", ByData),
        get("/contest/standings", ByData),
        get("/api/contest/playing", ByData),
        get("/contest/final", ByData),
        get("/contest/teams/{team}/results", ByData),
        get("/contest/encounters/{encounter}/games/{number}", Encounter),
        get(
            "/contest/encounters/{encounter}/games/{number}/replay",
            Encounter,
        ),
        // A team's versions (issue 36): its members' and the organisers'.
        get("/contest/teams/{team}/versions", Team(versions)),
        post(
            "/contest/teams/{team}/versions",
            Team(versions),
            UploadToken,
        ),
        get(
            "/contest/teams/{team}/versions/{number}/log",
            Team(versions),
        ),
        post(
            "/contest/teams/{team}/versions/{number}/activate",
            Team(versions),
            SessionToken,
        ),
        post(
            "/contest/teams/{team}/versions/{number}/test",
            Team(versions),
            SessionToken,
        ),
        // A team's friendly games (issue 36): its members' and the
        // organisers'; a challenge's games under either of its teams, and
        // under each its own program's log.
        get("/contest/teams/{team}/notices", Team(versions)),
        post(
            "/contest/teams/{team}/notices/read",
            Team(versions),
            SessionToken,
        ),
        get("/contest/teams/{team}/friendly", Team(versions)),
        post(
            "/contest/teams/{team}/friendly",
            Team(versions),
            SessionToken,
        ),
        post(
            "/contest/teams/{team}/friendly/{challenge}/{answer}",
            Team(versions),
            SessionToken,
        ),
        get(
            "/contest/teams/{team}/friendly/{challenge}/games/{game}",
            Team(versions),
        ),
        get(
            "/contest/teams/{team}/friendly/{challenge}/games/{game}/replay",
            Team(versions),
        ),
        get(
            "/contest/teams/{team}/friendly/{challenge}/games/{game}/log",
            Team(versions),
        ),
        get(
            "/contest/teams/{team}/versions/{number}/test",
            Team(versions),
        ),
        get(
            "/contest/teams/{team}/versions/{number}/test/{game}",
            Team(versions),
        ),
        get(
            "/contest/teams/{team}/versions/{number}/test/{game}/replay",
            Team(versions),
        ),
        get(
            "/contest/teams/{team}/versions/{number}/test/{game}/log",
            Team(versions),
        ),
        get(
            "/contest/teams/{team}/versions/{number}/test/{game}/wire",
            Team(versions),
        ),
        get("/contest/organiser", Organiser),
        // The organiser's calendar (issue 37): the matchday and final
        // commands on a page.
        get("/contest/organiser/calendar", Organiser),
        post("/contest/organiser/matchdays", Organiser, SessionToken),
        post("/contest/organiser/final", Organiser, SessionToken),
        post(
            "/contest/organiser/matchdays/{phase}/{number}/{step}",
            Organiser,
            SessionToken,
        ),
        post("/contest/organiser/teams", Organiser, SessionToken),
        post(
            "/contest/organiser/teams/{team}/invite",
            Organiser,
            SessionToken,
        ),
        post(
            "/contest/organiser/teams/{team}/enabled",
            Organiser,
            SessionToken,
        ),
        post(
            "/contest/organiser/members/{member}/enabled",
            Organiser,
            SessionToken,
        ),
        post(
            "/contest/organiser/members/{member}/reset",
            Organiser,
            SessionToken,
        ),
    ]
};

/// Who makes a request, as the access layer found it.
#[derive(Clone, Debug)]
pub struct Who {
    /// The viewer the rule is asked for.
    pub viewer: Viewer,
    /// The contest account signed in, if any (also when disabled: then the
    /// viewer is anonymous).
    pub account: Option<Account>,
    /// The contest session, if any.
    pub session: Option<SessionId>,
    /// The CSRF token the session's forms carry (a contest session's or
    /// the administrator's login).
    pub csrf: Option<String>,
}

impl Who {
    /// Nobody signed in.
    pub const ANONYMOUS: Who = Who {
        viewer: Viewer::Anonymous,
        account: None,
        session: None,
        csrf: None,
    };

    /// Whether the viewer may do `action` to `resource`.
    pub fn may(&self, action: Action, resource: &Resource) -> bool {
        may(&self.viewer, action, resource)
    }

    /// Whether the viewer may watch running games (and open a seat).
    pub fn may_watch(&self, app: &App) -> bool {
        self.may(
            Action::View,
            &Resource::RunningGames {
                open: app.access.is_open(),
            },
        )
    }

    /// Whether the viewer may read the logs of the server's own games.
    pub fn may_see_logs(&self, app: &App) -> bool {
        self.may(
            Action::View,
            &Resource::GameLogs {
                open: app.access.is_open(),
            },
        )
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Who {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Who, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<Who>()
            .cloned()
            .unwrap_or(Who::ANONYMOUS))
    }
}

/// Finds who makes a request: a live contest session's account, else the
/// administrator's login cookie, else (where running games are not open
/// to all) a bearer token that is the passphrase — a guess, waiting its
/// turn in the back-off.
pub(crate) async fn who(
    app: &App,
    headers: &HeaderMap,
    peer: IpAddr,
) -> Result<Who, crate::access::TooSoon> {
    if let Some(door) = &app.contest
        && let Some(secret) =
            crate::access::cookie(headers, ACCOUNT_COOKIE).filter(|s| secrets::well_formed(s))
    {
        match accounts::bounded(door.store.session(&secrets::digest(secret), door.now())).await {
            Ok(Some(signed_in)) => {
                let viewer = Viewer::of(Some(&signed_in.account), |_| signed_in.team_enabled);
                return Ok(Who {
                    viewer,
                    account: Some(signed_in.account),
                    session: Some(signed_in.session.id),
                    csrf: Some(secrets::csrf_token(secret)),
                });
            }
            Ok(None) => {}
            Err(error) => warn!(%error, "the contest's store failed to look up a session"),
        }
    }
    let administrator = Who {
        viewer: Viewer::Organiser { account: None },
        account: None,
        session: None,
        csrf: None,
    };
    if let Some(secret) = app.access.session_of(headers) {
        return Ok(Who {
            csrf: Some(secrets::csrf_token(secret)),
            ..administrator
        });
    }
    if !app.access.is_open()
        && app
            .access
            .bearer_is_passphrase(headers, peer, &app.guard)
            .await?
    {
        return Ok(administrator);
    }
    Ok(Who::ANONYMOUS)
}

/// The access layer over every route: the route's row decides, then its
/// forgery guard; the handler gets [`Who`] asked. The contest's pages, its
/// refusals included, carry [`protect`]'s headers.
pub(crate) async fn decide(
    State(app): State<Arc<App>>,
    Peer(peer): Peer,
    request: Request,
    next: Next,
) -> Response {
    let door = request.uri().path().starts_with("/contest");
    let mut response = decided(&app, peer, request, next).await;
    if door {
        protect(response.headers_mut());
    }
    response
}

/// The headers of the door's pages: they hold private data and secrets in
/// their addresses (invite tokens), so no cache keeps them, no referrer
/// names them to another site, no browser guesses another content type,
/// and no other site may frame them (clickjacking the forms).
pub(crate) fn protect(headers: &mut HeaderMap) {
    use axum::http::HeaderValue;
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("frame-ancestors 'none'; form-action 'self'; base-uri 'none'"),
    );
}

async fn decided(app: &Arc<App>, peer: IpAddr, request: Request, next: Next) -> Response {
    let app = Arc::clone(app);
    let (mut parts, body) = request.into_parts();
    let team = param_of(&mut parts, "team").await.map(TeamId);
    let encounter = param_of(&mut parts, "encounter").await.map(EncounterId);
    let request = Request::from_parts(parts, body);
    let Some(path) = request
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_owned())
    else {
        // No route: the fallback's page.
        return next.run(request).await;
    };
    let method = match *request.method() {
        Method::HEAD => "GET",
        ref other => other.as_str(),
    }
    .to_owned();
    let row = route_rule(&path, &method);
    if !ROUTES.iter().any(|row| row.path == path) {
        error!(route = %path, "a route without an access rule was asked; refused");
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            "this address has no access rule; nothing is served\n",
        )
            .into_response();
    }
    let Some(row) = row else {
        // Another method of a known route: the router's 405.
        return next.run(request).await;
    };
    if path.starts_with("/contest") && app.contest.is_none() {
        return crate::accounts::message::no_contest();
    }
    let who = match who(&app, request.headers(), peer).await {
        Ok(who) => who,
        Err(too_soon) => return crate::error::ApiError::from(too_soon).into_response(),
    };
    let action = if row.method == "GET" {
        Action::View
    } else {
        Action::Change
    };
    let open = app.access.is_open();
    let resource = match row.rule {
        Rule::Public => Some(Resource::Public),
        Rule::Live => Some(Resource::RunningGames { open }),
        Rule::Logs => Some(Resource::GameLogs { open }),
        Rule::ContestPages => Some(Resource::ContestPages),
        Rule::Organiser => Some(Resource::OrganiserPages),
        Rule::OwnAccount => match who.viewer.account() {
            Some(member) => Some(Resource::Account { member }),
            None => return refuse(&app, &who, &path),
        },
        Rule::Team(resource) => match team {
            Some(team) => Some(resource(team)),
            None => return refuse(&app, &who, &path),
        },
        Rule::Encounter => match encounter {
            Some(encounter) => match encounter_resource(&app, encounter).await {
                Ok(resource) => Some(resource),
                Err(answer) => return answer,
            },
            None => return refuse(&app, &who, &path),
        },
        Rule::Credential | Rule::ByData => None,
    };
    if let Some(resource) = resource
        && !who.may(action, &resource)
    {
        return refuse(&app, &who, &path);
    }
    let request = match row.forgery {
        Forgery::SessionToken => {
            let expected = who.csrf.clone();
            match checked_form(request, expected.as_deref()).await {
                Ok(request) => request,
                Err(answer) => return answer,
            }
        }
        Forgery::FormToken => {
            let expected = crate::access::cookie(request.headers(), FORM_COOKIE)
                .filter(|s| secrets::well_formed(s))
                .map(secrets::csrf_token);
            match checked_form(request, expected.as_deref()).await {
                Ok(request) => request,
                Err(answer) => return answer,
            }
        }
        Forgery::UploadToken => match checked_upload(request, who.csrf.as_deref()).await {
            Ok(request) => request,
            Err(answer) => return answer,
        },
        Forgery::Reads | Forgery::JsonOnly | Forgery::Passphrase => request,
    };
    let mut request = request;
    request.extensions_mut().insert(who);
    next.run(request).await
}

/// The row of `method` on `path`, if it has one.
fn route_rule(path: &str, method: &str) -> Option<RouteRule> {
    ROUTES
        .iter()
        .find(|row| row.path == path && row.method == method)
        .copied()
}

/// The id the path's `{name}` names (`{team}`, `{encounter}`).
async fn param_of(parts: &mut Parts, name: &str) -> Option<i64> {
    let params = axum::extract::RawPathParams::from_request_parts(parts, &())
        .await
        .ok()?;
    params
        .iter()
        .find(|(key, _)| *key == name)
        .and_then(|(_, value)| value.parse().ok())
}

/// The encounter's resource as its store holds it: its two teams and its
/// publication; or the answer when there is no such encounter (404) or
/// the store fails.
async fn encounter_resource(app: &App, encounter: EncounterId) -> Result<Resource, Response> {
    let not_found = || {
        crate::accounts::message::message(
            StatusCode::NOT_FOUND,
            "Not found",
            "No such encounter.",
            None,
        )
    };
    let Some(source) = app.contest.as_ref().and_then(|door| door.results.as_ref()) else {
        return Err(not_found());
    };
    match accounts::bounded(source.results.encounter(encounter)).await {
        Ok(access) => Ok(Resource::Encounter {
            teams: access.teams,
            published: access.published,
        }),
        Err(spielleiter_contest::StoreError::NotFound(_)) => Err(not_found()),
        Err(error) => {
            warn!(%error, "the contest's store failed to look up an encounter");
            Err(crate::accounts::message::message(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something failed",
                "The contest's store failed; please try again later.",
                None,
            ))
        }
    }
}

/// The answer to a request the rule refuses: for nobody signed in `401`
/// (with the way to log in), for a signed-in viewer `403`; JSON for the
/// JSON routes, a page for the others.
fn refuse(app: &App, who: &Who, path: &str) -> Response {
    let anonymous = who.viewer == Viewer::Anonymous;
    if path.starts_with("/api/") {
        if anonymous {
            return crate::error::ApiError::Unauthorized {
                login: app.access.can_log_in(),
            }
            .into_response();
        }
        return (
            StatusCode::FORBIDDEN,
            Json(serde_json::json!({ "error": "this is not yours to see or change", "login": false })),
        )
            .into_response();
    }
    let nav =
        crate::accounts::message::Nav::new(who.viewer, who.account.as_ref(), who.csrf.as_deref());
    crate::accounts::message::refused(&nav, anonymous, path)
}

/// The request with its form read (at most [`MAX_FORM_BYTES`]), if the
/// form carries `expected` as its CSRF token; otherwise the answer
/// refusing it, having changed nothing.
async fn checked_form(request: Request, expected: Option<&str>) -> Result<Request, Response> {
    let (parts, body) = request.into_parts();
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > MAX_FORM_BYTES as u64) {
        return Err(too_large());
    }
    let Ok(bytes) = axum::body::to_bytes(body, MAX_FORM_BYTES).await else {
        return Err(too_large());
    };
    let given = form_field(&bytes, CSRF_FIELD);
    let right = match (given, expected) {
        (Some(given), Some(expected)) => crate::access::same(given, expected),
        _ => false,
    };
    if !right {
        return Err(crate::accounts::message::forged());
    }
    Ok(Request::from_parts(parts, axum::body::Body::from(bytes)))
}

/// The upload form's request with its body read (at most
/// [`MAX_UPLOAD_BYTES`]: a body declared larger is refused unread, one that
/// streams past it is refused at the first byte over), if its multipart
/// form carries `expected` as its CSRF token; otherwise the answer refusing
/// it, having changed nothing.
async fn checked_upload(request: Request, expected: Option<&str>) -> Result<Request, Response> {
    let (parts, body) = request.into_parts();
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > MAX_UPLOAD_BYTES as u64) {
        return Err(upload_too_large());
    }
    let Ok(bytes) = axum::body::to_bytes(body, MAX_UPLOAD_BYTES).await else {
        return Err(upload_too_large());
    };
    let given = multipart_field(&parts.headers, bytes.clone(), CSRF_FIELD).await;
    let right = match (given.as_deref(), expected) {
        (Some(given), Some(expected)) => crate::access::same(given, expected),
        _ => false,
    };
    if !right {
        return Err(crate::accounts::message::forged());
    }
    Ok(Request::from_parts(parts, axum::body::Body::from(bytes)))
}

/// The text of field `name` of the multipart form `body` (its headers
/// name the boundary), if it has one.
async fn multipart_field(
    headers: &HeaderMap,
    body: axum::body::Bytes,
    name: &str,
) -> Option<String> {
    let content_type = headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
    let boundary = multer::parse_boundary(content_type).ok()?;
    let stream = futures_util::stream::once(async move { Ok::<_, std::io::Error>(body) });
    let mut form = multer::Multipart::new(stream, boundary);
    while let Ok(Some(field)) = form.next_field().await {
        if field.name() == Some(name) {
            // UTF-8, as the pages send it, whatever charset the field
            // names (decoding others would bring every encoding's tables).
            let bytes = field.bytes().await.ok()?;
            return String::from_utf8(bytes.to_vec()).ok();
        }
    }
    None
}

fn upload_too_large() -> Response {
    crate::accounts::message::message(
        StatusCode::PAYLOAD_TOO_LARGE,
        "The upload is too large",
        &format!(
            "An upload here is at most {} MiB; nothing was stored.",
            MAX_UPLOAD_BYTES / (1024 * 1024)
        ),
        None,
    )
}

fn too_large() -> Response {
    crate::accounts::message::message(
        StatusCode::PAYLOAD_TOO_LARGE,
        "The form is too large",
        &format!("A form here is at most {MAX_FORM_BYTES} bytes; nothing was changed."),
        None,
    )
}

/// The first value of field `name` of a URL-encoded form, undecoded (the
/// CSRF token is hex digits only).
fn form_field<'b>(body: &'b [u8], name: &str) -> Option<&'b str> {
    std::str::from_utf8(body).ok()?.split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        (key == name).then_some(value)
    })
}

#[cfg(test)]
mod tests {
    /// The access matrix, in a test folder of its own: it plays a game.
    mod matrix;

    use super::*;

    #[test]
    fn every_route_has_one_row_per_method() {
        let mut seen = std::collections::HashSet::new();
        for row in ROUTES {
            assert!(
                seen.insert((row.method, row.path)),
                "{} {} has two rows",
                row.method,
                row.path
            );
            assert_eq!(
                row.method == "GET",
                row.forgery == Forgery::Reads,
                "{} {}: a GET changes nothing, a POST is guarded",
                row.method,
                row.path
            );
        }
    }

    /// A team's things are decided by the team's rule (or are the
    /// organisers'), and logs never by a rule that shows them to all: a new route of a team's games' logs
    /// (issues 36 and 37) under a public rule fails here, before the
    /// matrix.
    #[test]
    fn no_route_shows_a_teams_things_or_logs_to_all() {
        for row in ROUTES {
            let (method, path) = (row.method, row.path);
            if path.contains("/teams/{team}") {
                assert!(
                    matches!(row.rule, Rule::Team(_) | Rule::ByData | Rule::Organiser),
                    "{method} {path}: a team's route under {:?}",
                    row.rule
                );
            }
            let logs = ["/logs", "/log/", "/wire", "/player-log"]
                .iter()
                .any(|part| path.contains(part));
            if logs {
                assert!(
                    matches!(
                        row.rule,
                        Rule::Logs | Rule::Team(_) | Rule::ByData | Rule::Organiser
                    ),
                    "{method} {path}: logs under {:?}",
                    row.rule
                );
            }
        }
        // A team's program logs and wire logs are its members' and the
        // organisers', whatever the pages' openness (which only opens the
        // server's own games' logs).
        let team = TeamId(1);
        let viewers = [
            (Viewer::Anonymous, false),
            (
                Viewer::Member {
                    member: spielleiter_contest::MemberId(2),
                    team: TeamId(9),
                    role: spielleiter_contest::Role::Teacher,
                },
                false,
            ),
            (
                Viewer::Member {
                    member: spielleiter_contest::MemberId(3),
                    team,
                    role: spielleiter_contest::Role::Student,
                },
                true,
            ),
            (Viewer::Organiser { account: None }, true),
        ];
        for (viewer, sees) in viewers {
            for resource in [Resource::ProgramLog { team }, Resource::WireLog { team }] {
                assert_eq!(
                    may(&viewer, Action::View, &resource),
                    sees,
                    "{viewer:?} {resource:?}"
                );
            }
        }
    }

    #[test]
    fn a_form_field_is_found_by_its_name() {
        assert_eq!(form_field(b"a=1&csrf=ab12&c=3", "csrf"), Some("ab12"));
        assert_eq!(form_field(b"xcsrf=1", "csrf"), None);
        assert_eq!(form_field(b"csrf", "csrf"), None);
    }
}
