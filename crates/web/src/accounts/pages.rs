//! The contest's pages under `/contest`: the contest's home, login and
//! logout, invite links (joining a team, setting a new password), a
//! person's account (sessions, password), a team's page (members, invite
//! links, settings) and the organiser's (teams). Server-rendered from the
//! templates in `templates/contest/` (askama: checked when the crate is
//! built, every value HTML-escaped); every form works without JavaScript
//! and carries its CSRF token, which the access layer checks before a
//! handler runs ([`route_access`](crate::route_access)).
//!
//! Each refusal is one clear answer with its status, and changes nothing:
//! a field is checked before anything is stored, and each change is one
//! call of the store (one transaction).

use std::{net::IpAddr, sync::Arc};

use askama::Template;
use axum::{
    Form,
    extract::{Path, State, rejection::FormRejection},
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Redirect, Response},
};
use serde::Deserialize;
use spielleiter_contest::{
    Account, AccountKind, Action, ContestAccounts, Invite, InviteError, InviteId, InviteKind,
    MemberId, NewAccount, Resource, Role, SessionId, SessionOrigin, StoreError, TeamId, Timestamp,
    Viewer,
    accounts::{MAX_DISPLAY_NAME, MAX_PASSWORD, is_refused_in_names},
    accounts_store::MAX_USER_AGENT,
    check_display_name, check_password, check_team_name, login_key,
};
use spielleiter_server::limits::BackoffKey;
use tracing::warn;

use super::{
    Door, LoginCounts, bounded,
    message::{Nav, render, render_message},
    secrets::{self, ACCOUNT_COOKIE, FORM_COOKIE},
    throttle::NAME_CEILING,
};
use crate::{app::App, connections::Peer, route_access::Who};

impl Nav {
    pub(super) fn of(who: &Who) -> Nav {
        Nav::new(who.viewer, who.account.as_ref(), who.csrf.as_deref())
    }
}

/// A refusal of a contest page: its status and what it says.
#[derive(Debug)]
pub(crate) struct Refusal {
    status: StatusCode,
    title: &'static str,
    text: String,
}

impl Refusal {
    pub(super) fn new(status: StatusCode, title: &'static str, text: impl Into<String>) -> Refusal {
        Refusal {
            status,
            title,
            text: text.into(),
        }
    }

    pub(super) fn bad_input(text: impl Into<String>) -> Refusal {
        Refusal::new(StatusCode::BAD_REQUEST, "Please check the form", text)
    }

    pub(super) fn not_yours() -> Refusal {
        Refusal::new(
            StatusCode::FORBIDDEN,
            "Not yours",
            "This is not yours to change.",
        )
    }
}

/// A store's answer to a step a page asked for: its refusal as a conflict
/// titled `title` with the store's reason, anything else as always.
pub(super) fn refused_as(title: &'static str) -> impl Fn(StoreError) -> Refusal {
    move |error| match error {
        StoreError::Refused(why) => Refusal::new(StatusCode::CONFLICT, title, sentence(why)),
        other => other.into(),
    }
}

impl From<StoreError> for Refusal {
    fn from(error: StoreError) -> Refusal {
        match error {
            StoreError::NotFound(what) => Refusal::new(
                StatusCode::NOT_FOUND,
                "Not found",
                format!("No such {what}."),
            ),
            StoreError::Taken(_) => Refusal::new(
                StatusCode::CONFLICT,
                "The name is taken",
                "Someone has this name already; please choose another.",
            ),
            StoreError::Invite(error) => invite_refusal(error),
            StoreError::Refused(why) => {
                Refusal::new(StatusCode::FORBIDDEN, "Refused", sentence(why))
            }
            StoreError::Backend { store, cause } => {
                warn!(%store, %cause, "the contest's store failed");
                Refusal::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "Something failed",
                    "The contest's store failed; please try again later.",
                )
            }
        }
    }
}

impl From<super::PasswordError> for Refusal {
    fn from(error: super::PasswordError) -> Refusal {
        warn!(%error, "a password could not be hashed or checked");
        Refusal::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Something failed",
            "The password could not be checked; please try again later.",
        )
    }
}

/// A store's one-line reason as a sentence: capitalised, with its stop.
pub(super) fn sentence(reason: &str) -> String {
    let mut chars = reason.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).chain(['.']).collect(),
        None => String::new(),
    }
}

fn invite_refusal(error: InviteError) -> Refusal {
    let status = match error {
        InviteError::Expired | InviteError::Used | InviteError::Withdrawn => StatusCode::GONE,
        InviteError::Disabled => StatusCode::FORBIDDEN,
    };
    Refusal::new(
        status,
        "This link does not work",
        sentence(&error.to_string()),
    )
}

/// A page's answer: the page, or its refusal as a message page.
pub(crate) struct Answer(Result<Response, Refusal>, Nav);

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        match self.0 {
            Ok(response) => response,
            Err(refusal) => {
                render_message(&self.1, refusal.status, refusal.title, &refusal.text, None)
            }
        }
    }
}

pub(super) fn answer(who: &Who, result: Result<Response, Refusal>) -> Answer {
    Answer(result, Nav::of(who))
}

pub(super) fn door(app: &App) -> Result<&Arc<Door>, Refusal> {
    app.contest.as_ref().ok_or_else(|| {
        Refusal::new(
            StatusCode::NOT_FOUND,
            "No contest",
            "No contest is served here.",
        )
    })
}

