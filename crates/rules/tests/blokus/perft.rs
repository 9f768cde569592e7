//! Perft data tests: `tests/data/*.perft`, recomputed with the engine
//! within a node budget, and the small numbers also with the brute-force
//! reference generator.

use std::{fs, path::Path};

use spielleiter_rules::blokus::{Blokus, Move, perft::perft};

use crate::{perft_file::parse, util::reference_moves};

/// Lines with more nodes are skipped, to keep the test run short.
const NODE_LIMIT: u64 = 10_000_000;
/// Lines whose depth-minus-one count is at most this are recomputed with
/// the reference generator (one brute-force generation per interior node).
const REFERENCE_LIMIT: u64 = 2_000;

/// Perft with the reference generator for the moves; only the rules of
/// turn order and game end come from the engine.
fn reference_perft(game: &Blokus, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_over() {
        return 0;
    }
    reference_moves(&game.to_setup(), game.current_color())
        .iter()
        .map(|&p| {
            let mut child = game.clone();
            child
                .play(&Move::Set(p))
                .expect("reference moves are legal");
            reference_perft(&child, depth - 1)
        })
        .sum()
}

#[test]
fn perft_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files = 0;
    let mut checked = 0;
    let mut cross_checked = 0;
    for entry in fs::read_dir(&dir).expect("tests/data exists") {
        let path = entry.expect("readable directory").path();
        if path.extension().is_none_or(|e| e != "perft") {
            continue;
        }
        files += 1;
        let text = fs::read_to_string(&path).expect("readable perft file");
        for block in parse(&text) {
            let game = block.game.expect("every block has a start piece");
            let mut previous = 1;
            for (depth, nodes) in block.expected {
                if nodes <= NODE_LIMIT && previous <= NODE_LIMIT {
                    assert_eq!(perft(&game, depth), nodes, "{} perft {depth}", block.id);
                    checked += 1;
                }
                if previous <= REFERENCE_LIMIT {
                    assert_eq!(
                        reference_perft(&game, depth),
                        nodes,
                        "{} reference perft {depth}",
                        block.id
                    );
                    cross_checked += 1;
                }
                previous = nodes;
            }
        }
    }
    assert!(
        files >= 1 && checked >= 20 && cross_checked >= 15,
        "{files} files, {checked} lines, {cross_checked} cross-checked"
    );
}
