//! The reader of `tests/data/*.perft` files, shared by the perft test and
//! the benchmarks (which include this file by path). Test data is trusted:
//! a malformed file panics with the line.

use spielleiter_rules::blokus::{Blokus, Move, PieceKind};

/// One `id` block: the position after its moves, and its perft lines.
pub struct Block {
    pub id: String,
    pub game: Option<Blokus>,
    /// `(depth, nodes)` in file order.
    pub expected: Vec<(u32, u64)>,
}

pub fn parse(text: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let at = || format!("line {}: {line}", index + 1);
        match key {
            "id" => blocks.push(Block {
                id: value.to_owned(),
                game: None,
                expected: Vec::new(),
            }),
            "start" => {
                let kind: PieceKind = value.parse().unwrap_or_else(|_| panic!("{}", at()));
                blocks.last_mut().expect("id first").game = Some(Blokus::new(kind));
            }
            "move" => {
                let mv: Move = value.parse().unwrap_or_else(|e| panic!("{}: {e}", at()));
                let game = blocks
                    .last_mut()
                    .and_then(|b| b.game.as_mut())
                    .expect("start first");
                game.play(&mv).unwrap_or_else(|e| panic!("{}: {e}", at()));
            }
            "perft" => {
                let (depth, nodes) = value.split_once(' ').unwrap_or_else(|| panic!("{}", at()));
                let entry = (depth.parse().expect("depth"), nodes.parse().expect("nodes"));
                blocks.last_mut().expect("id first").expected.push(entry);
            }
            _ => panic!("unknown key: {}", at()),
        }
    }
    blocks
}
