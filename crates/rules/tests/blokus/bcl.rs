//! The 10×10 BLOKUS Champions League game (`decisions.md` §20–§22): the
//! blocks and their orientations, `place_to`, the start corners, the
//! corner rule and the seed's mistakes, passes, the end and the points —
//! against a brute force that shares nothing with the engine, not even the
//! orientation transform.

use std::collections::BTreeSet;

use rand_pcg::Pcg64Mcg;
use spielleiter_rules::{
    PlayerSet,
    blokus::bcl::{
        Bcl, BclFlip, BclKind, BclMistake, BclMove, BclMoveList, BclPlayer, BclRotation, BclSetup,
        BclSetupError, OutReason, PlaceTo,
    },
};

use crate::util::{Anchor, Cell, Orientation, below, brute_force, rng};

/// The blocks as the decisions describe them, drawn plainly: `#` a cell,
/// rows top to bottom separated by `/`, with the number of distinct
/// orientations and the number of blocks per player.
const BLOCKS: [(&str, &str, usize, u32); 10] = [
    ("SQUARE", "##/##", 1, 2),
    ("HANDGUN", "###/#..", 8, 1),
    ("SHOTGUN", "####/##..", 8, 1),
    ("WORM", "#####", 2, 2),
    ("CROWBAR", "#####/#....", 8, 1),
    ("CHAIR", "##/#.", 4, 1),
    ("CROSS", ".#./###/.#.", 1, 1),
    ("BOOMERANG", "###/#../#..", 4, 1),
    ("STICK", "###", 2, 1),
    ("DOT", "#", 1, 1),
];

/// The cells `(x, y)` of a picture.
fn picture(text: &str) -> Vec<Cell> {
    text.split('/')
        .enumerate()
        .flat_map(|(y, row)| {
            row.chars()
                .enumerate()
                .filter(|&(_, c)| c == '#')
                .map(move |(x, _)| (x as i32, y as i32))
        })
        .collect()
}

/// Shifts cells to touch x = 0 and y = 0 and sorts them row by row.
fn normalised(cells: impl IntoIterator<Item = Cell>) -> Vec<Cell> {
    let cells: Vec<Cell> = cells.into_iter().collect();
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let mut out: Vec<Cell> = cells.iter().map(|&(x, y)| (x - min_x, y - min_y)).collect();
    out.sort_unstable_by_key(|&(x, y)| (y, x));
    out
}

/// `place_to`'s transform: `rotation` quarter turns clockwise on the
/// screen (x right, y down), then the flip.
fn transform(cells: &[Cell], rotation: BclRotation, flip: BclFlip) -> Vec<Cell> {
    let mut cells = cells.to_vec();
    for _ in 0..rotation as usize {
        // Clockwise on the screen: right becomes down.
        cells = cells.iter().map(|&(x, y)| (-y, x)).collect();
    }
    normalised(cells.into_iter().map(|(x, y)| match flip {
        BclFlip::None => (x, y),
        BclFlip::Horizontal => (-x, y),
        BclFlip::Vertical => (x, -y),
    }))
}

/// A `place_to` orientation label.
type Label = (BclRotation, BclFlip);

/// Every kind's distinct orientations, each with its first label in the
/// order rotation NONE..TRIPLE without flip, then HORIZONTAL, then
/// VERTICAL.
fn orientations() -> Vec<(usize, Vec<Orientation<Label>>)> {
    BLOCKS
        .iter()
        .enumerate()
        .map(|(kind, &(_, text, _, _))| {
            let base = picture(text);
            let mut found: Vec<Orientation<Label>> = Vec::new();
            for flip in BclFlip::ALL {
                for rotation in BclRotation::ALL {
                    let cells = transform(&base, rotation, flip);
                    if !found.iter().any(|o| o.cells == cells) {
                        found.push(Orientation {
                            label: (rotation, flip),
                            cells,
                        });
                    }
                }
            }
            (kind, found)
        })
        .collect()
}

/// The key of a placement: player, kind and sorted fields `(row, col)`.
pub type Key = (BclPlayer, BclKind, Vec<Cell>);

pub fn key(p: &PlaceTo) -> Key {
    let mut cells: Vec<Cell> = p.cells().collect();
    cells.sort_unstable();
    (p.player, p.kind, cells)
}

