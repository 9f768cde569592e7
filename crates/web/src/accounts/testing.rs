//! A web side with a contest over the in-memory accounts store, and
//! browsers that keep their cookies, for the contest pages' tests and the
//! access matrix.

#![allow(clippy::unwrap_used)]

use std::{
    collections::BTreeMap,
    net::{IpAddr, Ipv4Addr, SocketAddr},
    sync::{
        Arc,
        atomic::{AtomicI64, Ordering},
    },
};

use axum::{
    Router,
    body::Body,
    extract::ConnectInfo,
    http::{Request, StatusCode, header},
};
use spielleiter_contest::{
    Contest, ContestAccounts, ContestCalendar, ContestId, ContestSettings, FriendlyGames, MemberId,
    NewAccount, TeamId, TeamNotices, TeamVersions, Timestamp, accounts_store::MemoryAccounts,
    versions_store::MemoryVersions,
};
use spielleiter_server::{config::HttpPublic, limits::AuthBackoff, stats::ServerStats};
use tower_service::Service;

use super::{Door, DoorSettings, PasswordParams, Passwords, results_pages::ResultsSource};

pub(crate) mod fixed_notices;
pub(crate) mod fixed_results;
pub(crate) mod memory_friendly;
pub(crate) mod recording_calendar;
use crate::{access::Access, app::WebSettings};
pub(crate) use fixed_notices::FixedNotices;
pub(crate) use fixed_results::FixedResults;
pub(crate) use memory_friendly::MemoryFriendly;
pub(crate) use recording_calendar::RecordingCalendar;

/// The administrator's passphrase of the test sites.
pub(crate) const PASSPHRASE: &str = "the administrator's passphrase";

/// Every test account's password.
pub(crate) const PASSWORD: &str = "a long enough password";

/// The instant the sites' clocks start at.
pub(crate) const START: i64 = 1_800_000_000;

/// A web side serving a contest.
pub(crate) struct Site {
    pub router: Router,
    pub store: Arc<MemoryAccounts>,
    pub versions: Arc<MemoryVersions>,
    pub clock: Arc<AtomicI64>,
    pub stats: Arc<ServerStats>,
    pub door: Arc<Door>,
    /// The contest's results the pages show (none until a test adds them).
    pub results: Arc<FixedResults>,
    /// The organiser's steps the calendar's forms took.
    pub calendar: Arc<RecordingCalendar>,
    /// The teams' friendly challenges.
    pub friendly: Arc<MemoryFriendly>,
    /// The teams' notices.
    pub notices: Arc<FixedNotices>,
}

/// What an answer was.
#[derive(Debug)]
pub(crate) struct Reply {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub location: Option<String>,
    pub cookies: Vec<String>,
    pub body: String,
}

impl Site {
    /// A site whose running games are not open to all (as on the
    /// internet), with the administrator's passphrase, `extra` routes'
    /// state (a season, replays) from `settings`.
    pub async fn new() -> Site {
        Site::with(|settings| settings, None).await
    }

    /// A site built with `adjust` applied to its settings and `season`.
    pub async fn with(
        adjust: impl FnOnce(WebSettings) -> WebSettings,
        season: Option<Arc<dyn crate::season::SeasonSource>>,
    ) -> Site {
        Site::hashing_with(adjust, season, PasswordParams::FAST_FOR_TESTS).await
    }

    /// A site whose new password hashes are made with `passwords`.
    pub async fn hashing_with(
        adjust: impl FnOnce(WebSettings) -> WebSettings,
        season: Option<Arc<dyn crate::season::SeasonSource>>,
        passwords: PasswordParams,
    ) -> Site {
        let store = Arc::new(MemoryAccounts::new(Contest {
            id: ContestId(1),
            name: "Test contest".to_owned(),
            game: spielleiter_rules::GameType::ALL[0],
            seed: 7,
            settings: ContestSettings::default(),
        }));
        let clock = Arc::new(AtomicI64::new(START));
        let settings = adjust(WebSettings {
            access: Access::new(
                IpAddr::V4(Ipv4Addr::UNSPECIFIED),
                HttpPublic::LoginOnly,
                Some(PASSPHRASE.to_owned()),
            ),
            replay_dir: None,
            limits: crate::WebLimits::default(),
            auth: Arc::new(AuthBackoff::new(
                std::time::Duration::from_millis(100),
                std::time::Duration::from_secs(10),
            )),
        });
        let read = Arc::clone(&clock);
        let results = Arc::new(FixedResults::default());
        let versions = Arc::new(MemoryVersions::new());
        let calendar = Arc::new(RecordingCalendar::default());
        let friendly = Arc::new(MemoryFriendly::default());
        let notices = Arc::new(FixedNotices::default());
        let door = Arc::new(
            Door::new(
                DoorSettings {
                    store: Arc::clone(&store) as Arc<dyn ContestAccounts>,
                    passwords,
                    secure_cookies: false,
                    public_url: None,
                    clock: Arc::new(move || Timestamp(read.load(Ordering::Relaxed))),
                    results: Some(ResultsSource {
                        results: Arc::clone(&results)
                            as Arc<dyn spielleiter_contest::ContestResults>,
                        archives: Arc::new(fixed_results::NoGames),
                    }),
                    versions: Some(Arc::clone(&versions) as Arc<dyn TeamVersions>),
                    calendar: Some(Arc::clone(&calendar) as Arc<dyn ContestCalendar>),
                    friendly: Some(Arc::clone(&friendly) as Arc<dyn FriendlyGames>),
                    notices: Some(Arc::clone(&notices) as Arc<dyn TeamNotices>),
                    sends_mail: true,
                },
                &settings.auth,
            )
            .unwrap(),
        );
        let stats = Arc::new(ServerStats::default());
        let router = crate::routes::router_with_contest(
            Arc::clone(&stats),
            settings,
            season,
            None,
            Some(Arc::clone(&door)),
        );
        Site {
            results,
            calendar,
            friendly,
            notices,
            door,
            router,
            store,
            versions,
            clock,
            stats,
        }
    }

