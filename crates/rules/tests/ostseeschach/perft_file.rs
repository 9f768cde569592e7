//! The reader of `tests/data/ostseeschach/ostseeschach.perft`, shared by the perft test
//! and the benchmarks (which include this file by path). Test data is
//! trusted: a malformed file panics with the line.

use spielleiter_rules::ostseeschach::{Move, Ostseeschach, StartLine};

/// One `id` block: the start line, the moves played from it, the position
/// they lead to, and its perft lines.
pub struct Block {
    pub id: String,
    pub start: String,
    pub moves: Vec<Move>,
    pub game: Option<Ostseeschach>,
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
        let block = blocks.last_mut();
        match key {
            "id" => blocks.push(Block {
                id: value.to_owned(),
                start: String::new(),
                moves: Vec::new(),
                game: None,
                expected: Vec::new(),
            }),
            "start" => {
                let start: StartLine = value.parse().unwrap_or_else(|e| panic!("{}: {e}", at()));
                let block = block.expect("id first");
                block.start = value.to_owned();
                block.game = Some(Ostseeschach::new(start));
            }
            "moves" => {
                let block = block.expect("id first");
                let game = block.game.as_mut().expect("start first");
                for word in value.split_whitespace() {
                    let mv: Move = word.parse().unwrap_or_else(|e| panic!("{}: {e}", at()));
                    game.play(&mv)
                        .unwrap_or_else(|e| panic!("{}: {mv}: {e}", at()));
                    block.moves.push(mv);
                }
            }
            "perft" => {
                let (depth, nodes) = value.split_once(' ').unwrap_or_else(|| panic!("{}", at()));
                let entry = (depth.parse().expect("depth"), nodes.parse().expect("nodes"));
                block.expect("id first").expected.push(entry);
            }
            _ => panic!("unknown key: {}", at()),
        }
    }
    blocks
}
