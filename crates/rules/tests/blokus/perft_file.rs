//! The reader of `tests/data/*.perft` files, shared by the perft test and
//! the benchmarks (which include this file by path). Test data is trusted:
//! a malformed file panics with the line.
//!
//! A file names its game in a first `game ID` line (`swc_2021_blokus` when
//! absent), then holds blocks: `id NAME`, the game's setup lines (`start
//! KIND` for the Software-Challenge seasons), `move …` lines in the game's
//! move-file notation, replayed from the initial position, and `perft DEPTH
//! NODES` lines.

#![allow(dead_code)] // each includer uses its own part

use spielleiter_rules::blokus::{
    Classic, ClassicPlayers, Move, PieceKind, SwcBlokus, SwcVariant,
    bcl::{Bcl, BclMove},
    notation::parse_classic,
};

/// A whole perft file.
pub struct PerftFile {
    /// The game id of the `game` line.
    pub game: String,
    pub blocks: Vec<Block>,
}

/// One `id` block.
pub struct Block {
    pub id: String,
    /// The `start` line's value, if any.
    pub start: Option<String>,
    /// The `move` lines' values with their 1-based line numbers.
    pub moves: Vec<(usize, String)>,
    /// `(depth, nodes)` in file order.
    pub expected: Vec<(u32, u64)>,
}

pub fn parse(text: &str) -> PerftFile {
    let mut game = "swc_2021_blokus".to_owned();
    let mut blocks: Vec<Block> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let at = || format!("line {}: {line}", index + 1);
        if key == "game" && blocks.is_empty() {
            game = value.to_owned();
            continue;
        }
        if key == "id" {
            blocks.push(Block {
                id: value.to_owned(),
                start: None,
                moves: Vec::new(),
                expected: Vec::new(),
            });
            continue;
        }
        let block = blocks
            .last_mut()
            .unwrap_or_else(|| panic!("id first: {}", at()));
        match key {
            "start" => block.start = Some(value.to_owned()),
            "move" => block.moves.push((index + 1, value.to_owned())),
            "perft" => {
                let (depth, nodes) = value.split_once(' ').unwrap_or_else(|| panic!("{}", at()));
                let entry = (depth.parse().expect("depth"), nodes.parse().expect("nodes"));
                block.expected.push(entry);
            }
            _ => panic!("unknown key: {}", at()),
        }
    }
    PerftFile { game, blocks }
}

impl Block {
    /// The position of a Software-Challenge season's block.
    pub fn swc<V: SwcVariant>(&self) -> SwcBlokus<V> {
        let start: PieceKind = self
            .start
            .as_deref()
            .expect("a start line")
            .parse()
            .expect("a piece kind");
        let mut game = SwcBlokus::<V>::new(start);
        for (line, text) in &self.moves {
            let mv: Move = text
                .parse()
                .unwrap_or_else(|e| panic!("line {line}: {text}: {e}"));
            game.play(&mv)
                .unwrap_or_else(|e| panic!("line {line}: {text}: {e}"));
        }
        game
    }
}

impl Block {
    /// The position of a classic Blokus block (four players; perft does
    /// not depend on the seats).
    pub fn classic(&self) -> Classic {
        let mut game = Classic::new(ClassicPlayers::Four);
        for (line, text) in &self.moves {
            let mv = parse_classic(text).unwrap_or_else(|e| panic!("line {line}: {text}: {e}"));
            game.play_recorded(&mv)
                .unwrap_or_else(|e| panic!("line {line}: {text}: {e}"));
        }
        game
    }
}

impl Block {
    /// The position of a BCL block.
    pub fn bcl(&self) -> Bcl {
        let mut game = Bcl::new();
        for (line, text) in &self.moves {
            let mv: BclMove = text
                .parse()
                .unwrap_or_else(|e| panic!("line {line}: {text}: {e}"));
            game.play_recorded(&mv)
                .unwrap_or_else(|e| panic!("line {line}: {text}: {e}"));
        }
        game
    }
}