/// The legal placements of `player` by brute force, as `place_to`s with
/// the bottom-left cell of the bounding box.
pub fn reference(game: &Bcl, player: BclPlayer) -> Vec<PlaceTo> {
    let kinds: Vec<_> = orientations()
        .into_iter()
        .filter(|&(kind, _)| game.remaining(player, BclKind::ALL[kind]) > 0)
        .collect();
    let start = player.start_corner();
    let start = [(start.1, start.0)];
    let anchor = if game.is_first_move(player) {
        Anchor::StartFields(&start)
    } else {
        Anchor::OwnCorner
    };
    brute_force(
        10,
        |x, y| game.player_at(y, x).map(BclPlayer::index),
        player.index(),
        &kinds,
        anchor,
    )
    .into_iter()
    .map(|found| {
        let height = found.cells.iter().map(|c| c.1).max().expect("cells") - found.y + 1;
        let place = PlaceTo {
            player,
            kind: BclKind::ALL[found.kind],
            rotation: found.label.0,
            flip: found.label.1,
            row: found.y + height - 1,
            col: found.x,
        };
        let mut fields: Vec<Cell> = found.cells.iter().map(|&(x, y)| (y, x)).collect();
        fields.sort_unstable();
        assert_eq!(key(&place).2, fields, "{place:?}");
        place
    })
    .collect()
}

pub fn reference_keys(game: &Bcl, player: BclPlayer) -> BTreeSet<Key> {
    reference(game, player).iter().map(key).collect()
}

#[test]
fn the_blocks_and_their_orientations() {
    let orientations = orientations();
    for (kind, (name, text, distinct, count)) in BclKind::ALL.into_iter().zip(BLOCKS) {
        assert_eq!(kind.name(), name);
        assert_eq!(kind.count(), count, "{name}");
        assert_eq!(kind.size() as usize, picture(text).len(), "{name}");
        assert_eq!(orientations[kind.index()].1.len(), distinct, "{name}");
        for rotation in BclRotation::ALL {
            for flip in BclFlip::ALL {
                let ours = transform(&picture(text), rotation, flip);
                let theirs: Vec<Cell> = kind
                    .shape(rotation, flip)
                    .cells()
                    .iter()
                    .map(|&(x, y)| (i32::from(x), i32::from(y)))
                    .collect();
                assert_eq!(theirs, ours, "{name} {rotation} {flip}");
            }
        }
    }
    let cells: u32 = BclKind::ALL.iter().map(|k| k.size() * k.count()).sum();
    assert_eq!(cells, 51);
}

#[test]
fn place_to_puts_the_bottom_left_of_the_box_on_the_field() {
    // CROWBAR `#####/#....` turned once clockwise: `##/.#/.#/.#/.#`; its box
    // is 2 wide and 5 high, bottom-left at (6,2) means rows 2..=6.
    let crowbar = PlaceTo {
        player: BclPlayer::One,
        kind: BclKind::Crowbar,
        rotation: BclRotation::Single,
        flip: BclFlip::None,
        row: 6,
        col: 2,
    };
    let cells: Vec<Cell> = crowbar.cells().collect();
    assert_eq!(cells, [(2, 2), (2, 3), (3, 3), (4, 3), (5, 3), (6, 3)]);
    // Mirrored left-right; the same as mirroring the 270° turn up-down.
    let mirrored = PlaceTo {
        flip: BclFlip::Horizontal,
        ..crowbar
    };
    let same = PlaceTo {
        rotation: BclRotation::Triple,
        flip: BclFlip::Vertical,
        ..crowbar
    };
    assert!(mirrored.same_cells(&same));
    assert!(!crowbar.same_cells(&mirrored));
    assert_eq!(PlaceTo::from_cells(BclPlayer::One, &cells), Some(crowbar));
    // A DOT's start point is its own field.
    let dot = PlaceTo {
        kind: BclKind::Dot,
        ..crowbar
    };
    assert_eq!(dot.cells().collect::<Vec<_>>(), [(6, 2)]);
}

/// Plays a random game, calling `visit` before every move and at the end.
fn random_game(rng: &mut Pcg64Mcg, mut visit: impl FnMut(&Bcl)) -> Bcl {
    let mut game = Bcl::new();
    let mut moves = BclMoveList::new();
    while !game.is_over() {
        visit(&game);
        game.legal_moves(&mut moves);
        let place = moves.get(below(rng, moves.len())).expect("a move");
        game.play(&BclMove::Place(place))
            .expect("generated moves are legal");
    }
    visit(&game);
    game
}

