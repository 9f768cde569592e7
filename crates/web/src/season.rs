//! The season page's data: a season's standings, live rating, progress and
//! games, read through [`SeasonSource`], and a stored game's replay for the
//! replay viewer, its players' logs and its wire log, read through the
//! season's archive ([`SeasonSource::archive`], the one interface to
//! finished games).
//!
//! The season crate sits above the web crate (it plays games through the
//! arena), so the web side does not depend on it: it names what it shows
//! in the read-only [`SeasonSource`], which `spielleiter serve --store`
//! implements with the season's store. Every answer is bounded: the games
//! come a page of at most [`MAX_GAMES_PAGE`] at a time, and a store that
//! does not answer within [`SOURCE_TIME_LIMIT`] is reported, not awaited.
//!
//! A game's logs hold more than its replay (what the programs printed,
//! their raw requests), so they are offered and given to whoever may watch
//! running games ([`Who::may_see_logs`](crate::route_access::Who::may_see_logs)), as a
//! replay's wire log is.

use std::{sync::Arc, time::Duration};

use axum::{
    Json,
    extract::{Path, Query, State},
    http::HeaderMap,
    response::Response,
};
use serde::Deserialize;
use spielleiter_archive::{ArchiveFuture, GameArchive};
use spielleiter_rules::GameType;

pub(crate) mod source;

pub use self::source::{
    GameEntry, GamesPage, ProgressView, RatingRow, SeasonOverview, SeasonSource, SourceFuture,
    StandingRow, WorkerRow,
};
use crate::{
    app::App,
    error::{ApiError, archive_error},
    route_access::Who,
    viewer::{self, DownloadView, PENTOBI_RECORD, ReplayView},
};

/// The most games one answer of `/api/season/games` lists.
pub const MAX_GAMES_PAGE: u32 = 200;

/// How long a season's store may take to answer one request.
pub const SOURCE_TIME_LIMIT: Duration = Duration::from_secs(10);

/// The query of `/api/season/games`.
#[derive(Debug, Deserialize)]
pub struct PageQuery {
    /// The first game's number [default: 1].
    first: Option<u32>,
    /// Games in the page [default and most: [`MAX_GAMES_PAGE`]].
    limit: Option<u32>,
}

fn source(app: &App) -> Result<Arc<dyn SeasonSource>, ApiError> {
    app.season
        .clone()
        .ok_or_else(|| ApiError::NotFound("no season is served (serve --store URL)".to_owned()))
}

/// Awaits the store within [`SOURCE_TIME_LIMIT`].
async fn bounded<T>(call: SourceFuture<'_, T>) -> Result<T, ApiError> {
    match tokio::time::timeout(SOURCE_TIME_LIMIT, call).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(why)) => {
            tracing::warn!(error = %why, "the season's store failed");
            Err(ApiError::Internal(why))
        }
        Err(_) => {
            tracing::warn!("the season's store did not answer in time");
            Err(ApiError::Internal(
                "the season's store did not answer in time".to_owned(),
            ))
        }
    }
}

/// `GET /api/season`: standings, live rating and progress.
pub async fn overview(State(app): State<Arc<App>>) -> Result<Json<SeasonOverview>, ApiError> {
    let source = source(&app)?;
    Ok(Json(bounded(source.overview()).await?))
}

/// `GET /api/season/games?first=N&limit=K`: a page of the games.
pub async fn games(
    State(app): State<Arc<App>>,
    Query(query): Query<PageQuery>,
) -> Result<Json<GamesPage>, ApiError> {
    let source = source(&app)?;
    let first = query.first.unwrap_or(1).max(1);
    let limit = query
        .limit
        .unwrap_or(MAX_GAMES_PAGE)
        .clamp(1, MAX_GAMES_PAGE);
    Ok(Json(bounded(source.games(first, limit)).await?))
}

/// Awaits the season's archive within [`SOURCE_TIME_LIMIT`], its errors
/// as the answer says them.
async fn within<T>(call: ArchiveFuture<'_, T>) -> Result<T, ApiError> {
    match tokio::time::timeout(SOURCE_TIME_LIMIT, call).await {
        Ok(answer) => answer.map_err(archive_error),
        Err(_) => {
            tracing::warn!("the season's store did not answer in time");
            Err(ApiError::Internal(
                "the season's store did not answer in time".to_owned(),
            ))
        }
    }
}

