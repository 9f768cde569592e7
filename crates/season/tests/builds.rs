//! A team's uploads and their builds in the season store (schema version
//! 6), on SQLite and PostgreSQL: an upload queued as the team's next
//! version with its build job, in one transaction; the oldest build claimed
//! first, fenced by its attempt and lease; a worker killed while building
//! (its lease run out) — another worker claims and finishes, the first
//! one's late heartbeat and finish are refused with nothing written, and
//! the version has one image and one log; a failed build with its log
//! capped; refused uploads that store nothing; members activate only a
//! tested version; a store of schema version 6 gaining the tables.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.

#[macro_use]
mod both_stores;

use std::{
    sync::{
        Arc, Mutex,
        atomic::{AtomicU32, Ordering},
    },
    time::Duration,
};

use both_stores::TestStore;
use spielleiter_contest::{
    ContestAccounts, ContestSettings, MemberId, NewAccount, NoticeKind, Runtime, StoreError,
    TeamId, TeamNotices, TeamVersions, Timestamp, Upload, VersionNumber, VersionState,
};
use spielleiter_rules::GameType;
use spielleiter_season::{
    AnyStore, BuildJob, BuildOutcome, BuildReport, Built, ContestStore, ImageBuilder, NewContest,
    SeasonError, WorkerSettings, build_sql::MAX_BUILD_LOG_BYTES, contest_image_key, create_contest,
    run_build_worker,
};

both_stores!(
    an_upload_is_queued_as_the_next_version_with_its_build,
    a_worker_killed_while_building_is_replaced_and_its_late_finish_refused,
    a_failed_build_keeps_its_capped_log_and_cannot_be_activated,
    refused_uploads_store_nothing,
    a_store_of_schema_version_6_gains_the_build_tables,
    the_build_worker_builds_each_queued_upload_and_one_a_killed_worker_left,
);

const NOW: Timestamp = Timestamp(1_800_000_000);
const LEASE: Duration = Duration::from_secs(60);

async fn contest(test: &TestStore) -> (ContestStore<AnyStore>, TeamId, MemberId) {
    let opened = Arc::new(test.open_again().await.unwrap());
    let new = NewContest {
        name: "Cup".to_owned(),
        game: GameType::DEFAULT,
        seed: Some(5),
        settings: ContestSettings::default(),
    };
    create_contest(&*opened, &new, || 0).await.unwrap();
    let store = ContestStore::open(opened).await.unwrap();
    let team = store.add_team("Owls", None).await.unwrap().id;
    let by = store
        .add_organiser(&NewAccount {
            display_name: "Grace".to_owned(),
            password_hash: "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaA".to_owned(),
        })
        .await
        .unwrap()
        .id;
    (store, team, by)
}

/// The contest's part of its images' names.
async fn key_of(store: &ContestStore<AnyStore>) -> String {
    contest_image_key(&store.contest().await.unwrap())
}

fn upload(by: MemberId, parameters: &str, archive: &[u8]) -> Upload {
    Upload {
        runtime: Runtime::Native,
        start_parameters: parameters.to_owned(),
        comment: "a try".to_owned(),
        archive: archive.to_vec(),
        by,
    }
}

