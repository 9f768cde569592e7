//! A second, deliberately simple Ostseeschach implementation written from
//! the spec (`ostseeschach-2022.md`), sharing no rules code with the
//! engine: a plain array board, the movement table written out again, the
//! amber, end and tie-break rules done step by step. Only the engine's
//! plain data types (`Setup`, `Move`, `Mistake`) cross over, to compare.

use spielleiter_rules::ostseeschach::{Mistake, Move, Setup};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Herzmuschel,
    Moewe,
    Seestern,
    Robbe,
}

impl Kind {
    fn from_letter(letter: char) -> Kind {
        match letter {
            'H' => Kind::Herzmuschel,
            'M' => Kind::Moewe,
            'S' => Kind::Seestern,
            'R' => Kind::Robbe,
            _ => panic!("no piece letter: {letter}"),
        }
    }

    /// The spec's §4 table, for team ONE (TWO negates dx).
    fn vectors(self) -> Vec<(i32, i32)> {
        match self {
            Kind::Herzmuschel => vec![(1, 1), (1, -1)],
            Kind::Moewe => vec![(1, 0), (-1, 0), (0, 1), (0, -1)],
            Kind::Seestern => vec![(1, 1), (1, -1), (-1, 1), (-1, -1), (1, 0)],
            Kind::Robbe => vec![
                (1, 2),
                (2, 1),
                (-1, 2),
                (-2, 1),
                (1, -2),
                (2, -1),
                (-1, -2),
                (-2, -1),
            ],
        }
    }

    fn light(self) -> bool {
        self != Kind::Robbe
    }
}

/// A piece or tower: the top piece's kind and team (0 = ONE, 1 = TWO) and
/// the number of pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stack {
    pub kind: Kind,
    pub team: usize,
    pub height: u32,
}

#[derive(Clone, Debug)]
pub struct Board {
    /// `fields[x][y]`.
    pub fields: [[Option<Stack>; 8]; 8],
    pub ambers: [u32; 2],
    pub turn: u32,
}

fn on_board(x: i32, y: i32) -> bool {
    (0..8).contains(&x) && (0..8).contains(&y)
}

/// +1 for ONE, −1 for TWO.
fn direction(team: usize) -> i32 {
    if team == 0 { 1 } else { -1 }
}

/// The x of a team's own start line.
fn start_line(team: usize) -> i32 {
    if team == 0 { 0 } else { 7 }
}

impl Board {
    /// The initial board: the letters for ONE on x = 0 from y = 0, TWO's
    /// twin of (0, y) on (7, 7 − y).
    pub fn new(line: &str) -> Board {
        let letters: Vec<char> = line.chars().collect();
        assert_eq!(letters.len(), 8);
        let mut board = Board {
            fields: [[None; 8]; 8],
            ambers: [0, 0],
            turn: 0,
        };
        for (y, &letter) in letters.iter().enumerate() {
            let kind = Kind::from_letter(letter);
            board.fields[0][y] = Some(Stack {
                kind,
                team: 0,
                height: 1,
            });
            board.fields[7][7 - y] = Some(Stack {
                kind,
                team: 1,
                height: 1,
            });
        }
        board
    }

    /// The same position as the engine's plain data.
    pub fn from_setup(setup: &Setup) -> Board {
        let mut board = Board {
            fields: [[None; 8]; 8],
            ambers: [setup.ambers.0[0], setup.ambers.0[1]],
            turn: setup.turn,
        };
        for (y, row) in setup.board.iter().enumerate() {
            for (x, field) in row.iter().enumerate() {
                board.fields[x][y] = field.map(|piece| Stack {
                    kind: Kind::from_letter(piece.kind.letter()),
                    team: piece.team.index(),
                    height: u32::from(piece.count),
                });
            }
        }
        board
    }

    pub fn at(&self, x: i32, y: i32) -> Option<Stack> {
        if on_board(x, y) {
            self.fields[x as usize][y as usize]
        } else {
            None
        }
    }

    pub fn team(&self) -> usize {
        (self.turn % 2) as usize
    }

