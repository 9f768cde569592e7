//! Test helpers: seeded random sources, positions written in the official
//! tests' notation, random games and random consistent positions.

use rand_pcg::Pcg64Mcg;
use rand_pcg::rand_core::{Rng, SeedableRng};
use spielleiter_rules::ostseeschach::{
    ByTeam, Move, MoveList, Ostseeschach, Piece, PieceKind, Setup, Team,
};

/// A seeded random source.
pub fn rng(seed: u64) -> Pcg64Mcg {
    Pcg64Mcg::seed_from_u64(seed)
}

/// A uniform draw from `0..n` (n small; the bias is irrelevant for tests).
pub fn below(rng: &mut Pcg64Mcg, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// A piece in the official tests' notation: the kind's letter, upper case
/// for ONE and lower case for TWO, then an optional height (`M`, `r2`).
pub fn piece(text: &str) -> Piece {
    let mut chars = text.chars();
    let letter = chars.next().expect("a letter");
    let kind = PieceKind::from_letter(letter.to_ascii_uppercase()).expect("a piece letter");
    let team = if letter.is_ascii_uppercase() {
        Team::One
    } else {
        Team::Two
    };
    let count = chars
        .next()
        .map_or(1, |c| c.to_digit(10).expect("a height") as u8);
    Piece { kind, team, count }
}

/// A setup at `turn` with `pieces` as `((x, y), notation)`.
pub fn setup(turn: u32, pieces: &[((usize, usize), &str)]) -> Setup {
    let mut setup = Setup::empty();
    setup.turn = turn;
    for &((x, y), text) in pieces {
        setup.set(x, y, Some(piece(text)));
    }
    setup
}

/// The validated position of [`setup`], with ambers.
pub fn position(turn: u32, ambers: [u32; 2], pieces: &[((usize, usize), &str)]) -> Ostseeschach {
    let mut setup = setup(turn, pieces);
    setup.ambers = ByTeam(ambers);
    Ostseeschach::from_setup(&setup).unwrap_or_else(|e| panic!("{e}: {setup:?}"))
}

/// Plays a uniformly random game from `game`, calling `visit` on every
/// position before its move and on the final one.
pub fn random_game(
    mut game: Ostseeschach,
    rng: &mut Pcg64Mcg,
    mut visit: impl FnMut(&Ostseeschach),
) -> Ostseeschach {
    let mut moves = MoveList::new();
    while !game.is_over() {
        visit(&game);
        game.legal_moves(&mut moves);
        let mv = moves
            .get(below(rng, moves.len()))
            .expect("a team to move has a move");
        game.play(&mv).expect("generated moves are legal");
    }
    visit(&game);
    game
}

/// A random consistent position, not necessarily reachable: each team
/// keeps a random subset of its two pieces per kind, some of its kept pieces
/// sit on an opponent piece as towers, all on random free fields (light
/// pieces never on the opponent's start line); a random turn with ambers
/// the turn allows, and sometimes a last move that fits.
pub fn random_setup(rng: &mut Pcg64Mcg) -> Setup {
    let mut setup = Setup::empty();
    setup.turn = below(rng, 61) as u32;
    // How many pieces of each team are still to be placed (top or buried).
    let mut left = ByTeam([8usize, 8]);
    let keep = ByTeam([below(rng, 9), below(rng, 9)]);
    for team in Team::ALL {
        let mut kinds: Vec<PieceKind> = PieceKind::ALL.iter().flat_map(|&k| [k, k]).collect();
        for _ in 0..keep[team] {
            if left[team] == 0 {
                break;
            }
            let kind = kinds.swap_remove(below(rng, kinds.len()));
            left[team] -= 1;
            let opponent = team.opponent();
            let tower = left[opponent] > 0 && below(rng, 4) == 0;
            if tower {
                left[opponent] -= 1;
            }
            let field = loop {
                let (x, y) = (below(rng, 8), below(rng, 8));
                let goal = x as i32 == opponent.start_line();
                if setup.board[y][x].is_none() && !(kind.is_light() && goal) {
                    break (x, y);
                }
            };
            let count = if tower { 2 } else { 1 };
            setup.set(field.0, field.1, Some(Piece { kind, team, count }));
        }
    }
    for team in Team::ALL {
        let most = if setup.turn <= team.index() as u32 {
            0
        } else if team == Team::Two && setup.turn % 2 == 1 {
            1
        } else {
            3
        };
        // Mostly 0 or 1, so that most positions are still running.
        setup.ambers[team] = below(rng, most + 1).min(below(rng, 3)) as u32;
    }
    if setup.turn > 0 && below(rng, 2) == 0 {
        setup.last_move = fitting_last_move(&setup, rng);
    }
    setup
}

/// A last move that fits `setup`: a step of a stack of the team that moved
/// last onto its field, from a free field.
fn fitting_last_move(setup: &Setup, rng: &mut Pcg64Mcg) -> Option<Move> {
    let mover = setup.team_to_move().opponent();
    let mut candidates = Vec::new();
    for (to, piece) in setup.pieces() {
        if piece.team != mover {
            continue;
        }
        for &(dx, dy) in piece.kind.steps() {
            let from = (to.x - dx * mover.direction(), to.y - dy);
            let mv = Move::new(from.0, from.1, to.x, to.y);
            if mv.from.is_on_board() && setup.get(mv.from).is_none() {
                candidates.push(mv);
            }
        }
    }
    (!candidates.is_empty()).then(|| candidates[below(rng, candidates.len())])
}
