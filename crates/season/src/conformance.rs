//! The archive cases every season store passes, for the stores' tests
//! (`tests/archive.rs`, on SQLite and on PostgreSQL): the archive's own cases
//! ([`spielleiter_archive::conformance`]) on a claimed game, and the
//! fencing of a store: a game stored under an expired or a superseded
//! claim writes nothing, none of its logs either. Each case panics with
//! what differs.

use std::{sync::Arc, time::Duration};

use spielleiter_archive::{
    ArchiveError, Fence, GameArchive, Stored,
    conformance::{sample_game, stored_game_reads_back},
};

use crate::{SeasonArchive, SeasonDefinition, SeasonPlayer, SeasonStore};

const LONG: Duration = Duration::from_secs(60);

/// Creates season `season` of three games in `store` and runs every case
/// on it.
pub async fn season_archive_cases<S: SeasonStore + std::fmt::Debug + 'static>(
    store: Arc<S>,
    season: &str,
) {
    let definition = SeasonDefinition {
        game: "swc_2021_blokus".to_owned(),
        players: ["alice", "bob", "carol"]
            .map(|name| SeasonPlayer {
                name: name.to_owned(),
                start: "builtin:random".to_owned(),
            })
            .to_vec(),
        games_per_table: 1,
        seed: 1,
        timed: false,
    };
    store
        .create(
            season,
            &definition,
            &definition.schedule().expect("a schedule"),
        )
        .await
        .expect("created");
    let archive = SeasonArchive::open(Arc::clone(&store), season)
        .await
        .expect("the season");

    // A claimed game reads back whole.
    let claim = store
        .claim(season, "w1", LONG, 3, None)
        .await
        .expect("claim")
        .expect("a game");
    let game = sample_game(&["alice", "bob"]);
    let fence = Fence {
        number: claim.game.number,
        attempt: claim.attempt,
    };
    let key = stored_game_reads_back(&archive, &game, Some(fence)).await;
    assert_eq!(key, claim.game.number.to_string());
    // Written once: the same claim again is refused.
    assert_eq!(
        archive.store(&game, Some(fence)).await.expect("asked"),
        Stored::Refused
    );

    // A superseded claim: the lease ran out and another worker claimed
    // the game; the first worker's store writes nothing.
    let stale = store
        .claim(season, "w2", Duration::from_millis(1), 3, None)
        .await
        .expect("claim")
        .expect("a game");
    tokio::time::sleep(Duration::from_millis(20)).await;
    let current = store
        .claim(season, "w3", LONG, 3, None)
        .await
        .expect("claim")
        .expect("the expired game again");
    assert_eq!(current.game.number, stale.game.number);
    let late = Fence {
        number: stale.game.number,
        attempt: stale.attempt,
    };
    assert_eq!(
        archive.store(&game, Some(late)).await.expect("asked"),
        Stored::Refused
    );
    // An expired claim nobody took over writes nothing either.
    let expired = store
        .claim(season, "w4", Duration::from_millis(1), 3, None)
        .await
        .expect("claim")
        .expect("the third game");
    tokio::time::sleep(Duration::from_millis(20)).await;
    let gone = Fence {
        number: expired.game.number,
        attempt: expired.attempt,
    };
    assert_eq!(
        archive.store(&game, Some(gone)).await.expect("asked"),
        Stored::Refused
    );
    for number in [stale.game.number, expired.game.number] {
        let key = number.to_string();
        for part in [
            archive.player_log(&key, 0).await.map(|_| ()),
            archive.wire_log(&key).await.map(|_| ()),
            archive.replay(&key).await.map(|_| ()),
            archive.record(&key).await.map(|_| ()),
        ] {
            assert!(
                part.as_ref().is_err_and(ArchiveError::is_not_found),
                "game {number}: {part:?}"
            );
        }
    }
    // The current claim stores it.
    let now = Fence {
        number: current.game.number,
        attempt: current.attempt,
    };
    assert_eq!(
        archive.store(&game, Some(now)).await.expect("stored"),
        Stored::Kept(current.game.number.to_string())
    );
    // Without a claim a season keeps nothing.
    let unfenced = archive.store(&game, None).await;
    assert!(
        matches!(unfenced, Err(ArchiveError::Unstorable(_))),
        "{unfenced:?}"
    );
}