fn refused(result: Result<impl std::fmt::Debug, SeasonError>) -> String {
    match result {
        Err(SeasonError::Refused(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Makes every running build's lease run out, as if its worker had been
/// killed a lease ago.
fn expire_leases(test: &TestStore) {
    test.sql("UPDATE contest_builds SET lease_until = 0 WHERE state = 'building'");
}

async fn an_upload_is_queued_as_the_next_version_with_its_build(test: TestStore) {
    let (store, team, by) = contest(&test).await;
    store
        .add_version(team, "builtin:random", "the organiser's", NOW)
        .await
        .unwrap();
    let first = store
        .queue_upload(team, &upload(by, "--depth 3", b"PK first"), NOW)
        .await
        .unwrap();
    let second = store
        .queue_upload(team, &upload(by, "", b"PK second"), NOW)
        .await
        .unwrap();
    assert_eq!(
        (first.number, first.state, first.player.as_str()),
        (VersionNumber(2), VersionState::Uploaded, "")
    );
    assert_eq!(second.number, VersionNumber(3));
    assert_eq!(
        test.sql("SELECT version, state, attempt FROM contest_builds ORDER BY version"),
        format!("{}|queued|0\n{}|queued|0", first.id.0, second.id.0)
    );
    // The oldest first; the second worker gets the next; nothing is left.
    let job = store.claim_build("w1", LEASE).await.unwrap().unwrap();
    assert_eq!((job.version, job.attempt), (first.id, 1));
    assert_eq!(job.archive, b"PK first");
    assert_eq!(job.start_parameters, "--depth 3");
    let next = store.claim_build("w2", LEASE).await.unwrap().unwrap();
    assert_eq!(next.version, second.id);
    assert!(store.claim_build("w3", LEASE).await.unwrap().is_none());
    let listed = store.team_versions(team).await.unwrap();
    let states: Vec<_> = listed
        .iter()
        .map(|v| (v.number.0, v.state, v.runtime))
        .collect();
    assert_eq!(
        states,
        [
            (1, VersionState::Built, None),
            (2, VersionState::Building, Some(Runtime::Native)),
            (3, VersionState::Building, Some(Runtime::Native)),
        ]
    );
    assert!(store.heartbeat_build(&job, LEASE).await.unwrap());
    let built = BuildOutcome::Built {
        image: job.image_tag(),
    };
    assert!(
        store
            .finish_build(&job, &built, "built it", NOW)
            .await
            .unwrap()
    );
    let versions = store.versions(team).await.unwrap();
    assert_eq!(versions[1].state, VersionState::Built);
    assert_eq!(
        versions[1].player,
        format!(
            "docker:sl-team-{}-{}:v2 --depth 3",
            key_of(&store).await,
            team.0
        )
    );
    // Finished: no more heartbeats, no second finish.
    assert!(!store.heartbeat_build(&job, LEASE).await.unwrap());
    assert!(
        !store
            .finish_build(&job, &built, "again", NOW)
            .await
            .unwrap()
    );
    let log = store
        .build_log(team, VersionNumber(2))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(log.log, "built it");
    // The team is told once, not again for the refused second finish.
    let notices = store.notices(team).await.unwrap();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].kind, NoticeKind::BuildFinished);
    assert!(
        notices[0].text.starts_with("Version 2 is built"),
        "{notices:?}"
    );
    assert_eq!(store.build_log(team, VersionNumber(1)).await.unwrap(), None);
    assert_eq!(
        store.build_log(team, VersionNumber(9)).await,
        Err(StoreError::NotFound("version"))
    );
}

async fn a_worker_killed_while_building_is_replaced_and_its_late_finish_refused(test: TestStore) {
    let (store, team, by) = contest(&test).await;
    let version = store
        .queue_upload(team, &upload(by, "", b"PK"), NOW)
        .await
        .unwrap();
    let killed = store.claim_build("killed", LEASE).await.unwrap().unwrap();
    // While its lease holds, nobody else gets it.
    assert!(store.claim_build("other", LEASE).await.unwrap().is_none());
    expire_leases(&test);
    // A lease run out cannot be renewed.
    assert!(!store.heartbeat_build(&killed, LEASE).await.unwrap());
    let other = store.claim_build("other", LEASE).await.unwrap().unwrap();
    assert_eq!((other.version, other.attempt), (version.id, 2));
    assert_eq!(
        test.sql("SELECT state FROM contest_versions"),
        "building",
        "a build retried keeps its version's state"
    );
    let image = other.image_tag();
    assert!(
        store
            .finish_build(
                &other,
                &BuildOutcome::Built {
                    image: image.clone()
                },
                "the other's log",
                NOW
            )
            .await
            .unwrap()
    );
    // The killed worker comes back: its heartbeat and finish change nothing.
    let before = test.sql("SELECT * FROM contest_builds");
    assert!(!store.heartbeat_build(&killed, LEASE).await.unwrap());
    assert!(
        !store
            .finish_build(&killed, &BuildOutcome::Failed, "the killed one's log", NOW)
            .await
            .unwrap()
    );
    assert_eq!(test.sql("SELECT * FROM contest_builds"), before);
    assert_eq!(
        test.sql("SELECT state, attempt, worker, log, image FROM contest_builds"),
        format!("built|2|other|the other's log|{image}")
    );
    assert_eq!(
        test.sql("SELECT state, player FROM contest_versions"),
        format!("built|docker:{image}")
    );
    // A superseded attempt is refused even while the new lease holds.
    let again = store
        .queue_upload(team, &upload(by, "", b"PK"), NOW)
        .await
        .unwrap();
    let first = store.claim_build("a", LEASE).await.unwrap().unwrap();
    expire_leases(&test);
    let second = store.claim_build("b", LEASE).await.unwrap().unwrap();
    assert_eq!(second.version, again.id);
    test.sql("UPDATE contest_builds SET lease_until = 99999999999999");
    assert!(
        !store
            .finish_build(&first, &BuildOutcome::Failed, "late", NOW)
            .await
            .unwrap()
    );
    assert_eq!(
        test.sql(&format!(
            "SELECT state, log FROM contest_builds WHERE version = {}",
            again.id.0
        )),
        "building|"
    );
}

async fn a_failed_build_keeps_its_capped_log_and_cannot_be_activated(test: TestStore) {
    let (store, team, by) = contest(&test).await;
    store
        .queue_upload(team, &upload(by, "", b"PK"), NOW)
        .await
        .unwrap();
    let job = store.claim_build("w", LEASE).await.unwrap().unwrap();
    let long = format!("{}the last line says why", "x".repeat(200_000));
    assert!(
        store
            .finish_build(&job, &BuildOutcome::Failed, &long, NOW)
            .await
            .unwrap()
    );
    let log = store
        .build_log(team, VersionNumber(1))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(log.state, VersionState::BuildFailed);
    assert!(log.log.len() <= MAX_BUILD_LOG_BYTES, "{}", log.log.len());
    assert!(log.log.ends_with("the last line says why"));
    assert!(log.log.starts_with("[the log's first bytes are cut"));
    let before = test.sql("SELECT * FROM contest_versions");
    assert_eq!(
        store
            .activate(team, VersionNumber(1), by, "Grace", NOW)
            .await,
        Err(StoreError::Refused(
            spielleiter_contest::versions_store::NOT_ACTIVATABLE
        ))
    );
    // Built but not tested: a member may not activate it either, the
    // organiser may.
    store
        .queue_upload(team, &upload(by, "", b"PK"), NOW)
        .await
        .unwrap();
    let job = store.claim_build("w", LEASE).await.unwrap().unwrap();
    let image = job.image_tag();
    store
        .finish_build(&job, &BuildOutcome::Built { image }, "ok", NOW)
        .await
        .unwrap();
    assert!(
        store
            .activate(team, VersionNumber(2), by, "Grace", NOW)
            .await
            .is_err()
    );
    assert_eq!(test.sql("SELECT COUNT(*) FROM contest_activations"), "0");
    assert_ne!(test.sql("SELECT * FROM contest_versions"), before);
    test.sql("UPDATE contest_versions SET state = 'tested' WHERE number = 2");
    store
        .activate(team, VersionNumber(2), by, "Grace", NOW)
        .await
        .unwrap();
    assert_eq!(
        test.sql("SELECT v.number, a.by_name FROM contest_activations a JOIN contest_versions v ON v.id = a.version"),
        "2|Grace"
    );
    let why = refused(
        store
            .activate_version(team, VersionNumber(1), None, "admin", NOW)
            .await,
    );
    assert!(why.contains("build failed"), "{why}");
}

async fn refused_uploads_store_nothing(test: TestStore) {
    let (store, team, by) = contest(&test).await;
    let rows = || {
        test.sql(
            "SELECT (SELECT COUNT(*) FROM contest_versions), (SELECT COUNT(*) FROM contest_uploads), \
             (SELECT COUNT(*) FROM contest_builds)",
        )
    };
    for (parameters, comment, says) in [
        ("a\nb", "", "one line"),
        ("--name 'unclosed", "", "not closed"),
        ("", &"x".repeat(2001)[..], "comment"),
    ] {
        let mut bad = upload(by, parameters, b"PK");
        bad.comment = comment.to_owned();
        let why = refused(store.queue_upload(team, &bad, NOW).await);
        assert!(why.contains(says), "{why}");
    }
    let why = refused(
        store
            .queue_upload(TeamId(999), &upload(by, "", b"PK"), NOW)
            .await,
    );
    assert!(why.contains("no team"), "{why}");
    assert_eq!(
        store
            .upload(team, &upload(by, "--name 'unclosed", b"PK"), NOW)
            .await,
        Err(StoreError::Refused(
            "a quote in the start parameters is not closed"
        ))
    );
    assert_eq!(rows(), "0|0|0");
    // Shell's signs are words like any other: kept as they are.
    let odd = "--x ';rm -rf /' $(id) `id` | & > \"a b\"";
    store
        .queue_upload(team, &upload(by, odd, b"PK"), NOW)
        .await
        .unwrap();
    assert_eq!(rows(), "1|1|1");
    let job = store.claim_build("w", LEASE).await.unwrap().unwrap();
    assert_eq!(job.start_parameters, odd);
    let image = job.image_tag();
    store
        .finish_build(
            &job,
            &BuildOutcome::Built {
                image: image.clone(),
            },
            "",
            NOW,
        )
        .await
        .unwrap();
    let player = &store.versions(team).await.unwrap()[0].player;
    let program: spielleiter_arena::Program = player.parse().unwrap();
    let spielleiter_arena::Program::Docker(sandboxed) = program else {
        panic!("{player}")
    };
    assert_eq!(sandboxed.image, image);
    assert_eq!(
        sandboxed.args,
        ["--x", ";rm -rf /", "$(id)", "`id`", "|", "&", ">", "a b"]
    );
}

async fn a_store_of_schema_version_6_gains_the_build_tables(test: TestStore) {
    let (store, team, _) = contest(&test).await;
    drop(store);
    test.sql("DROP TABLE contest_notice_mail");
    test.sql("DROP TABLE contest_mail_addresses");
    test.sql("DROP TABLE contest_notice_reads");
    test.sql("DROP TABLE contest_notices");
    test.sql("DROP TABLE contest_challenges");
    test.sql("DROP TABLE contest_builds");
    test.sql("DROP TABLE contest_uploads");
    test.sql("UPDATE spielleiter_schema SET version = 6");
    let store = ContestStore::open(Arc::new(test.open_again().await.unwrap()))
        .await
        .unwrap();
    assert_eq!(
        test.sql("SELECT version FROM spielleiter_schema"),
        spielleiter_season::SCHEMA_VERSION.to_string()
    );
    assert_eq!(test.sql("SELECT COUNT(*) FROM contest_builds"), "0");
    assert!(store.claim_build("w", LEASE).await.unwrap().is_none());
    assert!(store.team_versions(team).await.unwrap().is_empty());
}

/// A builder that makes no image: an archive `PK good` builds, any other
/// fails; it counts its builds and the tags it was asked for.
#[derive(Default)]
struct FakeBuilder {
    builds: AtomicU32,
    tags: Mutex<Vec<String>>,
}

impl ImageBuilder for FakeBuilder {
    fn build(&self, job: &BuildJob) -> Built {
        self.builds.fetch_add(1, Ordering::Relaxed);
        self.tags.lock().unwrap().push(job.image_tag());
        if job.archive == b"PK good" {
            Built {
                image: Some(job.image_tag()),
                log: format!("built {}", job.image_tag()),
            }
        } else {
            Built {
                image: None,
                log: "no `start` at the upload's root".to_owned(),
            }
        }
    }
}

async fn the_build_worker_builds_each_queued_upload_and_one_a_killed_worker_left(test: TestStore) {
    let (store, team, by) = contest(&test).await;
    let key = key_of(&store).await;
    for archive in [&b"PK good"[..], b"PK bad", b"PK good"] {
        store
            .queue_upload(team, &upload(by, "--fast", archive), NOW)
            .await
            .unwrap();
    }
    // A worker claimed version 1 and was killed: its lease ran out.
    let killed = store.claim_build("killed", LEASE).await.unwrap().unwrap();
    expire_leases(&test);
    let builder = Arc::new(FakeBuilder::default());
    let mut settings = WorkerSettings::new("builder".to_owned());
    settings.lease = LEASE;
    let report = run_build_worker(
        &store,
        Arc::clone(&builder) as Arc<dyn ImageBuilder>,
        &settings,
        tokio_util::sync::CancellationToken::new(),
        true,
    )
    .await
    .unwrap();
    assert_eq!(
        report,
        BuildReport {
            built: 2,
            failed: 1,
            discarded: 0,
            interrupted: false
        }
    );
    assert_eq!(builder.builds.load(Ordering::Relaxed), 3);
    assert_eq!(
        *builder.tags.lock().unwrap(),
        (1..=3)
            .map(|n| format!("sl-team-{key}-{}:v{n}", team.0))
            .collect::<Vec<_>>()
    );
    assert!(
        !store
            .finish_build(&killed, &BuildOutcome::Failed, "late", NOW)
            .await
            .unwrap()
    );
    let states: Vec<_> = store
        .versions(team)
        .await
        .unwrap()
        .into_iter()
        .map(|v| (v.state, v.player))
        .collect();
    let player = |n| format!("docker:sl-team-{key}-{}:v{n} --fast", team.0);
    assert_eq!(
        states,
        [
            (VersionState::Built, player(1)),
            (VersionState::BuildFailed, String::new()),
            (VersionState::Built, player(3)),
        ]
    );
    assert_eq!(
        test.sql("SELECT worker, attempt, log FROM contest_builds ORDER BY version"),
        format!(
            "builder|2|built sl-team-{key}-{t}:v1\nbuilder|1|no `start` at the upload's root\nbuilder|1|built sl-team-{key}-{t}:v3",
            t = team.0
        )
    );
}
