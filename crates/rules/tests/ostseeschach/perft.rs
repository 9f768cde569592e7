//! Perft data tests: `tests/data/ostseeschach/ostseeschach.perft`, recomputed with the
//! engine within a node budget, and with the independent reference
//! implementation (the small lines always, all of them in an ignored test).

use std::{fs, path::Path};

use spielleiter_rules::ostseeschach::perft::perft;

use crate::{
    perft_file::{Block, parse},
    reference::Board,
};

/// Lines with more nodes are skipped by the engine test, to keep the run
/// short.
const NODE_LIMIT: u64 = 20_000_000;
/// Lines with at most this many nodes are recomputed with the reference in
/// the regular test run.
const REFERENCE_LIMIT: u64 = 2_000_000;

fn blocks() -> Vec<Block> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ostseeschach/ostseeschach.perft");
    parse(&fs::read_to_string(path).expect("readable perft file"))
}

/// The block's position replayed by the reference implementation.
fn reference_position(block: &Block) -> Board {
    let mut board = Board::new(&block.start);
    for mv in &block.moves {
        let mv = (mv.from.x, mv.from.y, mv.to.x, mv.to.y);
        assert!(board.moves().contains(&mv), "{}: {mv:?}", block.id);
        board.play(mv);
    }
    board
}

#[test]
fn perft_file_counts_match_the_engine() {
    let mut checked = 0;
    for block in blocks() {
        let game = block.game.as_ref().expect("every block has a start line");
        for &(depth, nodes) in &block.expected {
            if nodes <= NODE_LIMIT {
                assert_eq!(perft(game, depth), nodes, "{} perft {depth}", block.id);
                checked += 1;
            }
        }
    }
    assert!(checked >= 35, "{checked} lines checked");
}

#[test]
fn perft_file_small_counts_match_the_reference() {
    let mut checked = 0;
    for block in blocks() {
        let board = reference_position(&block);
        for &(depth, nodes) in &block.expected {
            if nodes <= REFERENCE_LIMIT {
                assert_eq!(
                    board.perft(depth),
                    nodes,
                    "{} reference perft {depth}",
                    block.id
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 35, "{checked} lines cross-checked");
}

/// Every line with the reference (minutes in a release build:
/// `cargo test --release -p spielleiter-rules --test ostseeschach -- --ignored`).
#[test]
#[ignore = "slow: the whole data file with the simple reference"]
fn perft_file_all_counts_match_the_reference() {
    for block in blocks() {
        let board = reference_position(&block);
        for &(depth, nodes) in &block.expected {
            assert_eq!(
                board.perft(depth),
                nodes,
                "{} reference perft {depth}",
                block.id
            );
        }
    }
}