/// A form's fields, or why they are not what the page sends.
pub(super) fn fields<T>(form: Result<Form<T>, FormRejection>) -> Result<T, Refusal> {
    form.map(|Form(fields)| fields).map_err(|_| {
        Refusal::bad_input(
            "The form is incomplete or not what this page sends; nothing was changed.",
        )
    })
}

/// An instant for people, in UTC.
pub(super) fn when(at: Timestamp) -> String {
    jiff::Timestamp::from_second(at.0).map_or_else(
        |_| at.to_string(),
        |t| t.strftime("%Y-%m-%d %H:%M UTC").to_string(),
    )
}

pub(super) fn see_other(to: &str) -> Response {
    Redirect::to(to).into_response()
}

// ----- The contest's home -----

#[derive(Template)]
#[template(path = "contest/home.html")]
struct HomePage {
    nav: Nav,
    contest: String,
    game: String,
    teams: Vec<HomeTeam>,
}

struct HomeTeam {
    id: TeamId,
    name: String,
    enabled: bool,
    yours: bool,
}

/// `GET /contest`: the contest and its teams.
pub(crate) async fn home(State(app): State<Arc<App>>, who: Who) -> Answer {
    let result = async {
        let door = door(&app)?;
        let contest = bounded(door.store.contest()).await?;
        let teams = bounded(door.store.teams()).await?;
        let teams = teams
            .into_iter()
            .map(|team| HomeTeam {
                yours: who.may(Action::View, &Resource::TeamPages { team: team.id }),
                id: team.id,
                name: team.name,
                enabled: team.enabled,
            })
            .collect();
        Ok(render(&HomePage {
            nav: Nav::of(&who),
            game: contest.game.id().to_owned(),
            contest: contest.name,
            teams,
        }))
    }
    .await;
    answer(&who, result)
}

// ----- Login and logout -----

#[derive(Template)]
#[template(path = "contest/login.html")]
struct LoginPage {
    nav: Nav,
    form_csrf: String,
    name: String,
    error: Option<String>,
}

/// The form cookie of the request, or a new one with its `Set-Cookie`.
fn form_secret(headers: &HeaderMap, door: &Door) -> (String, Option<String>) {
    match crate::access::cookie(headers, FORM_COOKIE).filter(|s| secrets::well_formed(s)) {
        Some(secret) => (secret.to_owned(), None),
        None => {
            let secret = secrets::new_token();
            let cookie = secrets::cookie(
                FORM_COOKIE,
                &secret,
                "/contest",
                "Strict",
                24 * 3600,
                door.secure_cookies,
            );
            (secret, Some(cookie))
        }
    }
}

/// A page with the form cookie set where the request had none.
fn with_form_cookie(page: Response, cookie: Option<String>) -> Response {
    match cookie {
        Some(cookie) => ([(header::SET_COOKIE, cookie)], page).into_response(),
        None => page,
    }
}

/// `GET /contest/login`.
pub(crate) async fn login_form(
    State(app): State<Arc<App>>,
    who: Who,
    headers: HeaderMap,
) -> Answer {
    let result = door(&app).map(|door| {
        let (secret, cookie) = form_secret(&headers, door);
        let page = render(&LoginPage {
            nav: Nav::of(&who),
            form_csrf: secrets::csrf_token(&secret),
            name: String::new(),
            error: None,
        });
        with_form_cookie(page, cookie)
    });
    answer(&who, result)
}

/// The login form's fields.
#[derive(Deserialize)]
pub(crate) struct LoginFields {
    name: String,
    password: String,
}

/// The answer to a guess whose turn is too far off.
fn too_many_attempts() -> Refusal {
    Refusal::new(
        StatusCode::TOO_MANY_REQUESTS,
        "Too many attempts",
        "Too many wrong attempts from your address or for this name; please wait a minute and try again.",
    )
}

/// The one answer to a name that is unknown and to a wrong password.
const WRONG_LOGIN: &str = "That name and password do not match an account.";

/// `POST /contest/login`: checks the name and password, waiting the
/// name's and the address's turn in the back-off; the same answer, after
/// the same work, for an unknown name and a wrong password.
pub(crate) async fn log_in(
    State(app): State<Arc<App>>,
    who: Who,
    Peer(peer): Peer,
    headers: HeaderMap,
    form: Result<Form<LoginFields>, FormRejection>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let fields = fields(form)?;
        let account = match checked_login(&app, door, peer, &fields.name, &fields.password).await? {
            Ok(account) => account,
            Err(refusal) => {
                // The form again, with what was typed but the password.
                let (secret, cookie) = form_secret(&headers, door);
                let page = render(&LoginPage {
                    nav: Nav::of(&who),
                    form_csrf: secrets::csrf_token(&secret),
                    // Without the characters no name may hold (a
                    // direction override would turn the page around).
                    name: (fields.name.chars())
                        .filter(|c| !is_refused_in_names(*c))
                        .take(MAX_DISPLAY_NAME)
                        .collect(),
                    error: Some(refusal.text),
                });
                return Ok(with_form_cookie(
                    (refusal.status, page).into_response(),
                    cookie,
                ));
            }
        };
        let cookie = open_session(door, &account, &headers, peer).await?;
        let home = match account.kind {
            AccountKind::Organiser => "/contest/organiser".to_owned(),
            AccountKind::Member { team, .. } => format!("/contest/teams/{team}"),
        };
        Ok(([(header::SET_COOKIE, cookie)], see_other(&home)).into_response())
    }
    .await;
    answer(&who, result)
}