    /// The end rule of §9, leaving stuck players aside.
    pub fn over_by_rounds(&self) -> bool {
        // The official `round`, (turn + 1) / 2.
        let round = self.turn.div_ceil(2);
        self.turn.is_multiple_of(2) && (round >= 30 || self.ambers[0] >= 2 || self.ambers[1] >= 2)
    }

    /// The legal moves of the team to move as `(fx, fy, tx, ty)`.
    pub fn moves(&self) -> Vec<(i32, i32, i32, i32)> {
        let mut moves = Vec::new();
        if self.over_by_rounds() {
            return moves;
        }
        let team = self.team();
        for x in 0..8 {
            for y in 0..8 {
                let Some(stack) = self.at(x, y) else { continue };
                if stack.team != team {
                    continue;
                }
                for (dx, dy) in stack.kind.vectors() {
                    let (tx, ty) = (x + dx * direction(team), y + dy);
                    if !on_board(tx, ty) {
                        continue;
                    }
                    if self.at(tx, ty).is_some_and(|s| s.team == team) {
                        continue;
                    }
                    moves.push((x, y, tx, ty));
                }
            }
        }
        moves
    }

    /// The official checks of §6 in their order.
    pub fn check(&self, mv: &Move) -> Result<(), Mistake> {
        let team = self.team();
        let (fx, fy, tx, ty) = (mv.from.x, mv.from.y, mv.to.x, mv.to.y);
        if self.over_by_rounds() {
            return Err(Mistake::WrongColor);
        }
        let stack = match self.at(fx, fy) {
            Some(stack) if stack.team == team => stack,
            _ => return Err(Mistake::WrongColor),
        };
        if !on_board(tx, ty) {
            return Err(Mistake::OutOfBounds);
        }
        let (dx, dy) = (tx - fx, ty - fy);
        let allowed = stack
            .kind
            .vectors()
            .iter()
            .any(|&(vx, vy)| (vx * direction(team), vy) == (dx, dy));
        if !allowed {
            return Err(Mistake::InvalidMovement);
        }
        if self.at(tx, ty).is_some_and(|s| s.team == team) {
            return Err(Mistake::DestinationBlocked);
        }
        Ok(())
    }

    /// Applies a legal move (§6 step 5).
    pub fn play(&mut self, (fx, fy, tx, ty): (i32, i32, i32, i32)) {
        let team = self.team();
        let mover = self.fields[fx as usize][fy as usize]
            .take()
            .expect("a piece to move");
        let mut stack = mover;
        if let Some(target) = self.fields[tx as usize][ty as usize] {
            stack.height = mover.height + target.height;
        }
        let mut gained = 0;
        if stack.height >= 3 {
            gained += 1;
        }
        if stack.kind.light() && tx == start_line(1 - team) {
            gained += 1;
        }
        self.fields[tx as usize][ty as usize] = if gained > 0 { None } else { Some(stack) };
        self.ambers[team] += gained;
        self.turn += 1;
    }

    /// Perft with the engine's counting rules: nothing below a finished
    /// position.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }

    /// The distances of a team's light top pieces from its own start line,
    /// largest first.
    pub fn light_distances(&self, team: usize) -> Vec<u32> {
        let mut distances = Vec::new();
        for x in 0..8 {
            for y in 0..8 {
                if let Some(stack) = self.at(x, y)
                    && stack.team == team
                    && stack.kind.light()
                {
                    distances.push((x - start_line(team)).unsigned_abs());
                }
            }
        }
        distances.sort_unstable_by(|a, b| b.cmp(a));
        distances
    }

    /// The winner of a finished game by §10 (a stuck team to move loses);
    /// `None` for a draw.
    pub fn winner(&self) -> Option<usize> {
        if !self.over_by_rounds() && self.moves().is_empty() {
            return Some(1 - self.team());
        }
        if self.ambers[0] != self.ambers[1] {
            return Some(if self.ambers[0] > self.ambers[1] {
                0
            } else {
                1
            });
        }
        let one = self.light_distances(0);
        let two = self.light_distances(1);
        for i in 0..one.len().min(two.len()) {
            if one[i] > two[i] {
                return Some(0);
            }
            if two[i] > one[i] {
                return Some(1);
            }
        }
        None
    }
}
