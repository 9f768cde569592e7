//! First-move counts on the empty board (`tests/data/first-moves.txt`),
//! with the engine and with the brute-force reference.

use std::collections::BTreeSet;

use spielleiter_rules::blokus::{
    Blokus2027, Classic, ClassicPlayers, Color, MoveList, PieceKind, Setup,
    bcl::{Bcl, BclMoveList, BclPlayer},
};

use crate::util::{cell_key, reference_placements_2027};

const DATA: &str = include_str!("../data/first-moves.txt");

/// The data lines as (game, setup, count).
fn lines() -> Vec<(&'static str, &'static str, usize)> {
    DATA.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(fields.len(), 3, "{line}");
            (fields[0], fields[1], fields[2].parse().expect("a count"))
        })
        .collect()
}

/// The engine's and the reference's first moves of a 2027 game with this
/// start piece.
fn swc2027(start: &str) -> (usize, usize) {
    let kind: PieceKind = start.parse().expect("a piece kind");
    let game = Blokus2027::new(kind);
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let generated: BTreeSet<_> = moves.iter().map(|p| cell_key(&p)).collect();
    let reference = reference_placements_2027(&Setup::new(kind), game.current_color());
    assert_eq!(generated, reference, "{start}");
    (moves.len(), reference.len())
}

/// The engine's and the reference's first moves of `color` in classic
/// Blokus.
fn classic(color: &str) -> (usize, usize) {
    let color: Color = color.parse().expect("a colour");
    let game = Classic::new(ClassicPlayers::Four);
    let mut moves = MoveList::new();
    let generated = crate::classic::generated(&game, color, &mut moves);
    let reference = crate::classic::reference(&game, color);
    assert_eq!(generated, reference, "{color}");
    (generated.len(), reference.len())
}

/// The engine's and the reference's first moves of a BCL player.
fn bcl(player: &str) -> (usize, usize) {
    let player: BclPlayer = player.parse().expect("ONE or TWO");
    let game = Bcl::new();
    let mut moves = BclMoveList::new();
    game.placements_of(player, &mut moves);
    let generated: BTreeSet<_> = moves.iter().map(|p| crate::bcl::key(&p)).collect();
    let reference = crate::bcl::reference_keys(&game, player);
    assert_eq!(generated, reference, "{player}");
    (moves.len(), reference.len())
}

#[test]
fn first_move_counts_match_the_data() {
    let mut games = BTreeSet::new();
    for (game, setup, count) in lines() {
        let (engine, reference) = match game {
            "swc_2027_blokus" => swc2027(setup),
            "blokus_classic" => classic(setup),
            "blokus_bcl" => bcl(setup),
            other => panic!("unknown game {other}"),
        };
        assert_eq!((engine, reference), (count, count), "{game} {setup}");
        games.insert(game);
    }
    assert_eq!(games.len(), 3);
}