/// Checks a name and password within the back-off: `Ok(Ok(account))` for
/// the right password of an enabled account, `Ok(Err(..))` for the one
/// answer to a wrong name or password (or a disabled account, told only to
/// whoever gave its password), `Err` when the turn is too far off.
async fn checked_login(
    app: &App,
    door: &Door,
    peer: IpAddr,
    name: &str,
    password: &str,
) -> Result<Result<Account, Refusal>, Refusal> {
    // The length in bytes first: a name no account can have costs no
    // more work than any other (and is checked against the stand-in hash,
    // so that its answer takes as long).
    let possible = name.len() <= spielleiter_contest::accounts::max_bytes(MAX_DISPLAY_NAME)
        && name.chars().count() <= MAX_DISPLAY_NAME;
    let key = if possible {
        login_key(name)
    } else {
        String::new()
    };
    let name_key = secrets::name_key(&key);
    let peer = peer.counted_as();
    let too_soon = || {
        LoginCounts::count(&door.logins.throttled);
        too_many_attempts()
    };
    let Some(address_turn) = door
        .by_address
        .reserve_within(peer, door.by_address.max_delay())
    else {
        return Err(too_soon());
    };
    let Some(name_turn) = door
        .by_name_and_address
        .reserve_within((name_key, peer), door.by_name_and_address.max_delay())
    else {
        return Err(too_soon());
    };
    // The name's own back-off from anywhere only slows (by at most
    // NAME_CEILING): it can neither refuse nor queue the name's owner.
    let slowed = tokio::time::Instant::now() + door.by_name.slowing(name_key, NAME_CEILING);
    tokio::time::sleep_until(address_turn.max(name_turn).max(slowed)).await;
    let password = if password.len() > spielleiter_contest::accounts::max_bytes(MAX_PASSWORD)
        || password.chars().count() > MAX_PASSWORD
    {
        ""
    } else {
        password
    };
    let credentials = if possible {
        bounded(door.store.credentials(&key)).await?
    } else {
        None
    };
    let right = door
        .passwords
        .check(
            password,
            credentials.as_ref().map(|c| c.password_hash.as_str()),
        )
        .await?;
    let Some(credentials) = credentials.filter(|_| right) else {
        door.by_address.failed(peer);
        door.by_name_and_address.failed((name_key, peer));
        door.by_name.failed(name_key);
        LoginCounts::count(&door.logins.failed);
        if let Some(suppressed) = app.guard.backoff().log_allowed() {
            warn!(%peer, suppressed, "wrong contest name or password");
        }
        return Ok(Err(Refusal::new(
            StatusCode::UNAUTHORIZED,
            "Wrong name or password",
            WRONG_LOGIN,
        )));
    };
    door.by_name_and_address.succeeded((name_key, peer));
    door.by_name.succeeded(name_key);
    if door.passwords.needs_rehash(&credentials.password_hash) {
        rehash(door, &credentials, password).await;
    }
    let account = credentials.account;
    let team_enabled = match account.kind {
        AccountKind::Member { team, .. } => bounded(door.store.team(team)).await?.enabled,
        AccountKind::Organiser => true,
    };
    if !account.enabled || !team_enabled {
        return Ok(Err(Refusal::new(
            StatusCode::FORBIDDEN,
            "Disabled",
            "This account or its team is disabled; please ask the organisers.",
        )));
    }
    LoginCounts::count(&door.logins.succeeded);
    Ok(Ok(account))
}

/// Hashes the right `password` of `credentials` anew with the configured
/// parameters and stores it if the stored hash is still the one checked
/// (a password set meanwhile wins). A failure only leaves the old hash,
/// which still works; the login goes on.
async fn rehash(door: &Door, credentials: &spielleiter_contest::Credentials, password: &str) {
    let member = credentials.account.id;
    let hash = match door.passwords.hash(password).await {
        Ok(hash) => hash,
        Err(error) => {
            warn!(%error, %member, "a password could not be rehashed");
            return;
        }
    };
    let old = credentials.password_hash.as_str();
    if let Err(error) = bounded(door.store.rehash_password(member, old, &hash)).await {
        warn!(%error, %member, "a rehashed password could not be stored");
    }
}

/// Opens a session of `account` and returns its cookie.
async fn open_session(
    door: &Door,
    account: &Account,
    headers: &HeaderMap,
    peer: IpAddr,
) -> Result<String, Refusal> {
    let secret = secrets::new_token();
    let origin = SessionOrigin {
        user_agent: headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .chars()
            .take(MAX_USER_AGENT)
            .collect(),
        address: peer.to_string(),
    };
    let contest = bounded(door.store.contest()).await?;
    bounded(
        door.store
            .open_session(&secrets::digest(&secret), account.id, &origin, door.now()),
    )
    .await?;
    Ok(secrets::cookie(
        ACCOUNT_COOKIE,
        &secret,
        "/",
        "Lax",
        contest.settings.session_absolute_seconds,
        door.secure_cookies,
    ))
}