#[test]
fn generated_moves_equal_the_reference_on_random_positions() {
    let mut rng = rng(10);
    let mut moves = BclMoveList::new();
    let mut positions = 0;
    let mut total = 0;
    while positions < 800 {
        random_game(&mut rng, |game| {
            for player in BclPlayer::ALL {
                let reference = reference_keys(game, player);
                assert_eq!(game.has_legal_move(player), !reference.is_empty());
                if game.is_over() || player != game.current_player() {
                    continue;
                }
                game.legal_moves(&mut moves);
                assert_eq!(moves.player(), player);
                let generated: BTreeSet<Key> = moves.iter().map(|p| key(&p)).collect();
                assert_eq!(generated.len(), moves.len(), "one move per (kind, fields)");
                assert_eq!(generated, reference, "{game:?}");
                assert_eq!(game.count_legal_moves(), moves.len());
                for (index, place) in moves.iter().enumerate() {
                    assert_eq!(moves.get(index), Some(place));
                    assert_eq!(game.is_legal(&BclMove::Place(place)), Ok(()));
                }
                total += moves.len();
            }
            positions += 1;
        });
    }
    assert!(
        total > 20 * positions,
        "{total} moves in {positions} positions"
    );
}

#[test]
fn is_legal_agrees_with_the_reference_on_arbitrary_placements() {
    let mut rng = rng(11);
    let mut seen = BTreeSet::new();
    let mut legal = 0;
    for _ in 0..30 {
        let mut positions = Vec::new();
        random_game(&mut rng, |g| positions.push(g.clone()));
        for game in positions.iter().filter(|g| !g.is_over()) {
            let player = game.current_player();
            let reference = reference_keys(game, player);
            for _ in 0..400 {
                let place = PlaceTo {
                    player,
                    kind: BclKind::ALL[below(&mut rng, 10)],
                    rotation: BclRotation::ALL[below(&mut rng, 4)],
                    flip: BclFlip::ALL[below(&mut rng, 3)],
                    row: below(&mut rng, 14) as i32 - 2,
                    col: below(&mut rng, 14) as i32 - 2,
                };
                let verdict = game.is_legal(&BclMove::Place(place));
                assert_eq!(
                    verdict.is_ok(),
                    reference.contains(&key(&place)),
                    "{place:?}: {verdict:?}"
                );
                match verdict {
                    Ok(()) => legal += 1,
                    Err(mistake) => {
                        seen.insert(mistake.name());
                    }
                }
            }
        }
    }
    assert!(legal > 100, "{legal}");
    for name in [
        "BLOCK_USED",
        "OUT_OF_STAGE",
        "OVERLAP",
        "NOT_ON_START_CORNER",
        "EDGE_CONTACT",
        "NO_CORNER_CONTACT",
    ] {
        assert!(seen.contains(name), "{name} never seen: {seen:?}");
    }
}

fn place(player: BclPlayer, kind: BclKind, row: i32, col: i32) -> BclMove {
    BclMove::Place(PlaceTo {
        player,
        kind,
        rotation: BclRotation::None,
        flip: BclFlip::None,
        row,
        col,
    })
}

#[test]
fn the_seeds_mistakes() {
    // BCL's players are the shared two teams.
    use spielleiter_rules::Team::{One, Two};
    let mut game = Bcl::new();
    // ONE starts at (0,0), TWO at (9,9).
    assert_eq!(
        game.is_legal(&place(Two, BclKind::Dot, 9, 9)),
        Err(BclMistake::NotYourTurn)
    );
    assert_eq!(
        game.is_legal(&place(One, BclKind::Dot, 9, 9)),
        Err(BclMistake::NotOnStartCorner)
    );
    assert_eq!(
        game.is_legal(&place(One, BclKind::Square, 0, 0)),
        Err(BclMistake::OutOfStage)
    );
    assert_eq!(
        game.is_legal(&BclMove::Pass(One)),
        Err(BclMistake::PassWhilePlacementExists)
    );
    // SQUARE at bottom-left (1,0) covers (0,0) (0,1) (1,0) (1,1).
    game.play(&place(One, BclKind::Square, 1, 0))
        .expect("legal");
    assert_eq!(game.is_legal(&place(Two, BclKind::Square, 9, 8)), Ok(()));
    game.play(&place(Two, BclKind::Square, 9, 8))
        .expect("legal");
    // OVERLAP, then OUT_OF_STAGE before OVERLAP for a block doing both.
    assert_eq!(
        game.is_legal(&place(One, BclKind::Stick, 1, 1)),
        Err(BclMistake::Overlap)
    );
    let worm = |row, col| place(One, BclKind::Worm, row, col);
    assert_eq!(game.is_legal(&worm(0, -1)), Err(BclMistake::OutOfStage));
    assert_eq!(game.is_legal(&worm(2, 0)), Err(BclMistake::EdgeContact));
    assert_eq!(game.is_legal(&worm(5, 5)), Err(BclMistake::NoCornerContact));
    assert_eq!(game.is_legal(&worm(2, 2)), Ok(()));
    // The second SQUARE, then no third.
    assert_eq!(game.remaining(One, BclKind::Square), 1);
    game.play(&place(One, BclKind::Square, 3, 2))
        .expect("legal");
    assert_eq!(game.remaining(One, BclKind::Square), 0);
    game.play(&place(Two, BclKind::Dot, 7, 7)).expect("legal");
    assert_eq!(
        game.is_legal(&place(One, BclKind::Square, 5, 4)),
        Err(BclMistake::BlockUsed)
    );
    assert_eq!(game.is_legal(&place(One, BclKind::Dot, 4, 4)), Ok(()));
    assert!(BclMistake::EdgeContact.breaks_corner_rule());
    assert!(!BclMistake::Overlap.breaks_corner_rule());
}

