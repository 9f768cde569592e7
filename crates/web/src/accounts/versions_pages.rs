//! A team's versions in the door (issue 36): the list (number, runtime,
//! state, comment, active) with the upload form and an Activate button per
//! version, each version's build log, the upload (multipart: the ZIP, the
//! runtime, start parameters, a comment) and the activation. Only the
//! team's members and the organisers see any of it; only its members
//! change it ([`route_access`](crate::route_access), rule
//! `Resource::Versions`).
//!
//! An upload is checked here as far as it can be without unpacking it —
//! its size (capped before its body is read whole, by the access layer),
//! the runtime, the texts, and the ZIP's listing with the sandbox's own
//! checks ([`spielleiter_sandbox::check_upload_listing`]: a ZIP bomb, a
//! path leaving the directory, a link, no start file) — then stored with
//! its build queued; a worker with Docker builds it, never the web server.
//! Each refusal is one message, and nothing is stored.

use std::sync::Arc;

use askama::Template;
use axum::{
    extract::{Multipart, Path, State},
    http::StatusCode,
};
use spielleiter_contest::{
    Runtime, StoreError, TeamId, TeamVersions, Upload, VersionNumber, VersionState,
    versions::{check_comment, check_start_parameters},
};

use super::{
    Door, MAX_UPLOAD_BYTES, bounded,
    message::{Nav, render},
    pages::{Answer, Refusal, answer, door, refused_as, see_other, when},
};
use crate::{app::App, route_access::Who};

/// The most bytes of a text field of the upload form (the start parameters
/// and comment have their own, smaller, limits).
const MAX_TEXT_FIELD: usize = 8 * 1024;

fn versions_of(door: &Door) -> Result<&Arc<dyn TeamVersions>, Refusal> {
    door.versions.as_ref().ok_or_else(|| {
        Refusal::new(
            StatusCode::NOT_FOUND,
            "No versions here",
            "This contest's store keeps no versions.",
        )
    })
}

pub(super) fn state_name(state: VersionState) -> &'static str {
    match state {
        VersionState::Uploaded => "uploaded, waiting for a build worker",
        VersionState::Building => "building",
        VersionState::Built => "built, not tested yet",
        VersionState::BuildFailed => "build failed",
        VersionState::Testing => "testing: its games against the random bot wait for the workers",
        VersionState::Tested => "tested",
        VersionState::TestFailed => "test failed",
        VersionState::Active => "active",
    }
}

#[derive(Template)]
#[template(path = "contest/versions.html")]
struct VersionsPage {
    nav: Nav,
    team: String,
    team_id: TeamId,
    may_change: bool,
    versions: Vec<VersionRow>,
    runtimes: Vec<&'static str>,
    max_mib: usize,
}

struct VersionRow {
    number: u32,
    runtime: &'static str,
    state: &'static str,
    comment: String,
    start_parameters: String,
    uploaded: String,
    active: bool,
    activatable: bool,
    testable: bool,
}

/// `GET /contest/teams/{team}/versions`.
pub(crate) async fn versions(
    State(app): State<Arc<App>>,
    who: Who,
    Path(team): Path<TeamId>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let record = bounded(door.store.team(team)).await?;
        let listed = bounded(versions_of(door)?.team_versions(team)).await?;
        let may_change = who.may(
            spielleiter_contest::Action::Change,
            &spielleiter_contest::Resource::Versions { team },
        );
        let versions = listed
            .into_iter()
            .rev()
            .map(|v| VersionRow {
                number: v.number.0,
                runtime: v.runtime.map_or("named by the organiser", Runtime::name),
                state: state_name(v.state),
                comment: v.comment,
                start_parameters: v.start_parameters,
                uploaded: when(v.created_at),
                activatable: may_change && !v.active && v.state.may_activate(),
                testable: may_change
                    && !v.active
                    && v.state
                        .after(spielleiter_contest::VersionEvent::TestStarted)
                        .is_ok(),
                active: v.active,
            })
            .collect();
        Ok(render(&VersionsPage {
            nav: Nav::of(&who),
            team: record.name,
            team_id: team,
            may_change,
            versions,
            runtimes: Runtime::ALL.iter().map(|r| r.name()).collect(),
            max_mib: MAX_UPLOAD_BYTES / (1024 * 1024),
        }))
    }
    .await;
    answer(&who, result)
}

