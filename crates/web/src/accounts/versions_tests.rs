//! The versions' pages: a member's upload stored with its texts verbatim;
//! each bad upload refused with one message and nothing stored (a ZIP
//! bomb, traversal, a link, no start file, an unknown runtime, bad start
//! parameters, no file, a forged form, a body over the cap — declared or
//! streamed — refused before it is read whole); the build log; activation
//! only of a tested version; who sees what.

#![allow(clippy::unwrap_used)]

use std::{
    io::Write,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
};

use axum::{body::Body, http::StatusCode};
use spielleiter_contest::{Runtime, TeamId, TeamVersions, VersionNumber, VersionState};

use super::{
    MAX_UPLOAD_BYTES,
    testing::{Browser, Reply, Site},
};

/// A site with team T (its teacher Tess signed in), team U (its teacher
/// Ulla) and the organiser Grace.
async fn site() -> (Site, TeamId) {
    let site = Site::new().await;
    let team = site.team("T").await;
    let other = site.team("U").await;
    site.organiser("Grace").await;
    for (team, name) in [(team, "Tess"), (other, "Ulla")] {
        site.teacher(team, name).await;
    }
    (site, team)
}

/// A zip archive of `entries`; a name starting with `@` is a link to
/// `/etc/passwd`.
fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for (name, data) in entries {
        if let Some(link) = name.strip_prefix('@') {
            writer.add_symlink(link, "/etc/passwd", options).unwrap();
        } else {
            writer.start_file(*name, options).unwrap();
            writer.write_all(data).unwrap();
        }
    }
    writer.finish().unwrap().into_inner()
}

/// A zip archive of `start` and one entry whose central directory says
/// it unpacks to 4 GiB (its data a few bytes of DEFLATE): what a bomb
/// declares, written byte by byte so the test compresses nothing.
fn bomb() -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    let u16le = |v: u16| v.to_le_bytes();
    let u32le = |v: u32| v.to_le_bytes();
    for (name, data, size) in [
        ("start", &b"\x03\x00"[..], 0u32),
        ("zeros", b"\x03\x00", 0xFFFF_FFF0),
    ] {
        let offset = u32::try_from(out.len()).unwrap();
        let common = |buf: &mut Vec<u8>| {
            buf.extend(u16le(20)); // version needed
            buf.extend(u16le(0)); // flags
            buf.extend(u16le(8)); // DEFLATE
            buf.extend(u32le(0)); // time, date
            buf.extend(u32le(0)); // CRC-32 (not read by a listing)
            buf.extend(u32le(u32::try_from(data.len()).unwrap()));
            buf.extend(u32le(size));
            buf.extend(u16le(u16::try_from(name.len()).unwrap()));
            buf.extend(u16le(0)); // extra
        };
        out.extend(u32le(0x0403_4b50));
        common(&mut out);
        out.extend(name.as_bytes());
        out.extend(data);
        central.extend(u32le(0x0201_4b50));
        central.extend(u16le(0x0314)); // made by: Unix, 2.0
        common(&mut central);
        central.extend(u16le(0)); // comment
        central.extend(u16le(0)); // disk
        central.extend(u16le(0)); // internal attributes
        central.extend(u32le(0o100_644 << 16)); // a regular file
        central.extend(u32le(offset));
        central.extend(name.as_bytes());
    }
    let central_at = u32::try_from(out.len()).unwrap();
    out.extend(&central);
    out.extend(u32le(0x0605_4b50));
    out.extend(u16le(0));
    out.extend(u16le(0));
    out.extend(u16le(2));
    out.extend(u16le(2));
    out.extend(u32le(u32::try_from(central.len()).unwrap()));
    out.extend(u32le(central_at));
    out.extend(u16le(0));
    out
}