/// `GET /api/season/games/{number}/replay`: the stored replay of a game,
/// with every position drawn, as the replay viewer reads it; its downloads
/// name its players' logs and its wire log where they are kept and the
/// request may see them.
pub async fn replay(
    State(app): State<Arc<App>>,
    Path(number): Path<u32>,
    who: Who,
) -> Result<Json<ReplayView>, ApiError> {
    let archive = source(&app)?.archive();
    let key = number.to_string();
    let stored = within(archive.replay(&key)).await?;
    let loaded = match viewer::load(stored).await {
        Ok(loaded) => loaded,
        Err(error) => {
            tracing::warn!(game = number, ?error, "a stored replay cannot be read");
            return Err(error);
        }
    };
    let mut downloads = downloads(number, loaded.game);
    if who.may_see_logs(&app) {
        downloads.extend(log_downloads(&*archive, number).await?);
    }
    Ok(Json(viewer::view(
        format!("game {number}"),
        loaded,
        downloads,
    )))
}

/// The downloads of the season's game `number`, a game of `game`.
fn downloads(number: u32, game: GameType) -> Vec<DownloadView> {
    let base = format!("/api/season/games/{number}/replay");
    let mut downloads = vec![DownloadView {
        label: "replay (.xml.gz)".to_owned(),
        href: format!("{base}.xml.gz"),
    }];
    if let Some(format) = spielleiter_protocol::games::record_format(game) {
        downloads.push(DownloadView {
            label: format.label.to_owned(),
            href: format!("{base}.{}", format.name),
        });
    }
    downloads
}

/// The logs game `number` keeps, as downloads: each player's (named as its
/// record names the player) and the wire log.
async fn log_downloads(
    archive: &dyn GameArchive,
    number: u32,
) -> Result<Vec<DownloadView>, ApiError> {
    let key = number.to_string();
    let contents = within(archive.contents(&key)).await?;
    let players = if contents.player_logs.is_empty() {
        Vec::new()
    } else {
        within(archive.record(&key)).await?.players
    };
    let mut downloads: Vec<DownloadView> = contents
        .player_logs
        .iter()
        .map(|&player| DownloadView {
            label: match players.get(player) {
                Some(name) => format!("log of {name}"),
                None => format!("log of player {}", player + 1),
            },
            href: format!("/api/season/games/{number}/logs/{}", player + 1),
        })
        .collect();
    if contents.wire_log {
        downloads.push(DownloadView {
            label: "wire log".to_owned(),
            href: format!("/api/season/games/{number}/wire"),
        });
    }
    Ok(downloads)
}

/// `GET /api/season/games/{number}/replay.xml.gz`: a game's stored
/// replay as it is stored, for a download.
pub async fn replay_file(
    State(app): State<Arc<App>>,
    Path(number): Path<u32>,
) -> Result<Response, ApiError> {
    let archive = source(&app)?.archive();
    let stored = within(archive.replay(&number.to_string())).await?;
    viewer::download(stored)
}

/// `GET /api/season/games/{number}/replay.blksgf`: a classic game's
/// stored replay as Pentobi's record.
pub async fn replay_blksgf(
    State(app): State<Arc<App>>,
    Path(number): Path<u32>,
) -> Result<Response, ApiError> {
    let archive = source(&app)?.archive();
    let stored = within(archive.replay(&number.to_string())).await?;
    let name = format!(
        "season_game_{number}_{}",
        stored.game.map_or("replay", GameType::id)
    );
    viewer::record_download(stored, PENTOBI_RECORD, &name).await
}

/// `GET /api/season/games/{number}/logs/{player}`: what player `player`
/// (from 1, as the game's record orders its players) printed in game
/// `number`, as text; to whoever may watch running games.
pub async fn player_log(
    State(app): State<Arc<App>>,
    Path((number, player)): Path<(u32, usize)>,
    who: Who,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let archive = source(&app)?.archive();
    if !who.may_see_logs(&app) {
        return Err(ApiError::Unauthorized {
            login: app.access.can_log_in(),
        });
    }
    let Some(index) = player.checked_sub(1) else {
        return Err(ApiError::NotFound("players are numbered from 1".to_owned()));
    };
    let stored = within(archive.player_log(&number.to_string(), index)).await?;
    Ok(crate::wire_log::text_response(stored, &headers))
}