#[derive(Template)]
#[template(path = "contest/build_log.html")]
struct BuildLogPage {
    nav: Nav,
    team: String,
    team_id: TeamId,
    number: u32,
    state: &'static str,
    image: Option<String>,
    log: Option<String>,
}

/// `GET /contest/teams/{team}/versions/{number}/log`.
pub(crate) async fn build_log(
    State(app): State<Arc<App>>,
    who: Who,
    Path((team, number)): Path<(TeamId, u32)>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let record = bounded(door.store.team(team)).await?;
        let store = versions_of(door)?;
        let number = VersionNumber(number);
        let build = bounded(store.build_log(team, number)).await?;
        let state = match &build {
            Some(build) => build.state,
            None => bounded(store.team_versions(team))
                .await?
                .into_iter()
                .find(|v| v.number == number)
                .map_or(VersionState::Built, |v| v.state),
        };
        Ok(render(&BuildLogPage {
            nav: Nav::of(&who),
            team: record.name,
            team_id: team,
            number: number.0,
            state: state_name(state),
            image: build.as_ref().and_then(|b| b.image.clone()),
            log: build.map(|b| b.log),
        }))
    }
    .await;
    answer(&who, result)
}

/// The upload form's fields as sent.
#[derive(Default)]
struct UploadFields {
    runtime: Option<String>,
    start_parameters: String,
    comment: String,
    file_name: String,
    archive: Option<Vec<u8>>,
}

fn unreadable() -> Refusal {
    Refusal::bad_input("The form could not be read as this page sends it; nothing was stored.")
}

async fn read_fields(mut form: Multipart) -> Result<UploadFields, Refusal> {
    let mut fields = UploadFields::default();
    while let Some(field) = form.next_field().await.map_err(|_| unreadable())? {
        let name = field.name().unwrap_or_default().to_owned();
        match name.as_str() {
            "archive" => {
                fields.file_name = field.file_name().unwrap_or("upload.zip").to_owned();
                let bytes = field.bytes().await.map_err(|_| unreadable())?;
                fields.archive = Some(bytes.to_vec());
            }
            "runtime" | "start_parameters" | "comment" => {
                // UTF-8, as the page sends it, whatever charset the field
                // names.
                let bytes = field.bytes().await.map_err(|_| unreadable())?;
                let text = String::from_utf8(bytes.to_vec()).map_err(|_| unreadable())?;
                if text.len() > MAX_TEXT_FIELD {
                    return Err(Refusal::bad_input(format!(
                        "The field {name} has {} bytes; far more than it may have. Nothing was stored.",
                        text.len()
                    )));
                }
                match name.as_str() {
                    "runtime" => fields.runtime = Some(text),
                    "start_parameters" => fields.start_parameters = text,
                    _ => fields.comment = text,
                }
            }
            // The CSRF token (checked before) and anything else.
            _ => {}
        }
    }
    Ok(fields)
}

/// The upload `fields` checked as far as they can be without unpacking
/// the archive: what the store is handed.
fn checked_upload(
    fields: UploadFields,
    by: spielleiter_contest::MemberId,
) -> Result<Upload, Refusal> {
    let runtime_text = fields.runtime.unwrap_or_default();
    let Some(runtime) = Runtime::named(runtime_text.trim()) else {
        return Err(Refusal::bad_input(format!(
            "There is no runtime “{}”: choose native, python or java. Nothing was stored.",
            runtime_text.chars().take(40).collect::<String>()
        )));
    };
    let start_parameters = fields.start_parameters.trim().to_owned();
    check_start_parameters(&start_parameters).map_err(|e| {
        Refusal::bad_input(format!(
            "{}; nothing was stored.",
            sentence_start(&e.to_string())
        ))
    })?;
    check_comment(&fields.comment).map_err(|e| {
        Refusal::bad_input(format!(
            "{}; nothing was stored.",
            sentence_start(&e.to_string())
        ))
    })?;
    let archive = fields
        .archive
        .filter(|archive| !archive.is_empty())
        .ok_or_else(|| Refusal::bad_input("No ZIP file was sent; nothing was stored."))?;
    let sandbox_runtime = match runtime {
        Runtime::Native => spielleiter_sandbox::Runtime::Native,
        Runtime::Python => spielleiter_sandbox::Runtime::Python,
        Runtime::Java => spielleiter_sandbox::Runtime::Java,
    };
    let limits = spielleiter_sandbox::UploadLimits {
        max_upload_bytes: MAX_UPLOAD_BYTES as u64,
        ..spielleiter_sandbox::UploadLimits::default()
    };
    let shown_name: String = fields
        .file_name
        .chars()
        .filter(|c| !c.is_control())
        .take(80)
        .collect();
    spielleiter_sandbox::check_upload_listing(&shown_name, &archive, sandbox_runtime, &limits)
        .map_err(|error| Refusal::bad_input(format!("{error}. Nothing was stored.")))?;
    Ok(Upload {
        runtime,
        start_parameters,
        comment: fields.comment,
        archive,
        by,
    })
}

