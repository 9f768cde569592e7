//! The web side of Spielleiter: pages to watch running games live and to
//! step through replays, board pictures, Prometheus metrics and a health
//! check, served over HTTP (axum) on a port of its own in the server's
//! process and runtime.
//!
//! The web side reads what the server publishes and nothing else: the
//! rooms' snapshots and the counters
//! ([`ServerStats`](spielleiter_server::stats::ServerStats), with its
//! [`showroom`](spielleiter_server::showroom)), the replay directory and,
//! with `serve --store`, a season through the read-only
//! [`SeasonSource`](season::SeasonSource). It cannot send anything to a
//! room, so watching never lets anyone move, and
//! a slow or busy page never slows a game (see [`live`]). The one way in
//! is a person's own seat ([`play`]): an ordinary player connection to the
//! game server (in-process, and unable to administer), whose moves go
//! through the same wire and rules as any client's, and only from the
//! browser that opened it.
//!
//! # Routes
//!
//! | route | what |
//! | --- | --- |
//! | `/` | the open rooms (live) and the last finished games |
//! | `/rooms/{id}` | one room's board, players, points and clock, live |
//! | `/replays`, `/replays/{name}` | the replays, and a viewer for one |
//! | `/season`, `/season/games/{n}` | the season of `serve --store` ([`season`]), and a game's replay in the viewer |
//! | `/login` | the administrator's login (see [`access`]) |
//! | `/contest`, `/contest/…` | the teams' door: login, invite links, accounts, a team's and the organisers' pages ([`accounts`], with `router_with_contest`) |
//! | `/api/rooms`, `/api/rooms/{id}`, `/api/rooms/{id}/events`, `/api/rooms/{id}/board.svg` | the rooms' JSON, event stream and board |
//! | `/api/replays`, `/api/replays/{name}` | the replays' JSON (the list with players, winner and length, filtered by `?game=` and `?player=`) |
//! | `/api/replays/{name}/file`, `/api/replays/{name}/blksgf` | a replay as stored, and a classic game as Pentobi's record, to download |
//! | `/api/replays/{name}/wire` | a replay's wire log as text, to whoever may watch running games ([`wire_log`]) |
//! | `/api/season`, `/api/season/games`, `/api/season/games/{n}/replay` | the season's standings and progress, its games a page at a time, a stored replay |
//! | `/api/season/games/{n}/replay.xml.gz`, `…/replay.blksgf` | a stored replay, and a classic game as Pentobi's record, to download |
//! | `/api/games` | the hosted games' ids and titles ([`games`]) |
//! | `/play`, `/play/{id}` | a person takes a seat and plays in the browser ([`play`]) |
//! | `/api/play`, `/api/play/{id}`, `/api/play/{id}/move`, `/api/play/{id}/why`, `/api/play/{id}/leave` | the seats' JSON: open, view, move, why a click is no move, leave |
//! | `/metrics` | Prometheus text ([`metrics`]) |
//! | `/healthz` | `ok` |
//!
//! The pages are plain HTML with a little JavaScript, embedded in the
//! binary (`assets/`).
//!
//! Every route is decided by one access rule ([`route_access`]; the
//! matrix of routes and viewers is `ACCESS.md` beside the manifest).
//!
//! The web side has a budget of its own ([`connections`]): connections in
//! all and per address, a time limit for a request's headers, event
//! streams per address; guesses at the passphrase share the game port's
//! back-off ([`access`]).

pub mod access;
pub mod accounts;
pub mod app;
pub mod archive;
pub mod connections;
mod embedded;
pub mod error;
pub mod games;
pub mod live;
pub mod metrics;
mod pages;
pub mod play;
pub mod route_access;
mod routes;
pub mod season;
pub mod viewer;
pub mod views;
pub mod wire_log;

pub use crate::{
    access::Access,
    app::{App, MAX_STREAMS, WebSettings},
    connections::{WebLimits, serve},
    embedded::EmbeddedWeb,
    routes::{router, router_with, router_with_contest, router_with_season},
};