/// `POST /contest/logout`: ends the session (the store forgets it) and
/// the browser's cookies.
pub(crate) async fn log_out(State(app): State<Arc<App>>, who: Who, headers: HeaderMap) -> Answer {
    let result = async {
        let door = door(&app)?;
        if let Some(secret) =
            crate::access::cookie(&headers, ACCOUNT_COOKIE).filter(|s| secrets::well_formed(s))
        {
            bounded(door.store.end_session_of(&secrets::digest(secret))).await?;
        }
        // The administrator's login ends on the server too, not only in
        // this browser.
        if let Some(secret) = crate::access::cookie(&headers, crate::access::SESSION_COOKIE) {
            app.access.end_session(secret);
        }
        let secure = door.secure_cookies;
        let clear = |name, path| secrets::cookie(name, "", path, "Lax", 0, secure);
        Ok((
            // Both cookies: `AppendHeaders`, as an array would keep the last.
            axum::response::AppendHeaders([
                (header::SET_COOKIE, clear(ACCOUNT_COOKIE, "/")),
                (
                    header::SET_COOKIE,
                    clear(crate::access::SESSION_COOKIE, "/"),
                ),
            ]),
            see_other("/contest"),
        )
            .into_response())
    }
    .await;
    answer(&who, result)
}

// ----- Invite links -----

#[derive(Template)]
#[template(path = "contest/invite.html")]
struct InvitePage {
    nav: Nav,
    title: String,
    intro: String,
    token: String,
    form_csrf: String,
    asks_name: bool,
    name: String,
    button: &'static str,
    error: Option<String>,
}

/// The invite of a link's token, checked at `now`, after the address's
/// turn in the door's back-off: an unknown link counts as a wrong guess
/// from the address, as a wrong password does.
async fn working_invite(door: &Door, peer: IpAddr, token: &str) -> Result<Invite, Refusal> {
    let unknown = || {
        Refusal::new(
            StatusCode::NOT_FOUND,
            "This link does not work",
            "There is no such invite link; please check it, or ask for a new one.",
        )
    };
    let peer = peer.counted_as();
    let Some(turn) = door
        .by_address
        .reserve_within(peer, door.by_address.max_delay())
    else {
        LoginCounts::count(&door.logins.throttled);
        return Err(too_many_attempts());
    };
    tokio::time::sleep_until(turn).await;
    let stored = if secrets::well_formed(token) {
        bounded(door.store.invite(&secrets::digest(token))).await?
    } else {
        None
    };
    let Some(stored) = stored else {
        door.by_address.failed(peer);
        return Err(unknown());
    };
    let invite = stored.invite;
    let mut enabled = bounded(door.store.team(invite.team)).await?.enabled;
    if let InviteKind::PasswordReset { member } = invite.kind {
        enabled &= bounded(door.store.account(member)).await?.enabled;
    }
    // A link works only while whoever made it is in (a removed account's
    // links work no more): a disabled teacher cannot come back by a link
    // they kept.
    if let Some(maker) = invite.created_by {
        enabled &= match bounded(door.store.account(maker)).await {
            Ok(account) => account.enabled,
            Err(StoreError::NotFound(_)) => false,
            Err(error) => return Err(error.into()),
        };
    }
    invite.check(door.now(), enabled).map_err(invite_refusal)?;
    Ok(invite)
}

/// The one answer to a name that cannot be chosen because it is someone's
/// (counted as a guess from the address: trying names is how one would
/// find out who has an account).
const NAME_NOT_AVAILABLE: &str =
    "This name cannot be chosen; please choose another one. Nothing was changed.";

async fn invite_page(
    door: &Door,
    who: &Who,
    invite: &Invite,
    token: String,
    form_csrf: String,
) -> Result<InvitePage, Refusal> {
    let team = bounded(door.store.team(invite.team)).await?.name;
    let (title, intro, asks_name, button) = match invite.kind {
        InviteKind::Teacher => (
            format!("Join {team} as its teacher"),
            format!(
                "You were invited to be the teacher of the team {team}: you will invite its students. Choose the name you are shown and log in with, and a password."
            ),
            true,
            "Join the team",
        ),
        InviteKind::Student => (
            format!("Join {team}"),
            format!(
                "You were invited to the team {team}. Choose the name you are shown and log in with, and a password."
            ),
            true,
            "Join the team",
        ),
        InviteKind::PasswordReset { member } => {
            let name = bounded(door.store.account(member)).await?.display_name;
            (
                "Set a new password".to_owned(),
                format!(
                    "Set a new password for {name} of {team}. Every session of the account ends."
                ),
                false,
                "Set the password",
            )
        }
    };
    Ok(InvitePage {
        nav: Nav::of(who),
        title,
        intro,
        token,
        form_csrf,
        asks_name,
        name: String::new(),
        button,
        error: None,
    })
}

/// `GET /contest/invite/{token}`: the form the link opens, or why it does
/// not work.
pub(crate) async fn invite_form(
    State(app): State<Arc<App>>,
    who: Who,
    Peer(peer): Peer,
    headers: HeaderMap,
    Path(token): Path<String>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let invite = working_invite(door, peer, &token).await?;
        let (secret, cookie) = form_secret(&headers, door);
        let page = invite_page(door, &who, &invite, token, secrets::csrf_token(&secret)).await?;
        Ok(with_form_cookie(render(&page), cookie))
    }
    .await;
    answer(&who, result)
}

