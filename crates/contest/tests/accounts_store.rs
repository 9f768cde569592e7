//! Every case of the accounts stores' conformance suite against the
//! in-memory store the web side's tests use (the season store runs the
//! same cases against SQLite and PostgreSQL).

use std::{
    future::Future,
    pin::pin,
    task::{Context, Poll, Waker},
};

use spielleiter_contest::{
    Contest, ContestId, ContestSettings,
    accounts_store::{MemoryAccounts, conformance::CASES},
};
use spielleiter_rules::GameType;

/// Runs a future of the in-memory store to its end: its futures are ready
/// at once, so no executor is needed.
fn finish<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..1000 {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
    }
    panic!("an in-memory store's future did not finish")
}

fn store() -> MemoryAccounts {
    MemoryAccounts::new(Contest {
        id: ContestId(1),
        name: "Test contest".to_owned(),
        game: GameType::ALL[0],
        seed: 7,
        settings: ContestSettings::default(),
    })
}

#[test]
fn the_in_memory_store_passes_every_case() {
    assert!(CASES.len() >= 15);
    // Every case runs, and the message names each one that failed.
    let failed: Vec<&str> = CASES
        .iter()
        .filter(|(name, case)| {
            let store = store();
            eprintln!("case {name}");
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| finish(case(&store)))).is_err()
        })
        .map(|(name, _)| *name)
        .collect();
    assert!(failed.is_empty(), "failed cases: {failed:?}");
}
