//! The season page's data: a season's standings, live rating, progress and
//! games, read through [`SeasonSource`], and a stored game's replay for the
//! replay viewer.
//!
//! The season crate sits above the web crate (it plays games through the
//! arena), so the web side does not depend on it: it names what it shows
//! in the read-only [`SeasonSource`], which `spielleiter serve --store`
//! implements with the season's store. Every answer is bounded: the games
//! come a page of at most [`MAX_GAMES_PAGE`] at a time, and a store that
//! does not answer within [`SOURCE_TIME_LIMIT`] is reported, not awaited.

use std::{sync::Arc, time::Duration};

use axum::{
    Json,
    extract::{Path, Query, State},
    http::header,
    response::{IntoResponse, Response},
};
use serde::Deserialize;
use spielleiter_rules::GameType;
use spielleiter_server::replay::{
    archive::{self as store, LoadError},
    blksgf::ClassicRecord,
};

mod source;

pub use self::source::{
    GameEntry, GamesPage, ProgressView, RatingRow, SeasonOverview, SeasonSource, SourceFuture,
    StandingRow, WorkerRow,
};
use crate::{app::App, archive::ReplayView, error::ApiError};

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

/// `GET /api/season/games/{number}/replay`: the stored replay of a game,
/// with every position drawn, as the replay viewer reads it.
pub async fn replay(
    State(app): State<Arc<App>>,
    Path(number): Path<u32>,
) -> Result<Json<ReplayView>, ApiError> {
    let (game, gzipped) = stored(&app, number).await?;
    let label = format!("game {number}");
    let loaded = tokio::task::spawn_blocking(move || {
        store::load_gzipped(&label, game, &gzipped).map(|replay| {
            let downloads = downloads(number, game);
            crate::archive::view(label, replay, downloads)
        })
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?;
    match loaded {
        Ok(view) => Ok(Json(view)),
        Err(error) => {
            tracing::warn!(game = number, error = %crate::archive::with_causes(&error), "a stored replay cannot be read");
            Err(unreadable(&error))
        }
    }
}

/// The downloads of the season's game `number`, a game of `game`.
fn downloads(number: u32, game: GameType) -> Vec<crate::archive::DownloadView> {
    let base = format!("/api/season/games/{number}/replay");
    let mut downloads = vec![crate::archive::DownloadView {
        label: "replay (.xml.gz)".to_owned(),
        href: format!("{base}.xml.gz"),
    }];
    if crate::archive::is_classic(game) {
        downloads.push(crate::archive::DownloadView {
            label: "Pentobi record (.blksgf)".to_owned(),
            href: format!("{base}.blksgf"),
        });
    }
    downloads
}

/// The stored replay of game `number`: its game and gzipped bytes.
async fn stored(app: &App, number: u32) -> Result<(GameType, Vec<u8>), ApiError> {
    let source = source(app)?;
    bounded(source.replay(number))
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no replay is stored for game {number}")))
}

/// `GET /api/season/games/{number}/replay.xml.gz`: a game's stored
/// replay as it is stored, for a download.
pub async fn replay_file(
    State(app): State<Arc<App>>,
    Path(number): Path<u32>,
) -> Result<Response, ApiError> {
    let (game, gzipped) = stored(&app, number).await?;
    let name = format!("season_game_{number}_{}.xml.gz", game.id());
    Ok((
        [
            (header::CONTENT_TYPE, "application/gzip".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                crate::archive::attachment(&name),
            ),
        ],
        gzipped,
    )
        .into_response())
}

/// `GET /api/season/games/{number}/replay.blksgf`: a classic game's
/// stored replay as Pentobi's record.
pub async fn replay_blksgf(
    State(app): State<Arc<App>>,
    Path(number): Path<u32>,
) -> Result<Response, ApiError> {
    let (game, gzipped) = stored(&app, number).await?;
    let label = format!("game {number}");
    let record = tokio::task::spawn_blocking(move || {
        let replay = store::read_gzipped(&label, game, &gzipped).map_err(|e| unreadable(&e))?;
        ClassicRecord::of_replay(game, &replay).map_err(|e| ApiError::NotFound(e.to_string()))
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))??;
    let name = format!("season_game_{number}_{}", game.id());
    Ok(crate::archive::blksgf_response(&record, &name))
}

fn unreadable(error: &LoadError) -> ApiError {
    ApiError::Unreadable(crate::archive::with_causes(error))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::sync::Mutex;

    use super::*;

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

        fn replay(&self, _number: u32) -> SourceFuture<'_, Option<(GameType, Vec<u8>)>> {
            Box::pin(async { Err("the store is gone".to_owned()) })
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
        let error = replay(State(app(&source)), Path(1)).await.unwrap_err();
        assert!(
            matches!(&error, ApiError::Internal(why) if why == "the store is gone"),
            "{error:?}"
        );
    }
}