/// The invite form's fields.
#[derive(Deserialize)]
pub(crate) struct InviteFields {
    #[serde(default)]
    name: String,
    password: String,
    repeat: String,
}

/// Checks a new password and its repetition.
fn new_password(password: &str, repeat: &str) -> Result<(), Refusal> {
    check_password(password).map_err(|error| Refusal::bad_input(format!("The {error}.")))?;
    if password != repeat {
        return Err(Refusal::bad_input(
            "The two passwords differ; please type the same password twice.",
        ));
    }
    Ok(())
}

/// `POST /contest/invite/{token}`: joins the team (a new member, signed
/// in at once) or sets the new password (every session ends; signed in
/// anew). The link is used in the same transaction, so it works once.
pub(crate) async fn redeem(
    State(app): State<Arc<App>>,
    who: Who,
    Peer(peer): Peer,
    headers: HeaderMap,
    Path(token): Path<String>,
    form: Result<Form<InviteFields>, FormRejection>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let invite = working_invite(door, peer, &token).await?;
        let fields = fields(form)?;
        let digest = secrets::digest(&token);
        let account = match invite.kind {
            InviteKind::Teacher | InviteKind::Student => {
                let name = fields.name.trim();
                check_display_name(name)
                    .map_err(|error| Refusal::bad_input(format!("The {error}.")))?;
                new_password(&fields.password, &fields.repeat)?;
                let hash = door.passwords.hash(&fields.password).await?;
                let account = NewAccount {
                    display_name: name.to_owned(),
                    password_hash: hash,
                };
                match bounded(door.store.join(&digest, &account, door.now())).await {
                    Err(StoreError::Taken(_)) => {
                        door.by_address.failed(peer);
                        return Err(Refusal::bad_input(NAME_NOT_AVAILABLE));
                    }
                    joined => joined?,
                }
            }
            InviteKind::PasswordReset { .. } => {
                new_password(&fields.password, &fields.repeat)?;
                let hash = door.passwords.hash(&fields.password).await?;
                bounded(door.store.reset_password(&digest, &hash, door.now())).await?
            }
        };
        let cookie = open_session(door, &account, &headers, peer).await?;
        let home = match account.kind {
            AccountKind::Member { team, .. } => format!("/contest/teams/{team}"),
            AccountKind::Organiser => "/contest/organiser".to_owned(),
        };
        Ok(([(header::SET_COOKIE, cookie)], see_other(&home)).into_response())
    }
    .await;
    answer(&who, result)
}

// ----- A person's account -----

#[derive(Template)]
#[template(path = "contest/account.html")]
struct AccountPage {
    nav: Nav,
    notice: Option<&'static str>,
    sessions: Vec<SessionRow>,
    /// A member's address for notices, where the server mails them:
    /// `Some("")` for none yet.
    mail_address: Option<String>,
}

struct SessionRow {
    id: SessionId,
    signed_in: String,
    last_used: String,
    browser: String,
    address: String,
    current: bool,
}

/// The query of `/contest/account`.
#[derive(Deserialize)]
pub(crate) struct AccountQuery {
    changed: Option<String>,
    mail: Option<String>,
}

/// `GET /contest/account`: where the person is signed in, and the
/// password form.
pub(crate) async fn account(
    State(app): State<Arc<App>>,
    who: Who,
    axum::extract::Query(query): axum::extract::Query<AccountQuery>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let member = who.viewer.account().ok_or_else(Refusal::not_yours)?;
        let sessions = bounded(door.store.sessions(member, door.now())).await?;
        let sessions = sessions
            .into_iter()
            .map(|s| SessionRow {
                id: s.id,
                signed_in: when(s.session.signed_in_at),
                last_used: when(s.session.last_used_at),
                browser: s.origin.user_agent,
                address: s.origin.address,
                current: Some(s.id) == who.session,
            })
            .collect();
        let mail_address = super::mail_page::shown_address(door, &who).await?;
        let notice = match (query.changed, query.mail) {
            (Some(_), _) => Some("Your password is changed; every other session has ended."),
            (None, Some(_)) => Some("Your address for notices is saved."),
            (None, None) => None,
        };
        Ok(render(&AccountPage {
            nav: Nav::of(&who),
            notice,
            sessions,
            mail_address,
        }))
    }
    .await;
    answer(&who, result)
}

/// `POST /contest/account/sessions/{session}/end`.
pub(crate) async fn end_session(
    State(app): State<Arc<App>>,
    who: Who,
    Path(session): Path<SessionId>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let member = who.viewer.account().ok_or_else(Refusal::not_yours)?;
        bounded(door.store.end_session(member, session)).await?;
        Ok(see_other("/contest/account"))
    }
    .await;
    answer(&who, result)
}

/// The password form's fields.
#[derive(Deserialize)]
pub(crate) struct PasswordFields {
    current: String,
    password: String,
    repeat: String,
}