#[test]
fn random_games_end_when_neither_can_place_and_more_cells_win() {
    let mut rng = rng(12);
    let mut out = BTreeSet::new();
    for _ in 0..300 {
        let game = random_game(&mut rng, |game| {
            if !game.is_over() {
                let player = game.current_player();
                assert!(game.in_game(player) && game.has_legal_move(player));
            }
        });
        for player in BclPlayer::ALL {
            assert!(!game.has_legal_move(player));
            assert!(!game.in_game(player));
            let reason = game.out_reason(player).expect("out");
            let none_left = game.remaining_blocks(player).next().is_none();
            assert_eq!(reason == OutReason::OutOfBlock, none_left);
            out.insert(reason.name());
            let cells = game.fields(player).count();
            let placed: u32 = BclKind::ALL
                .iter()
                .map(|&k| (k.count() - game.remaining(player, k)) * k.size())
                .sum();
            assert_eq!((game.points(player), cells), (placed, placed));
        }
        let [one, two] = BclPlayer::ALL.map(|p| game.points(p));
        let expected: PlayerSet = match one.cmp(&two) {
            std::cmp::Ordering::Greater => PlayerSet::single(0),
            std::cmp::Ordering::Less => PlayerSet::single(1),
            std::cmp::Ordering::Equal => [0, 1].into_iter().collect(),
        };
        assert_eq!(game.winners(), expected);
        assert_eq!(game.player_to_move(), None);
    }
    assert!(out.contains("OUT_OF_SPACE"), "{out:?}");
}

#[test]
fn a_stuck_player_is_skipped_and_a_record_may_name_the_pass() {
    let mut rng = rng(13);
    let mut games_with_skips = 0;
    for _ in 0..20 {
        let mut record = Vec::new();
        let mut skipped = false;
        let game = random_game(&mut rng, |game| {
            if let Some(BclMove::Place(p)) = game.last_move() {
                record.push(BclMove::Place(p));
                // The opponent was skipped if the same player moves again.
                if !game.is_over() && game.current_player() == p.player {
                    record.push(BclMove::Pass(p.player.opponent()));
                    skipped = true;
                }
            }
        });
        games_with_skips += usize::from(skipped);
        let mut replayed = Bcl::new();
        for mv in &record {
            let parsed: BclMove = mv.to_string().parse().expect("a valid line");
            replayed
                .play_recorded(&parsed)
                .expect("a record of a legal game");
        }
        assert_eq!(replayed, game);
    }
    assert!(games_with_skips >= 5, "{games_with_skips}");
}

#[test]
fn setups_round_trip_and_are_checked() {
    let mut rng = rng(14);
    for _ in 0..30 {
        random_game(&mut rng, |game| {
            let rebuilt =
                Bcl::from_setup(&game.to_setup()).expect("a reachable position is consistent");
            assert_eq!(&rebuilt, game);
        });
    }
    let mut setup = BclSetup::new();
    setup.remaining[0][BclKind::Dot.index()] = 2;
    assert_eq!(
        Bcl::from_setup(&setup),
        Err(BclSetupError::TooManyBlocks {
            player: BclPlayer::One,
            kind: BclKind::Dot
        })
    );
    setup.remaining[0][BclKind::Dot.index()] = 0;
    setup.board[5][5] = Some(BclPlayer::One);
    assert_eq!(
        Bcl::from_setup(&setup),
        Err(BclSetupError::NotOnStartCorner(BclPlayer::One))
    );
    setup.board[5][5] = None;
    setup.board[0][0] = Some(BclPlayer::One);
    setup.turn = 1;
    setup.in_game = [true, false];
    assert_eq!(
        Bcl::from_setup(&setup),
        Err(BclSetupError::PlayerOnTurnOut(BclPlayer::Two))
    );
    setup.turn = 2;
    let game = Bcl::from_setup(&setup).expect("consistent");
    assert_eq!(game.current_player(), BclPlayer::One);
    assert_eq!(game.out_reason(BclPlayer::Two), Some(OutReason::OutOfSpace));
}