/// A multipart form of `fields` and the file `archive`, with `csrf`.
fn form(csrf: &str, fields: &[(&str, &str)], archive: Option<&[u8]>) -> Vec<u8> {
    let mut body = Vec::new();
    let mut field = |name: &str, file: Option<&str>, value: &[u8]| {
        body.extend_from_slice(b"--XyZ\r\n");
        match file {
            Some(file) => body.extend_from_slice(
                format!("content-disposition: form-data; name=\"{name}\"; filename=\"{file}\"\r\ncontent-type: application/zip\r\n\r\n").as_bytes(),
            ),
            None => body.extend_from_slice(
                format!("content-disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes(),
            ),
        }
        body.extend_from_slice(value);
        body.extend_from_slice(b"\r\n");
    };
    field("csrf", None, csrf.as_bytes());
    for (name, value) in fields {
        field(name, None, value.as_bytes());
    }
    if let Some(archive) = archive {
        field("archive", Some("bot.zip"), archive);
    }
    body.extend_from_slice(b"--XyZ--\r\n");
    body
}

async fn send(site: &Site, browser: &Browser<'_>, team: TeamId, body: Body) -> Reply {
    site.send_body(
        &format!("/contest/teams/{team}/versions"),
        &browser.cookie_header(),
        "multipart/form-data; boundary=XyZ",
        body,
        browser.peer,
    )
    .await
}

/// The signed-in browser of `name`, on the versions page of `team`.
async fn member<'s>(site: &'s Site, name: &str, team: TeamId) -> Browser<'s> {
    let mut browser = site.browser([198, 51, 100, 7]);
    browser.log_in(name).await;
    browser
        .get(&format!("/contest/teams/{team}/versions"))
        .await;
    browser
}

async fn upload(
    site: &Site,
    browser: &Browser<'_>,
    team: TeamId,
    fields: &[(&str, &str)],
    archive: Option<&[u8]>,
) -> Reply {
    let csrf = browser.csrf.clone().unwrap_or_default();
    send(
        site,
        browser,
        team,
        Body::from(form(&csrf, fields, archive)),
    )
    .await
}