/// `POST /contest/account/password`: with the current password (checked
/// as a login is, within the back-off), sets the new one; every session
/// ends, and this browser is signed in anew.
pub(crate) async fn change_password(
    State(app): State<Arc<App>>,
    who: Who,
    Peer(peer): Peer,
    headers: HeaderMap,
    form: Result<Form<PasswordFields>, FormRejection>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let account = who.account.clone().ok_or_else(Refusal::not_yours)?;
        let fields = fields(form)?;
        new_password(&fields.password, &fields.repeat)?;
        let checked =
            checked_login(&app, door, peer, &account.display_name, &fields.current).await?;
        let account = checked.map_err(|refusal| {
            Refusal::new(
                refusal.status,
                "Wrong password",
                "That is not your password now; nothing was changed.",
            )
        })?;
        let hash = door.passwords.hash(&fields.password).await?;
        bounded(door.store.set_password(account.id, &hash)).await?;
        let cookie = open_session(door, &account, &headers, peer).await?;
        Ok((
            [(header::SET_COOKIE, cookie)],
            see_other("/contest/account?changed"),
        )
            .into_response())
    }
    .await;
    answer(&who, result)
}

// ----- A team's page -----

#[derive(Template)]
#[template(path = "contest/team.html")]
struct TeamPage {
    nav: Nav,
    team: String,
    team_id: TeamId,
    enabled: bool,
    auto_accept: bool,
    can_manage: bool,
    organiser: bool,
    members: Vec<MemberRow>,
    invites: Vec<InviteRow>,
}

struct MemberRow {
    id: MemberId,
    name: String,
    role: &'static str,
    enabled: bool,
    removable: bool,
}

struct InviteRow {
    id: InviteId,
    kind: &'static str,
    created: String,
    expires: String,
    state: &'static str,
    withdrawable: bool,
}

fn role_name(kind: AccountKind) -> &'static str {
    match kind {
        AccountKind::Member {
            role: Role::Teacher,
            ..
        } => "teacher",
        AccountKind::Member {
            role: Role::Student,
            ..
        } => "student",
        AccountKind::Organiser => "organiser",
    }
}

/// Whether `who` may remove `member` of `team`: a teacher their students,
/// an organiser anyone.
fn may_remove(who: &Who, team: TeamId, member: &Account) -> bool {
    let student = matches!(
        member.kind,
        AccountKind::Member {
            role: Role::Student,
            ..
        }
    );
    let organiser = matches!(who.viewer, Viewer::Organiser { .. });
    who.may(Action::Change, &Resource::Members { team }) && (organiser || student)
}

/// `GET /contest/teams/{team}`: the members; for the teacher and the
/// organisers the invite links and the settings.
pub(crate) async fn team(
    State(app): State<Arc<App>>,
    who: Who,
    Path(team): Path<TeamId>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let record = bounded(door.store.team(team)).await?;
        let members = bounded(door.store.members(team)).await?;
        let can_manage = who.may(Action::Change, &Resource::TeamPages { team });
        let now = door.now();
        let invites = if can_manage {
            bounded(door.store.invites(team)).await?
        } else {
            Vec::new()
        };
        let invites = invites
            .into_iter()
            .map(|stored| {
                let invite = stored.invite;
                let state = match invite.check(now, true) {
                    Ok(()) => "open",
                    Err(InviteError::Used) => "used",
                    Err(InviteError::Expired) => "expired",
                    Err(InviteError::Withdrawn) => "withdrawn",
                    Err(InviteError::Disabled) => "disabled",
                };
                InviteRow {
                    id: stored.id,
                    kind: match invite.kind {
                        InviteKind::Teacher => "a teacher",
                        InviteKind::Student => "a student",
                        InviteKind::PasswordReset { .. } => "a new password",
                    },
                    created: when(invite.created_at),
                    expires: when(invite.expires_at),
                    state,
                    withdrawable: state == "open"
                        && who.may(
                            Action::Change,
                            &Resource::Invite {
                                team,
                                kind: invite.kind,
                            },
                        ),
                }
            })
            .collect();
        let members = members
            .into_iter()
            .map(|member| MemberRow {
                removable: may_remove(&who, team, &member),
                id: member.id,
                role: role_name(member.kind),
                enabled: member.enabled,
                name: member.display_name,
            })
            .collect();
        Ok(render(&TeamPage {
            nav: Nav::of(&who),
            team: record.name,
            team_id: team,
            enabled: record.enabled,
            auto_accept: record.auto_accept_friendly,
            can_manage,
            organiser: matches!(who.viewer, Viewer::Organiser { .. }),
            members,
            invites,
        }))
    }
    .await;
    answer(&who, result)
}

#[derive(Template)]
#[template(path = "contest/link.html")]
struct LinkPage {
    nav: Nav,
    title: String,
    text: String,
    link: String,
    expires: String,
    back: String,
    back_label: &'static str,
}

