//! Perft data tests: `tests/data/*.perft`, recomputed with the engine
//! within a node budget, and the small numbers also with the brute-force
//! reference generator.

use std::{fs, path::Path};

use spielleiter_rules::blokus::{
    Blokus, Blokus2027, Classic, Move, PieceKind, Placement,
    bcl::{Bcl, BclMove, PlaceTo},
    perft::{Perft, perft, perft_by_kind},
};

use crate::{
    perft_file::{Block, parse},
    util::{reference_20, reference_moves, reference_moves_2027},
};

/// Lines with more nodes are skipped, to keep the test run short.
const NODE_LIMIT: u64 = 10_000_000;
/// Lines whose depth-minus-one count is at most this are recomputed with
/// the reference generator (one brute-force generation per interior node).
const REFERENCE_LIMIT: u64 = 2_000;

/// Perft with the reference generator `moves` for the moves of the
/// position; only the rules of turn order and game end come from the
/// engine (`play`, `is_over`).
fn reference_perft<G: Clone, M>(
    game: &G,
    depth: u32,
    moves: &impl Fn(&G) -> Vec<M>,
    play: &impl Fn(&mut G, &M),
    is_over: &impl Fn(&G) -> bool,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if is_over(game) {
        return 0;
    }
    moves(game)
        .iter()
        .map(|mv| {
            let mut child = game.clone();
            play(&mut child, mv);
            reference_perft(&child, depth - 1, moves, play, is_over)
        })
        .sum()
}

/// Counts of the lines checked with the engine and with the reference.
#[derive(Default)]
struct Checked {
    engine: usize,
    reference: usize,
}

/// Checks a block's perft lines with the engine and, where small enough,
/// with `reference(depth)`.
fn check_block<G: Perft>(
    block: &Block,
    game: &G,
    reference: impl Fn(u32) -> u64,
    checked: &mut Checked,
) {
    let mut previous = 1;
    for &(depth, nodes) in &block.expected {
        if nodes <= NODE_LIMIT && previous <= NODE_LIMIT {
            assert_eq!(perft(game, depth), nodes, "{} perft {depth}", block.id);
            checked.engine += 1;
        }
        if previous <= REFERENCE_LIMIT {
            assert_eq!(
                reference(depth),
                nodes,
                "{} reference perft {depth}",
                block.id
            );
            checked.reference += 1;
        }
        previous = nodes;
    }
}

/// Plays a reference placement with the checked `play`.
fn play_set<G, E: std::fmt::Debug>(
    play: impl Fn(&mut G, &Move) -> Result<(), E>,
) -> impl Fn(&mut G, &Placement) {
    move |game, p| play(game, &Move::Set(*p)).expect("reference moves are legal")
}

#[test]
fn perft_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files = Vec::new();
    let mut checked = Checked::default();
    for entry in fs::read_dir(&dir).expect("tests/data exists") {
        let path = entry.expect("readable directory").path();
        if path.extension().is_none_or(|e| e != "perft") {
            continue;
        }
        let text = fs::read_to_string(&path).expect("readable perft file");
        let file = parse(&text);
        for block in &file.blocks {
            match file.game.as_str() {
                "swc_2021_blokus" => {
                    let game: Blokus = block.swc();
                    let moves = |g: &Blokus| reference_moves(&g.to_setup(), g.current_color());
                    let play = play_set(Blokus::play);
                    check_block(
                        block,
                        &game,
                        |d| reference_perft(&game, d, &moves, &play, &Blokus::is_over),
                        &mut checked,
                    );
                }
                "swc_2027_blokus" => {
                    let game: Blokus2027 = block.swc();
                    let moves =
                        |g: &Blokus2027| reference_moves_2027(&g.to_setup(), g.current_color());
                    let play = play_set(Blokus2027::play);
                    check_block(
                        block,
                        &game,
                        |d| reference_perft(&game, d, &moves, &play, &Blokus2027::is_over),
                        &mut checked,
                    );
                }
                "blokus_classic" => {
                    let game = block.classic();
                    let moves = |g: &Classic| {
                        let color = g.current_color();
                        let remaining = g.remaining(color);
                        reference_20(
                            |x, y| g.color_at(x, y),
                            color,
                            remaining.iter(),
                            remaining.len() == 21,
                            &[Classic::start_corner(color)],
                        )
                    };
                    let play = play_set(Classic::play);
                    check_block(
                        block,
                        &game,
                        |d| reference_perft(&game, d, &moves, &play, &Classic::is_over),
                        &mut checked,
                    );
                }
                "blokus_bcl" => {
                    let game = block.bcl();
                    let moves = |g: &Bcl| crate::bcl::reference(g, g.current_player());
                    let play = |g: &mut Bcl, p: &PlaceTo| {
                        g.play(&BclMove::Place(*p))
                            .expect("reference moves are legal")
                    };
                    check_block(
                        block,
                        &game,
                        |d| reference_perft(&game, d, &moves, &play, &Bcl::is_over),
                        &mut checked,
                    );
                }
                other => panic!("{}: unknown game {other}", path.display()),
            }
        }
        files.push(file.game);
    }
    files.sort();
    assert_eq!(
        files,
        [
            "blokus_bcl",
            "blokus_classic",
            "swc_2021_blokus",
            "swc_2027_blokus"
        ]
    );
    assert!(
        checked.engine >= 30 && checked.reference >= 25,
        "{} lines, {} cross-checked",
        checked.engine,
        checked.reference
    );
}

#[test]
fn the_first_moves_of_a_pento_w_game() {
    let game = Blokus::new(PieceKind::PentoW);
    assert_eq!(perft(&game, 0), 1);
    // 2 orientations of W cover each corner (blokus-2021.md, official tests).
    assert_eq!(perft(&game, 1), 8);
    // YELLOW has 6 placements in the three other corners.
    assert_eq!(perft(&game, 2), 8 * 6);
    let by_kind = perft_by_kind(&game);
    assert_eq!(by_kind[PieceKind::PentoW.index()], 8);
    assert_eq!(by_kind.iter().sum::<u64>(), 8);
}