/// `GET /api/season/games/{number}/wire`: game `number`'s wire log, as
/// text; to whoever may watch running games.
pub async fn wire_log(
    State(app): State<Arc<App>>,
    Path(number): Path<u32>,
    who: Who,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let archive = source(&app)?.archive();
    if !who.may_see_logs(&app) {
        return Err(ApiError::Unauthorized {
            login: app.access.can_log_in(),
        });
    }
    let stored = within(archive.wire_log(&number.to_string())).await?;
    Ok(crate::wire_log::text_response(stored, &headers))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::sync::Mutex;

    use super::*;

    /// An archive whose store is gone.
    #[derive(Debug)]
    struct GoneArchive;

    fn gone<'a, T: 'a>() -> ArchiveFuture<'a, T> {
        Box::pin(async {
            Err(spielleiter_archive::ArchiveError::Backend {
                store: "test".to_owned(),
                cause: "the store is gone".to_owned(),
            })
        })
    }

    impl GameArchive for GoneArchive {
        fn describe(&self) -> String {
            "gone".to_owned()
        }
        fn store<'a>(
            &'a self,
            _: &'a spielleiter_archive::FinishedGame,
            _: Option<spielleiter_archive::Fence>,
        ) -> ArchiveFuture<'a, spielleiter_archive::Stored> {
            gone()
        }
        fn list(&self) -> ArchiveFuture<'_, Vec<spielleiter_archive::ArchivedGame>> {
            gone()
        }
        fn record<'a>(&'a self, _: &'a str) -> ArchiveFuture<'a, spielleiter_archive::GameRecord> {
            gone()
        }
        fn replay<'a>(
            &'a self,
            _: &'a str,
        ) -> ArchiveFuture<'a, spielleiter_archive::StoredReplay> {
            gone()
        }
        fn player_log<'a>(
            &'a self,
            _: &'a str,
            _: usize,
        ) -> ArchiveFuture<'a, spielleiter_archive::StoredBytes> {
            gone()
        }
        fn wire_log<'a>(
            &'a self,
            _: &'a str,
        ) -> ArchiveFuture<'a, spielleiter_archive::StoredBytes> {
            gone()
        }
        fn contents<'a>(&'a self, _: &'a str) -> ArchiveFuture<'a, spielleiter_archive::Contents> {
            gone()
        }
    }

    /// A source that records the pages asked for and answers with empty
    /// ones; its overview never comes.
    #[derive(Debug, Default)]
    struct Recording {
        asked: Mutex<Vec<(u32, u32)>>,
    }

    impl SeasonSource for Recording {
        fn overview(&self) -> SourceFuture<'_, SeasonOverview> {
            Box::pin(std::future::pending())
        }

        fn games(&self, first: u32, limit: u32) -> SourceFuture<'_, GamesPage> {
            self.asked.lock().unwrap().push((first, limit));
            Box::pin(async {
                Ok(GamesPage {
                    total: 0,
                    games: Vec::new(),
                })
            })
        }

        fn archive(&self) -> Arc<dyn GameArchive> {
            Arc::new(GoneArchive)
        }
    }

    fn app(source: &Arc<Recording>) -> Arc<App> {
        let settings = crate::app::WebSettings::new(
            crate::access::Access::new(
                [127, 0, 0, 1].into(),
                spielleiter_server::config::HttpPublic::Auto,
                None,
            ),
            None,
        );
        let source: Arc<dyn SeasonSource> = Arc::clone(source) as _;
        crate::app::app_state(Arc::default(), settings, Some(source)).0
    }

    #[tokio::test]
    async fn a_page_of_games_is_never_larger_than_the_cap() {
        let source = Arc::new(Recording::default());
        let app = app(&source);
        for (first, limit) in [
            (None, None),
            (Some(0), Some(0)),
            (Some(50), Some(10)),
            (Some(3), Some(u32::MAX)),
        ] {
            let page = games(State(Arc::clone(&app)), Query(PageQuery { first, limit }))
                .await
                .unwrap();
            assert_eq!(page.total, 0);
        }
        assert_eq!(
            *source.asked.lock().unwrap(),
            [(1, MAX_GAMES_PAGE), (1, 1), (50, 10), (3, MAX_GAMES_PAGE)]
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_store_that_does_not_answer_is_reported_after_the_time_limit() {
        let source = Arc::new(Recording::default());
        let started = tokio::time::Instant::now();
        let error = overview(State(app(&source))).await.unwrap_err();
        assert!(started.elapsed() >= SOURCE_TIME_LIMIT);
        assert!(
            matches!(&error, ApiError::Internal(why) if why.contains("did not answer in time")),
            "{error:?}"
        );
        let error = replay_file(State(app(&source)), Path(1)).await.unwrap_err();
        assert!(
            matches!(&error, ApiError::Internal(why) if why.contains("the store is gone")),
            "{error:?}"
        );
    }
}