/// The address the pages are reached at, for the links handed out.
fn base_url(door: &Door, headers: &HeaderMap) -> String {
    if let Some(url) = &door.public_url {
        return url.trim_end_matches('/').to_owned();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .filter(|host| {
            host.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
        })
        .unwrap_or("localhost");
    let scheme = if door.secure_cookies { "https" } else { "http" };
    format!("{scheme}://{host}")
}

/// Makes a new link of `kind` for `team`, and the page that shows it once.
async fn new_link(
    door: &Door,
    who: &Who,
    headers: &HeaderMap,
    team: TeamId,
    kind: InviteKind,
    title: String,
    text: String,
) -> Result<Response, Refusal> {
    let contest = bounded(door.store.contest()).await?;
    let invite = Invite::new(
        team,
        kind,
        who.viewer.account(),
        door.now(),
        &contest.settings,
    );
    let token = secrets::new_token();
    bounded(door.store.add_invite(&secrets::digest(&token), &invite)).await?;
    Ok(render(&LinkPage {
        nav: Nav::of(who),
        title,
        text,
        link: format!("{}/contest/invite/{token}", base_url(door, headers)),
        expires: when(invite.expires_at),
        back: format!("/contest/teams/{team}"),
        back_label: "The team's page",
    }))
}

/// A new teacher's or student's link for `team`, and the page that shows
/// it once.
async fn team_link(
    app: &App,
    who: &Who,
    headers: &HeaderMap,
    team: TeamId,
    kind: InviteKind,
) -> Answer {
    let role = if kind == InviteKind::Teacher {
        "teacher"
    } else {
        "student"
    };
    let result = async {
        let door = door(app)?;
        let name = bounded(door.store.team(team)).await?.name;
        new_link(
            door,
            who,
            headers,
            team,
            kind,
            format!("A new {role}'s link for {name}"),
            format!("Whoever opens this link joins the team as a {role}."),
        )
        .await
    }
    .await;
    answer(who, result)
}

/// `POST /contest/teams/{team}/invites`: a new student's link.
pub(crate) async fn new_student_invite(
    State(app): State<Arc<App>>,
    who: Who,
    headers: HeaderMap,
    Path(team): Path<TeamId>,
) -> Answer {
    team_link(&app, &who, &headers, team, InviteKind::Student).await
}

/// `POST /contest/teams/{team}/invites/{invite}/withdraw`: a student's
/// link by its teacher or an organiser, any other link by an organiser.
pub(crate) async fn withdraw_invite(
    State(app): State<Arc<App>>,
    who: Who,
    Path((team, invite)): Path<(TeamId, InviteId)>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let invites = if who.may(Action::View, &Resource::TeamPages { team }) {
            bounded(door.store.invites(team)).await?
        } else {
            Vec::new()
        };
        let stored = invites.iter().find(|i| i.id == invite);
        let allowed = stored.is_some_and(|stored| {
            who.may(
                Action::Change,
                &Resource::Invite {
                    team,
                    kind: stored.invite.kind,
                },
            )
        });
        if !allowed {
            return Err(Refusal::not_yours());
        }
        bounded(door.store.withdraw_invite(team, invite)).await?;
        Ok(see_other(&format!("/contest/teams/{team}")))
    }
    .await;
    answer(&who, result)
}

/// `POST /contest/teams/{team}/members/{member}/remove`: a teacher removes
/// a student, an organiser anyone of the team.
pub(crate) async fn remove_member(
    State(app): State<Arc<App>>,
    who: Who,
    Path((team, member)): Path<(TeamId, MemberId)>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let members = bounded(door.store.members(team)).await?;
        let Some(account) = members.iter().find(|m| m.id == member) else {
            return Err(Refusal::new(
                StatusCode::NOT_FOUND,
                "Not found",
                "No such member of this team.",
            ));
        };
        if !may_remove(&who, team, account) {
            return Err(Refusal::new(
                StatusCode::FORBIDDEN,
                "Not yours",
                "A teacher removes the team's students; the organisers remove a teacher.",
            ));
        }
        bounded(door.store.remove_member(team, member)).await?;
        Ok(see_other(&format!("/contest/teams/{team}")))
    }
    .await;
    answer(&who, result)
}

/// The team settings' fields (an unticked box sends nothing).
#[derive(Deserialize)]
pub(crate) struct SettingsFields {
    auto_accept: Option<String>,
}

/// `POST /contest/teams/{team}/settings`.
pub(crate) async fn team_settings(
    State(app): State<Arc<App>>,
    who: Who,
    Path(team): Path<TeamId>,
    form: Result<Form<SettingsFields>, FormRejection>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let fields = fields(form)?;
        let auto_accept = match fields.auto_accept.as_deref() {
            None => false,
            Some("on") => true,
            Some(_) => {
                return Err(Refusal::bad_input(
                    "The box is ticked or not; nothing else.",
                ));
            }
        };
        bounded(door.store.set_auto_accept(team, auto_accept)).await?;
        Ok(see_other(&format!("/contest/teams/{team}")))
    }
    .await;
    answer(&who, result)
}

// ----- The organiser's pages -----

#[derive(Template)]
#[template(path = "contest/organiser.html")]
struct OrganiserPage {
    nav: Nav,
    contest: String,
    teams: Vec<OrganiserTeam>,
}

struct OrganiserTeam {
    id: TeamId,
    name: String,
    members: usize,
    enabled: bool,
}

/// `GET /contest/organiser`: the teams, and the form to add one.
pub(crate) async fn organiser(State(app): State<Arc<App>>, who: Who) -> Answer {
    let result = async {
        let door = door(&app)?;
        let contest = bounded(door.store.contest()).await?;
        let mut teams = Vec::new();
        for team in bounded(door.store.teams()).await? {
            let members = bounded(door.store.members(team.id)).await?.len();
            teams.push(OrganiserTeam {
                id: team.id,
                name: team.name,
                members,
                enabled: team.enabled,
            });
        }
        Ok(render(&OrganiserPage {
            nav: Nav::of(&who),
            contest: contest.name,
            teams,
        }))
    }
    .await;
    answer(&who, result)
}