/// A model's message with its first letter capitalised.
fn sentence_start(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `POST /contest/teams/{team}/versions`: a member's upload.
pub(crate) async fn upload(
    State(app): State<Arc<App>>,
    who: Who,
    Path(team): Path<TeamId>,
    form: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let Some(by) = who.viewer.account() else {
            return Err(Refusal::not_a_member());
        };
        let store = versions_of(door)?;
        let fields = read_fields(form.map_err(|_| unreadable())?).await?;
        let upload = checked_upload(fields, by)?;
        let stored = bounded(store.upload(team, &upload, door.now()))
            .await
            .map_err(|error| match error {
                StoreError::Refused(why) => {
                    Refusal::bad_input(format!("{}; nothing was stored.", sentence_start(why)))
                }
                other => other.into(),
            })?;
        tracing::info!(
            team = team.0,
            version = stored.number.0,
            bytes = upload.archive.len(),
            "a version was uploaded; its build is queued"
        );
        Ok(see_other(&format!("/contest/teams/{team}/versions")))
    }
    .await;
    answer(&who, result)
}

/// `POST /contest/teams/{team}/versions/{number}/activate`.
pub(crate) async fn activate(
    State(app): State<Arc<App>>,
    who: Who,
    Path((team, number)): Path<(TeamId, u32)>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let (Some(by), Some(account)) = (who.viewer.account(), who.account.as_ref()) else {
            return Err(Refusal::not_a_member());
        };
        let store = versions_of(door)?;
        bounded(store.activate(
            team,
            VersionNumber(number),
            by,
            &account.display_name,
            door.now(),
        ))
        .await
        .map_err(refused_as("Not activated"))?;
        Ok(see_other(&format!("/contest/teams/{team}/versions")))
    }
    .await;
    answer(&who, result)
}

/// `POST /contest/teams/{team}/versions/{number}/test`: the version's
/// test games against the built-in `random` bot, for the workers.
pub(crate) async fn test(
    State(app): State<Arc<App>>,
    who: Who,
    Path((team, number)): Path<(TeamId, u32)>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        if who.viewer.account().is_none() {
            return Err(Refusal::not_a_member());
        }
        bounded(versions_of(door)?.test(team, VersionNumber(number)))
            .await
            .map_err(refused_as("Not tested"))?;
        tracing::info!(
            team = team.0,
            version = number,
            "a member asked for a version's test"
        );
        Ok(see_other(&format!("/contest/teams/{team}/versions")))
    }
    .await;
    answer(&who, result)
}

impl Refusal {
    fn not_a_member() -> Refusal {
        Refusal::new(
            StatusCode::FORBIDDEN,
            "Not yours",
            "A team's members upload and activate its versions.",
        )
    }
}

/// The versions' routes, the upload's body capped at [`MAX_UPLOAD_BYTES`]
/// (the access layer refuses a larger one before reading it whole).
pub(crate) fn routes() -> axum::Router<Arc<App>> {
    use axum::routing::{get, post};
    axum::Router::new()
        .route("/contest/teams/{team}/versions", get(versions).post(upload))
        .route(
            "/contest/teams/{team}/versions/{number}/log",
            get(build_log),
        )
        .route(
            "/contest/teams/{team}/versions/{number}/activate",
            post(activate),
        )
        .route("/contest/teams/{team}/versions/{number}/test", post(test))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_UPLOAD_BYTES))
}