    /// Moves the clock on.
    pub fn wait(&self, seconds: i64) {
        self.clock.fetch_add(seconds, Ordering::Relaxed);
    }

    /// The request of `method path` with `cookies` and a URL-encoded
    /// `form`, from `peer`.
    fn request(
        method: &str,
        path: &str,
        cookies: &str,
        form: Option<String>,
        peer: IpAddr,
    ) -> Request<Body> {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, "contest.test");
        if !cookies.is_empty() {
            request = request.header(header::COOKIE, cookies);
        }
        let body = match form {
            Some(form) => {
                request = request.header(header::CONTENT_TYPE, "application/x-www-form-urlencoded");
                Body::from(form)
            }
            None => Body::empty(),
        };
        let mut request = request.body(body).unwrap();
        request
            .extensions_mut()
            .insert(ConnectInfo(SocketAddr::new(peer, 40000)));
        request
    }

    /// A request with `cookies`, from `peer`, and its whole answer.
    pub async fn send(
        &self,
        method: &str,
        path: &str,
        cookies: &str,
        form: Option<String>,
        peer: IpAddr,
    ) -> Reply {
        let request = Site::request(method, path, cookies, form, peer);
        let response = self.router.clone().call(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let location = response
            .headers()
            .get(header::LOCATION)
            .map(|v| v.to_str().unwrap().to_owned());
        let cookies = response
            .headers()
            .get_all(header::SET_COOKIE)
            .iter()
            .map(|v| v.to_str().unwrap().to_owned())
            .collect();
        let bytes = axum::body::to_bytes(response.into_body(), 64 << 20)
            .await
            .unwrap();
        Reply {
            status,
            headers,
            location,
            cookies,
            body: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    /// `POST path` with `body` of `content_type` (a multipart form) and
    /// `cookies`, from `peer`, and its whole answer.
    pub async fn send_body(
        &self,
        path: &str,
        cookies: &str,
        content_type: &str,
        body: Body,
        peer: IpAddr,
    ) -> Reply {
        let mut request = Request::builder()
            .method("POST")
            .uri(path)
            .header(header::HOST, "contest.test")
            .header(header::CONTENT_TYPE, content_type);
        if !cookies.is_empty() {
            request = request.header(header::COOKIE, cookies);
        }
        let mut request = request.body(body).unwrap();
        request
            .extensions_mut()
            .insert(ConnectInfo(SocketAddr::new(peer, 40000)));
        let response = self.router.clone().call(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let location = response
            .headers()
            .get(header::LOCATION)
            .map(|v| v.to_str().unwrap().to_owned());
        let bytes = axum::body::to_bytes(response.into_body(), 64 << 20)
            .await
            .unwrap();
        Reply {
            status,
            headers,
            location,
            cookies: Vec::new(),
            body: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    /// The status of a request (its body is not read: an event stream
    /// lasts).
    pub async fn status(
        &self,
        method: &str,
        path: &str,
        cookies: &str,
        form: Option<String>,
        peer: IpAddr,
    ) -> StatusCode {
        let request = Site::request(method, path, cookies, form, peer);
        self.router.clone().call(request).await.unwrap().status()
    }

    /// A new team with `name`, straight in the store.
    pub async fn team(&self, name: &str) -> TeamId {
        self.store.add_team(name, None).await.unwrap().id
    }

    /// `team`'s teacher `name`, come in by a teacher's invite link (as the
    /// organiser's page hands them out).
    pub async fn teacher(&self, team: TeamId, name: &str) {
        let token = super::secrets::new_token();
        let invite = spielleiter_contest::Invite::new(
            team,
            spielleiter_contest::InviteKind::Teacher,
            None,
            Timestamp(START),
            &ContestSettings::default(),
        );
        self.store
            .add_invite(&super::secrets::digest(&token), &invite)
            .await
            .unwrap();
        self.browser([192, 0, 2, 20]).join(&token, name).await;
    }

    /// An organiser's account with `name`, straight in the store.
    pub async fn organiser(&self, name: &str) -> MemberId {
        let passwords = Passwords::new(PasswordParams::FAST_FOR_TESTS).unwrap();
        let account = NewAccount {
            display_name: name.to_owned(),
            password_hash: passwords.hash(PASSWORD).await.unwrap(),
        };
        self.store.add_organiser(&account).await.unwrap().id
    }

    /// A browser from `peer` with no cookies yet.
    pub fn browser(&self, peer: [u8; 4]) -> Browser<'_> {
        Browser {
            site: self,
            peer: IpAddr::from(peer),
            cookies: BTreeMap::new(),
            csrf: None,
        }
    }
}

/// A browser: its cookies, and the CSRF token of the last page with a form.
pub(crate) struct Browser<'s> {
    site: &'s Site,
    pub peer: IpAddr,
    pub cookies: BTreeMap<String, String>,
    pub csrf: Option<String>,
}

/// The value of a page's first `name="csrf"` field.
pub(crate) fn csrf_of(page: &str) -> Option<String> {
    let at = page.find(r#"name="csrf" value=""#)? + r#"name="csrf" value=""#.len();
    Some(page[at..].split('"').next()?.to_owned())
}

/// The invite token of a link page.
pub(crate) fn token_of(page: &str) -> String {
    let at = page.find("/contest/invite/").unwrap() + "/contest/invite/".len();
    page[at..at + 64].to_owned()
}

impl Browser<'_> {
    pub fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn keep(&mut self, reply: &Reply) {
        for cookie in &reply.cookies {
            let pair = cookie.split(';').next().unwrap();
            let (name, value) = pair.split_once('=').unwrap();
            if value.is_empty() || cookie.contains("Max-Age=0") {
                self.cookies.remove(name);
            } else {
                self.cookies.insert(name.to_owned(), value.to_owned());
            }
        }
        if let Some(csrf) = csrf_of(&reply.body) {
            self.csrf = Some(csrf);
        }
    }

    /// `GET path`.
    pub async fn get(&mut self, path: &str) -> Reply {
        let cookies = self.cookie_header();
        let reply = self.site.send("GET", path, &cookies, None, self.peer).await;
        self.keep(&reply);
        reply
    }

    /// `POST path` with `fields` and the browser's CSRF token.
    pub async fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Reply {
        let csrf = self.csrf.clone().unwrap_or_default();
        let mut form: Vec<(&str, &str)> = vec![("csrf", &csrf)];
        form.extend_from_slice(fields);
        self.post_raw(path, encode(&form)).await
    }

    /// `POST path` with `body` as it is.
    pub async fn post_raw(&mut self, path: &str, body: String) -> Reply {
        let cookies = self.cookie_header();
        let reply = self
            .site
            .send("POST", path, &cookies, Some(body), self.peer)
            .await;
        self.keep(&reply);
        reply
    }

    /// Logs in as `name` with [`PASSWORD`], expecting to get in.
    pub async fn log_in(&mut self, name: &str) -> Reply {
        self.get("/contest/login").await;
        let reply = self
            .post("/contest/login", &[("name", name), ("password", PASSWORD)])
            .await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
        let home = reply.location.clone().unwrap();
        self.get(&home).await;
        reply
    }

    /// Opens the invite link `token` and joins as `name`, expecting to.
    pub async fn join(&mut self, token: &str, name: &str) -> Reply {
        let path = format!("/contest/invite/{token}");
        let form = self.get(&path).await;
        assert_eq!(form.status, StatusCode::OK, "{}", form.body);
        let reply = self
            .post(
                &path,
                &[("name", name), ("password", PASSWORD), ("repeat", PASSWORD)],
            )
            .await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
        let home = reply.location.clone().unwrap();
        self.get(&home).await;
        reply
    }

    /// Logs in as the administrator with the passphrase.
    pub async fn log_in_as_administrator(&mut self) {
        let reply = self
            .post_raw("/login", encode(&[("passphrase", PASSPHRASE)]))
            .await;
        assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
        self.get("/contest/organiser").await;
    }
}

/// A URL-encoded form.
pub(crate) fn encode(fields: &[(&str, &str)]) -> String {
    fields
        .iter()
        .map(|(name, value)| format!("{name}={}", percent(value)))
        .collect::<Vec<_>>()
        .join("&")
}

fn percent(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