/// The new team's fields.
#[derive(Deserialize)]
pub(crate) struct TeamFields {
    name: String,
}

/// `POST /contest/organiser/teams`: adds a team and shows its teacher's
/// link.
pub(crate) async fn add_team(
    State(app): State<Arc<App>>,
    who: Who,
    headers: HeaderMap,
    form: Result<Form<TeamFields>, FormRejection>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let fields = fields(form)?;
        let name = fields.name.trim();
        check_team_name(name).map_err(|error| Refusal::bad_input(format!("The {error}.")))?;
        let team = bounded(door.store.add_team(name, None)).await?;
        new_link(
            door,
            &who,
            &headers,
            team.id,
            InviteKind::Teacher,
            format!("The team {} is added", team.name),
            "Whoever opens this link first becomes the team's teacher.".to_owned(),
        )
        .await
    }
    .await;
    answer(&who, result)
}

/// `POST /contest/organiser/teams/{team}/invite`: a new teacher's link.
pub(crate) async fn teacher_invite(
    State(app): State<Arc<App>>,
    who: Who,
    headers: HeaderMap,
    Path(team): Path<TeamId>,
) -> Answer {
    team_link(&app, &who, &headers, team, InviteKind::Teacher).await
}

/// The enable and disable buttons' field.
#[derive(Deserialize)]
pub(crate) struct EnabledFields {
    enabled: bool,
}

/// `POST /contest/organiser/teams/{team}/enabled`: disabling a team ends
/// its members' sessions.
pub(crate) async fn team_enabled(
    State(app): State<Arc<App>>,
    who: Who,
    Path(team): Path<TeamId>,
    form: Result<Form<EnabledFields>, FormRejection>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let fields = fields(form)?;
        bounded(door.store.set_team_enabled(team, fields.enabled)).await?;
        Ok(see_other(&format!("/contest/teams/{team}")))
    }
    .await;
    answer(&who, result)
}

/// A team's member (not an organiser), or why not.
async fn member_of_a_team(
    store: &dyn ContestAccounts,
    member: MemberId,
) -> Result<(Account, TeamId), Refusal> {
    let account = bounded(store.account(member)).await?;
    match account.kind {
        AccountKind::Member { team, .. } => Ok((account, team)),
        AccountKind::Organiser => Err(Refusal::new(
            StatusCode::FORBIDDEN,
            "Refused",
            "Organisers' accounts are kept on the command line.",
        )),
    }
}

/// `POST /contest/organiser/members/{member}/enabled`: disabling a member
/// ends their sessions.
pub(crate) async fn member_enabled(
    State(app): State<Arc<App>>,
    who: Who,
    Path(member): Path<MemberId>,
    form: Result<Form<EnabledFields>, FormRejection>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let fields = fields(form)?;
        let (_, team) = member_of_a_team(door.store.as_ref(), member).await?;
        bounded(door.store.set_account_enabled(member, fields.enabled)).await?;
        Ok(see_other(&format!("/contest/teams/{team}")))
    }
    .await;
    answer(&who, result)
}

/// `POST /contest/organiser/members/{member}/reset`: a password-reset
/// link for a member.
pub(crate) async fn reset_link(
    State(app): State<Arc<App>>,
    who: Who,
    headers: HeaderMap,
    Path(member): Path<MemberId>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let (account, team) = member_of_a_team(door.store.as_ref(), member).await?;
        new_link(
            door,
            &who,
            &headers,
            team,
            InviteKind::PasswordReset { member },
            format!("A new password for {}", account.display_name),
            format!(
                "Whoever opens this link sets a new password for {}; every session of the account ends.",
                account.display_name
            ),
        )
        .await
    }
    .await;
    answer(&who, result)
}

/// The contest's routes, under `/contest`, their forms capped at
/// [`MAX_FORM_BYTES`](super::MAX_FORM_BYTES).
pub(crate) fn routes() -> axum::Router<Arc<App>> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/contest", get(home))
        .route("/contest/login", get(login_form).post(log_in))
        .route("/contest/logout", post(log_out))
        .route("/contest/account", get(account))
        .route("/contest/account/password", post(change_password))
        .route("/contest/account/mail", post(super::mail_page::set_address))
        .route("/contest/account/sessions/{session}/end", post(end_session))
        .route("/contest/invite/{token}", get(invite_form).post(redeem))
        .route("/contest/teams/{team}", get(self::team))
        .route("/contest/teams/{team}/invites", post(new_student_invite))
        .route(
            "/contest/teams/{team}/invites/{invite}/withdraw",
            post(withdraw_invite),
        )
        .route(
            "/contest/teams/{team}/members/{member}/remove",
            post(remove_member),
        )
        .route("/contest/teams/{team}/settings", post(team_settings))
        .route("/contest/organiser", get(organiser))
        .route("/contest/organiser/teams", post(add_team))
        .route(
            "/contest/organiser/teams/{team}/invite",
            post(teacher_invite),
        )
        .route(
            "/contest/organiser/teams/{team}/enabled",
            post(team_enabled),
        )
        .route(
            "/contest/organiser/members/{member}/enabled",
            post(member_enabled),
        )
        .route(
            "/contest/organiser/members/{member}/reset",
            post(reset_link),
        )
        .layer(axum::extract::DefaultBodyLimit::max(super::MAX_FORM_BYTES))
}