#[tokio::test]
async fn a_members_upload_is_stored_as_sent_with_its_build_queued() {
    let (site, team) = site().await;
    let tess = member(&site, "Tess", team).await;
    let archive = zip_of(&[("start", b"#!/bin/sh\n"), ("lib/bot.py", b"x = 1\n")]);
    // Shell's signs are words like any other: stored as they are, and
    // passed as arguments.
    let parameters = "--name 'a b' ; rm -rf / $(id) `id` | x > y";
    let reply = upload(
        &site,
        &tess,
        team,
        &[
            ("runtime", "native"),
            ("start_parameters", parameters),
            ("comment", "first <b>try</b>"),
        ],
        Some(&archive),
    )
    .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
    let stored = site.versions.upload_of(team, VersionNumber(1)).unwrap();
    assert_eq!(stored.runtime, Runtime::Native);
    assert_eq!(stored.start_parameters, parameters);
    assert_eq!(stored.archive, archive);
    assert_eq!(stored.comment, "first <b>try</b>");
    let mut tess = tess;
    let page = tess.get(&format!("/contest/teams/{team}/versions")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.contains("uploaded, waiting for a build worker"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("first &#60;b&#62;try&#60;/b&#62;")
            || page.body.contains("first &lt;b&gt;try&lt;/b&gt;"),
        "{}",
        page.body
    );
    assert!(!page.body.contains("<b>try"));
    assert!(page.body.contains(r#"enctype="multipart/form-data""#));
    // The organiser sees the versions, but uploads none; another team's
    // teacher sees nothing.
    let mut grace = member(&site, "Grace", team).await;
    let page = grace.get(&format!("/contest/teams/{team}/versions")).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("/versions/1/log"));
    assert!(!page.body.contains("multipart/form-data"));
    let reply = upload(
        &site,
        &grace,
        team,
        &[("runtime", "native")],
        Some(&archive),
    )
    .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
    let mut ulla = member(&site, "Ulla", team).await;
    let page = ulla.get(&format!("/contest/teams/{team}/versions")).await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    let page = ulla
        .get(&format!("/contest/teams/{team}/versions/1/log"))
        .await;
    assert_eq!(page.status, StatusCode::FORBIDDEN);
    assert_eq!(site.versions.count(), 1);
}

/// What is wrong, the form's fields, its file, and what the answer says.
type BadUpload<'a> = (&'a str, Vec<(&'a str, &'a str)>, Option<Vec<u8>>, &'a str);

#[tokio::test]
async fn each_bad_upload_is_refused_with_one_message_and_nothing_stored() {
    let (site, team) = site().await;
    let tess = member(&site, "Tess", team).await;
    let good = zip_of(&[("start", b"#!/bin/sh\n")]);
    let bomb = bomb();
    assert!(bomb.len() < 1024, "{}", bomb.len());
    let native = [("runtime", "native")];
    let cases: Vec<BadUpload<'_>> = vec![
        ("a zip bomb", native.to_vec(), Some(bomb), "a zip bomb"),
        (
            "traversal",
            native.to_vec(),
            Some(zip_of(&[("start", b""), ("../../etc/cron.d/x", b"")])),
            "points outside the upload",
        ),
        (
            "a link",
            native.to_vec(),
            Some(zip_of(&[("start", b""), ("@passwd", b"")])),
            "passwd",
        ),
        (
            "no start file",
            native.to_vec(),
            Some(zip_of(&[("bot/start", b"")])),
            "no `start`",
        ),
        (
            "not a zip",
            native.to_vec(),
            Some(b"#!/bin/sh\necho hi\n".to_vec()),
            "not a zip",
        ),
        (
            "an unknown runtime",
            vec![("runtime", "cobol")],
            Some(good.clone()),
            "no runtime “cobol”",
        ),
        (
            "start parameters on two lines",
            vec![("runtime", "native"), ("start_parameters", "a\nb")],
            Some(good.clone()),
            "one line",
        ),
        ("no file", native.to_vec(), None, "No ZIP file"),
        (
            "an empty file",
            native.to_vec(),
            Some(Vec::new()),
            "No ZIP file",
        ),
    ];
    for (what, fields, archive, says) in cases {
        let reply = upload(&site, &tess, team, &fields, archive.as_deref()).await;
        assert_eq!(
            reply.status,
            StatusCode::BAD_REQUEST,
            "{what}: {}",
            reply.body
        );
        assert!(reply.body.contains(says), "{what}: {}", reply.body);
        assert!(
            reply.body.contains("Nothing was stored") || reply.body.contains("nothing was stored"),
            "{what}: {}",
            reply.body
        );
        assert_eq!(site.versions.count(), 0, "{what}");
    }
    // A form without the session's token.
    let reply = send(
        &site,
        &tess,
        team,
        Body::from(form("forged", &native, Some(&good))),
    )
    .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{}", reply.body);
    assert_eq!(site.versions.count(), 0);
    // The same form with it is taken.
    let reply = upload(&site, &tess, team, &native, Some(&good)).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
    assert_eq!(site.versions.count(), 1);
}

/// A body of `total` bytes in chunks of 1 MiB, made as they are read:
/// `pulled` counts what the server took.
fn streamed(total: u64, pulled: Arc<AtomicU64>) -> Body {
    const CHUNK: u64 = 1024 * 1024;
    let stream = futures_util::stream::unfold(0u64, move |sent| {
        let pulled = Arc::clone(&pulled);
        async move {
            if sent >= total {
                return None;
            }
            pulled.fetch_add(CHUNK, Ordering::Relaxed);
            Some((
                Ok::<_, std::io::Error>(axum::body::Bytes::from(vec![b'x'; CHUNK as usize])),
                sent + CHUNK,
            ))
        }
    });
    Body::from_stream(stream)
}

#[tokio::test]
async fn a_200_mb_upload_is_refused_before_it_is_read_whole() {
    let (site, team) = site().await;
    let tess = member(&site, "Tess", team).await;
    const BIG: u64 = 200 * 1000 * 1000;
    // Declared: refused unread.
    let pulled = Arc::new(AtomicU64::new(0));
    let mut request = axum::http::Request::builder()
        .method("POST")
        .uri(format!("/contest/teams/{team}/versions"))
        .header(axum::http::header::HOST, "contest.test")
        .header(axum::http::header::COOKIE, tess.cookie_header())
        .header(
            axum::http::header::CONTENT_TYPE,
            "multipart/form-data; boundary=XyZ",
        )
        .header(axum::http::header::CONTENT_LENGTH, BIG.to_string())
        .body(streamed(BIG, Arc::clone(&pulled)))
        .unwrap();
    request
        .extensions_mut()
        .insert(axum::extract::ConnectInfo(std::net::SocketAddr::new(
            tess.peer, 40000,
        )));
    let response = tower_service::Service::call(&mut site.router.clone(), request)
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(pulled.load(Ordering::Relaxed), 0);
    // Streamed without a length: read up to the cap and no further.
    let pulled = Arc::new(AtomicU64::new(0));
    let reply = send(&site, &tess, team, streamed(BIG, Arc::clone(&pulled))).await;
    assert_eq!(
        reply.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{}",
        reply.body
    );
    assert!(reply.body.contains("at most 32 MiB"), "{}", reply.body);
    let read = pulled.load(Ordering::Relaxed);
    assert!(read <= MAX_UPLOAD_BYTES as u64 + 1024 * 1024, "{read}");
    assert_eq!(site.versions.count(), 0);
}

#[tokio::test]
async fn only_a_tested_version_is_activated_and_its_build_log_shown() {
    let (site, team) = site().await;
    let mut tess = member(&site, "Tess", team).await;
    let good = zip_of(&[("start", b"#!/bin/sh\n")]);
    for _ in 0..3 {
        let reply = upload(&site, &tess, team, &[("runtime", "native")], Some(&good)).await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
    }
    site.versions.set_state(
        team,
        VersionNumber(1),
        VersionState::BuildFailed,
        "Step 3/5 : COPY player /player\nno <start> found",
    );
    site.versions
        .set_state(team, VersionNumber(2), VersionState::Built, "built");
    site.versions
        .set_state(team, VersionNumber(3), VersionState::Tested, "built");
    let page = tess.get(&format!("/contest/teams/{team}/versions")).await;
    assert!(!page.body.contains("Activate version 1"), "{}", page.body);
    assert!(!page.body.contains("Activate version 2"), "{}", page.body);
    assert!(page.body.contains("Activate version 3"), "{}", page.body);
    for refused in [1, 2] {
        let reply = tess
            .post(
                &format!("/contest/teams/{team}/versions/{refused}/activate"),
                &[],
            )
            .await;
        assert_eq!(reply.status, StatusCode::CONFLICT, "{}", reply.body);
        assert!(reply.body.contains("passed its test"), "{}", reply.body);
    }
    assert_eq!(site.versions.activations(), 0);
    let reply = tess
        .post(&format!("/contest/teams/{team}/versions/3/activate"), &[])
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
    assert_eq!(site.versions.activations(), 1);
    let page = tess.get(&format!("/contest/teams/{team}/versions")).await;
    assert!(page.body.contains("<td>active</td>"), "{}", page.body);
    let log = tess
        .get(&format!("/contest/teams/{team}/versions/1/log"))
        .await;
    assert_eq!(log.status, StatusCode::OK);
    assert!(log.body.contains("build failed"), "{}", log.body);
    assert!(
        log.body.contains("no &#60;start&#62; found")
            || log.body.contains("no &lt;start&gt; found"),
        "{}",
        log.body
    );
    let missing = tess
        .get(&format!("/contest/teams/{team}/versions/9/log"))
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_built_version_is_tested_by_its_members_only_and_once_at_a_time() {
    let (site, team) = site().await;
    let mut tess = member(&site, "Tess", team).await;
    let good = zip_of(&[("start", b"#!/bin/sh\n")]);
    for _ in 0..2 {
        let reply = upload(&site, &tess, team, &[("runtime", "native")], Some(&good)).await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
    }
    site.versions
        .set_state(team, VersionNumber(2), VersionState::Built, "built");
    let before = tess
        .get(&format!("/contest/teams/{team}/versions/2/test"))
        .await;
    assert!(before.body.contains("Not tested yet"), "{}", before.body);
    let page = tess.get(&format!("/contest/teams/{team}/versions")).await;
    assert!(
        !page.body.contains("Test version 1"),
        "not built: {}",
        page.body
    );
    assert!(page.body.contains("Test version 2"), "{}", page.body);
    let refused = tess
        .post(&format!("/contest/teams/{team}/versions/1/test"), &[])
        .await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert!(refused.body.contains("built version"), "{}", refused.body);

    // Another team's teacher and the organiser may not.
    for name in ["Ulla", "Grace"] {
        let mut other = site.browser([198, 51, 100, 8]);
        other.log_in(name).await;
        other.get("/contest/account").await;
        let reply = other
            .post(&format!("/contest/teams/{team}/versions/2/test"), &[])
            .await;
        assert_eq!(
            reply.status,
            StatusCode::FORBIDDEN,
            "{name}: {}",
            reply.body
        );
    }
    let state = |site: &Site| {
        let site = site.versions.clone();
        async move { site.team_versions(team).await.unwrap()[1].state }
    };
    assert_eq!(state(&site).await, VersionState::Built);

    tess.get(&format!("/contest/teams/{team}/versions")).await;
    let tested = tess
        .post(&format!("/contest/teams/{team}/versions/2/test"), &[])
        .await;
    assert_eq!(tested.status, StatusCode::SEE_OTHER, "{}", tested.body);
    assert_eq!(state(&site).await, VersionState::Testing);
    let page = tess.get(&format!("/contest/teams/{team}/versions")).await;
    assert!(
        !page.body.contains("Test version 2") && page.body.contains("testing: its games"),
        "{}",
        page.body
    );
    let again = tess
        .post(&format!("/contest/teams/{team}/versions/2/test"), &[])
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    let after = tess
        .get(&format!("/contest/teams/{team}/versions/2/test"))
        .await;
    assert!(
        after.body.contains("0 of 2 games played; the others wait"),
        "{}",
        after.body
    );
}
