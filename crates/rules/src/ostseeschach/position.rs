//! [`Ostseeschach`]: the validated position, with move validation in the
//! official order, move application (towers and ambers), move generation,
//! game end, the tie-break and the score parts.

use core::{cmp::Ordering, fmt};

use super::{
    bitboard::{Bits, Squares, line, on_board, square, steps, x_of, y_of},
    movelist::MoveList,
    moves::{Coordinates, Mistake, Move},
    outcome::{EndReason, Outcome, WinReason},
    piece::{Piece, PieceKind},
    setup::{BOARD_SIZE, Setup, TURN_LIMIT, WINNING_AMBERS},
    start_line::StartLine,
};
use crate::team::{ByTeam, Team};

/// The most pieces a team has: two of each kind.
const PIECES_PER_TEAM: u32 = 8;
/// The most pieces of one kind a team has.
const PIECES_PER_KIND: u32 = 2;
/// A stack this high turns into an amber.
const AMBER_HEIGHT: u32 = 3;

/// An Ostseeschach game in progress (or over): always a consistent
/// position.
///
/// Built with [`Ostseeschach::new`] from a start line, or validated from
/// plain data with [`Ostseeschach::from_setup`]. Moves are checked by
/// [`Ostseeschach::is_legal`] in the official order and applied by
/// [`Ostseeschach::play`], which leaves the position unchanged when the
/// move is illegal.
///
/// # Game end
///
/// Checked when a round is complete (after TWO's move, at even turns): the
/// game is over when some team has two ambers or after round 30 (turn 60).
/// Besides, a team that has no legal move when it is to move loses at once
/// ([`EndReason::NoMove`]); so whenever the game is not over, the team to
/// move has a legal move.
///
/// # Equality
///
/// Two positions are equal iff board, turn, ambers and last move are equal.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Ostseeschach {
    /// Per owner and kind of the top piece: the fields of those stacks.
    stacks: ByTeam<[Bits; 4]>,
    /// The fields holding a tower (two pieces).
    towers: Bits,
    turn: u8,
    ambers: ByTeam<u8>,
    /// The last move's start and target field as bit indices.
    last_move: Option<(u8, u8)>,
}

/// Why a [`Setup`] is not a consistent Ostseeschach position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetupError {
    /// The turn is beyond the last possible one, 60.
    TurnLimit(u32),
    /// A stack's height is neither 1 nor 2 (a stack of 3 or more turns into
    /// an amber at once).
    Height {
        /// The field.
        field: Coordinates,
        /// The height found.
        count: u8,
    },
    /// A light piece stands on its opponent's start line, where it would
    /// have turned into an amber.
    LightPieceOnGoalLine(Coordinates),
    /// A team has more than 8 pieces on the board (counting the pieces
    /// buried in the opponent's towers).
    PieceCount {
        /// The team.
        team: Team,
        /// Its pieces found.
        pieces: u32,
    },
    /// A team owns more than two stacks with the same kind on top.
    KindCount {
        /// The team.
        team: Team,
        /// The kind.
        kind: PieceKind,
        /// The stacks found.
        stacks: u32,
    },
    /// A team has more ambers than it can have at this turn: none before
    /// its first move, at most 1 for TWO when ONE is to move, at most 3 (a
    /// team with one amber scoring two in its last move).
    Ambers {
        /// The team.
        team: Team,
        /// Its ambers.
        ambers: u32,
    },
    /// The last move cannot have led to the board: it is given at turn 0,
    /// leaves the board, its start field is occupied, or its target field
    /// holds a stack that does not belong to the team that moved last or
    /// cannot make that step.
    LastMove(Move),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::TurnLimit(turn) => {
                write!(f, "turn {turn} is beyond the last turn, {TURN_LIMIT}")
            }
            SetupError::Height { field, count } => write!(
                f,
                "the stack on {field} has height {count}; only 1 and 2 can stand on the board"
            ),
            SetupError::LightPieceOnGoalLine(field) => write!(
                f,
                "the light piece on {field} stands on its opponent's start line"
            ),
            SetupError::PieceCount { team, pieces } => {
                write!(
                    f,
                    "{team} has {pieces} pieces on the board, at most 8 exist"
                )
            }
            SetupError::KindCount { team, kind, stacks } => write!(
                f,
                "{team} owns {stacks} stacks with a {kind} on top, at most 2 exist"
            ),
            SetupError::Ambers { team, ambers } => {
                write!(f, "{team} cannot have {ambers} ambers at this turn")
            }
            SetupError::LastMove(mv) => write!(f, "the last move {mv} does not fit the board"),
        }
    }
}

impl core::error::Error for SetupError {}

impl Ostseeschach {
    /// A new game dealt with `start_line`: ONE's pieces on x = 0, TWO's the
    /// same rotated by 180° on x = 7, ONE to move.
    pub fn new(start_line: StartLine) -> Ostseeschach {
        let mut game = Ostseeschach {
            stacks: ByTeam([[0; 4]; 2]),
            towers: 0,
            turn: 0,
            ambers: ByTeam([0; 2]),
            last_move: None,
        };
        for (y, kind) in (0..).zip(start_line.kinds()) {
            game.stacks[Team::One][kind.index()] |= 1 << square(0, y);
            game.stacks[Team::Two][kind.index()] |= 1 << square(7, 7 - y);
        }
        game
    }

    /// A new game with a random start line ([`StartLine::random`]).
    pub fn random<R: rand_core::Rng + ?Sized>(rng: &mut R) -> Ostseeschach {
        Ostseeschach::new(StartLine::random(rng))
    }

    /// Validates a position given as plain data.
    ///
    /// # Errors
    ///
    /// [`SetupError`] names the first inconsistency found: the turn, then
    /// the fields x by x, then the piece counts, the ambers and the last
    /// move.
    pub fn from_setup(setup: &Setup) -> Result<Ostseeschach, SetupError> {
        if setup.turn > TURN_LIMIT {
            return Err(SetupError::TurnLimit(setup.turn));
        }
        let mut game = Ostseeschach {
            stacks: ByTeam([[0; 4]; 2]),
            towers: 0,
            turn: setup.turn as u8,
            ambers: ByTeam([0; 2]),
            last_move: None,
        };
        let mut pieces = ByTeam([0; 2]);
        for (field, piece) in setup.pieces() {
            if !(1..=2).contains(&piece.count) {
                return Err(SetupError::Height {
                    field,
                    count: piece.count,
                });
            }
            if piece.kind.is_light() && field.x == piece.team.opponent().start_line() {
                return Err(SetupError::LightPieceOnGoalLine(field));
            }
            let bit = 1 << square(field.x, field.y);
            game.stacks[piece.team][piece.kind.index()] |= bit;
            pieces[piece.team] += 1;
            if piece.count == 2 {
                game.towers |= bit;
                pieces[piece.team.opponent()] += 1;
            }
        }
        for team in Team::ALL {
            if pieces[team] > PIECES_PER_TEAM {
                return Err(SetupError::PieceCount {
                    team,
                    pieces: pieces[team],
                });
            }
            for kind in PieceKind::ALL {
                let stacks = game.stacks[team][kind.index()].count_ones();
                if stacks > PIECES_PER_KIND {
                    return Err(SetupError::KindCount { team, kind, stacks });
                }
            }
        }
        for team in Team::ALL {
            let ambers = setup.ambers[team];
            let most = if setup.turn <= team.index() as u32 {
                0
            } else if team == Team::Two && setup.turn % 2 == 1 {
                WINNING_AMBERS - 1
            } else {
                WINNING_AMBERS + 1
            };
            if ambers > most {
                return Err(SetupError::Ambers { team, ambers });
            }
            game.ambers[team] = ambers as u8;
        }
        if let Some(mv) = setup.last_move {
            if !game.last_move_fits(&mv) {
                return Err(SetupError::LastMove(mv));
            }
            game.last_move = Some((
                square(mv.from.x, mv.from.y) as u8,
                square(mv.to.x, mv.to.y) as u8,
            ));
        }
        Ok(game)
    }

    /// Whether `mv` can have been the move that led to this board.
    fn last_move_fits(&self, mv: &Move) -> bool {
        let Move { from, to } = *mv;
        if self.turn == 0 || !from.is_on_board() || !to.is_on_board() {
            return false;
        }
        if self.piece_at(from).is_some() {
            return false;
        }
        let mover = self.team_to_move().opponent();
        match self.piece_at(to) {
            None => from != to,
            Some(piece) => {
                piece.team == mover && piece.kind.can_step(mover, to.x - from.x, to.y - from.y)
            }
        }
    }

    /// The position as plain data.
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty();
        setup.turn = self.turn.into();
        setup.ambers = ByTeam(self.ambers.0.map(u32::from));
        setup.last_move = self.last_move();
        for (field, piece) in self.pieces() {
            setup.set(field.x as usize, field.y as usize, Some(piece));
        }
        setup
    }

    /// The number of moves made.
    #[inline]
    pub fn turn(&self) -> u32 {
        self.turn.into()
    }

    /// The team to move: ONE at even turns, TWO at odd turns (also once the
    /// game is over).
    #[inline]
    pub fn team_to_move(&self) -> Team {
        Team::from_index(self.turn.into())
    }

    /// The ambers of `team`.
    #[inline]
    pub fn ambers(&self, team: Team) -> u32 {
        self.ambers[team].into()
    }

    /// The last applied move; `None` before the first (and in positions set
    /// up without one).
    pub fn last_move(&self) -> Option<Move> {
        self.last_move.map(|(from, to)| Move {
            from: coordinates(from.into()),
            to: coordinates(to.into()),
        })
    }

    /// The fields of `team`'s stacks.
    #[inline]
    fn occupied(&self, team: Team) -> Bits {
        let [a, b, c, d] = self.stacks[team];
        a | b | c | d
    }

    /// The kind on top of `team`'s stack on bit `square`, if it has one
    /// there.
    #[inline]
    fn kind_on(&self, team: Team, square: u32) -> Option<PieceKind> {
        let bit = 1 << square;
        PieceKind::ALL
            .into_iter()
            .find(|kind| self.stacks[team][kind.index()] & bit != 0)
    }

    /// What stands on `field`; `None` for an empty field or one off the
    /// board.
    pub fn piece_at(&self, field: Coordinates) -> Option<Piece> {
        if !field.is_on_board() {
            return None;
        }
        let square = square(field.x, field.y);
        Team::ALL.into_iter().find_map(|team| {
            self.kind_on(team, square).map(|kind| Piece {
                kind,
                team,
                count: if self.towers >> square & 1 != 0 { 2 } else { 1 },
            })
        })
    }

    /// The occupied fields and what stands there, x by x and along each
    /// line by y.
    pub fn pieces(&self) -> impl Iterator<Item = (Coordinates, Piece)> + '_ {
        let occupied = self.occupied(Team::One) | self.occupied(Team::Two);
        Squares(occupied).filter_map(|s| {
            let field = coordinates(s);
            self.piece_at(field).map(|piece| (field, piece))
        })
    }

    /// The number of pieces of `team` on the board, those buried in the
    /// opponent's towers included (8 at the start).
    pub fn piece_count(&self, team: Team) -> u32 {
        let opponent_towers = self.occupied(team.opponent()) & self.towers;
        self.occupied(team).count_ones() + opponent_towers.count_ones()
    }

    /// Why the game would be over by the round rules (ambers, round limit),
    /// leaving a stuck team aside.
    #[inline]
    fn regular_end(&self) -> Option<EndReason> {
        if !self.turn.is_multiple_of(2) {
            None
        } else if self
            .ambers
            .0
            .iter()
            .any(|&a| u32::from(a) >= WINNING_AMBERS)
        {
            Some(EndReason::Ambers)
        } else if u32::from(self.turn) >= TURN_LIMIT {
            Some(EndReason::RoundLimit)
        } else {
            None
        }
    }

    /// Why the game is over; `None` while it runs. The round rules come
    /// first: a stuck team only loses when the game goes on.
    pub fn end_reason(&self) -> Option<EndReason> {
        self.regular_end()
            .or_else(|| (!self.can_move(self.team_to_move())).then_some(EndReason::NoMove))
    }

    /// Whether the game is over: after a round in which a team reached two
    /// ambers, after round 30, or when the team to move has no legal move.
    #[inline]
    pub fn is_over(&self) -> bool {
        !self.has_legal_move()
    }

    /// Whether the team to move has a legal move; `false` exactly when the
    /// game is over.
    #[inline]
    pub fn has_legal_move(&self) -> bool {
        self.regular_end().is_none() && self.can_move(self.team_to_move())
    }

    /// Whether `team`'s pieces have a step onto a field it does not occupy.
    fn can_move(&self, team: Team) -> bool {
        let own = self.occupied(team);
        PieceKind::ALL.into_iter().any(|kind| {
            Squares(self.stacks[team][kind.index()]).any(|from| steps(team, kind, from) & !own != 0)
        })
    }

    /// Checks `mv` for the team to move, in the official order
    /// (`ostseeschach-2022.md` §6); the first failing check names the
    /// mistake.
    ///
    /// # Errors
    ///
    /// The [`Mistake`]: [`WrongColor`](Mistake::WrongColor) unless the
    /// start field holds a stack of the team to move,
    /// [`OutOfBounds`](Mistake::OutOfBounds) for a target off the board,
    /// [`InvalidMovement`](Mistake::InvalidMovement) for a step the top
    /// piece cannot make, [`DestinationBlocked`](Mistake::DestinationBlocked)
    /// for a target the team occupies. Once the game has ended by the round
    /// rules no team is on turn and every move is
    /// [`WrongColor`](Mistake::WrongColor).
    pub fn is_legal(&self, mv: &Move) -> Result<(), Mistake> {
        let team = self.team_to_move();
        let Move { from, to } = *mv;
        if self.regular_end().is_some() || !from.is_on_board() {
            return Err(Mistake::WrongColor);
        }
        let from = square(from.x, from.y);
        let Some(kind) = self.kind_on(team, from) else {
            return Err(Mistake::WrongColor);
        };
        if !to.is_on_board() {
            return Err(Mistake::OutOfBounds);
        }
        let to = 1 << square(to.x, to.y);
        if steps(team, kind, from) & to == 0 {
            return Err(Mistake::InvalidMovement);
        }
        if self.occupied(team) & to != 0 {
            return Err(Mistake::DestinationBlocked);
        }
        Ok(())
    }

    /// Plays `mv` if it is legal.
    ///
    /// # Errors
    ///
    /// The [`Mistake`] of [`Ostseeschach::is_legal`]; the position is then
    /// unchanged.
    pub fn play(&mut self, mv: &Move) -> Result<(), Mistake> {
        self.is_legal(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv` without checking it: the fast path for search and bots
    /// that play moves from [`Ostseeschach::legal_moves`].
    ///
    /// # Panics
    ///
    /// If the start field holds no stack of the team to move, or a field is
    /// off the board. Other illegal moves leave an inconsistent position.
    pub fn play_unchecked(&mut self, mv: &Move) {
        assert!(
            on_board(mv.from.x, mv.from.y) && on_board(mv.to.x, mv.to.y),
            "a field of {mv} is off the board"
        );
        let from = square(mv.from.x, mv.from.y);
        let kind = self
            .kind_on(self.team_to_move(), from)
            .expect("the start field holds a stack of the team to move");
        self.apply(kind, from, square(mv.to.x, mv.to.y));
    }

    /// Moves the team to move's stack with top `kind` from bit `from` to bit
    /// `to` (a legal step): captures, scores ambers, removes the stack that
    /// scored, and passes the turn.
    #[inline]
    pub(super) fn apply(&mut self, kind: PieceKind, from: u32, to: u32) {
        let team = self.team_to_move();
        let opponent = team.opponent();
        let from_bit: Bits = 1 << from;
        let to_bit: Bits = 1 << to;
        let mut height = 1 + u32::from(self.towers & from_bit != 0);
        if self.occupied(opponent) & to_bit != 0 {
            height += 1 + u32::from(self.towers & to_bit != 0);
            for bits in &mut self.stacks[opponent] {
                *bits &= !to_bit;
            }
        }
        self.stacks[team][kind.index()] &= !from_bit;
        self.towers &= !(from_bit | to_bit);
        let on_goal_line = line(opponent.start_line()) & to_bit != 0;
        let gain = u8::from(height >= AMBER_HEIGHT) + u8::from(kind.is_light() && on_goal_line);
        if gain == 0 {
            self.stacks[team][kind.index()] |= to_bit;
            if height == 2 {
                self.towers |= to_bit;
            }
        }
        self.ambers[team] += gain;
        self.turn += 1;
        self.last_move = Some((from as u8, to as u8));
    }

    /// Fills `moves` with the legal moves of the team to move (none when the
    /// game is over): by kind of the moving top piece in enum order, then by
    /// start field, then by target field (fields ordered by x, then y).
    pub fn legal_moves(&self, moves: &mut MoveList) {
        moves.clear();
        if self.regular_end().is_some() {
            return;
        }
        let team = self.team_to_move();
        let own = self.occupied(team);
        for kind in PieceKind::ALL {
            for from in Squares(self.stacks[team][kind.index()]) {
                moves.push_targets(kind, from, steps(team, kind, from) & !own);
            }
        }
    }

    /// The number of moves [`Ostseeschach::legal_moves`] would list.
    pub fn count_legal_moves(&self) -> usize {
        if self.regular_end().is_some() {
            return 0;
        }
        let team = self.team_to_move();
        let own = self.occupied(team);
        let mut count = 0;
        for kind in PieceKind::ALL {
            for from in Squares(self.stacks[team][kind.index()]) {
                count += (steps(team, kind, from) & !own).count_ones() as usize;
            }
        }
        count
    }

    /// The distances of `team`'s light pieces (tops of stacks) from its own
    /// start line, largest first, and their number.
    fn light_distances(&self, team: Team) -> ([u32; PIECES_PER_TEAM as usize], usize) {
        let [h, m, s, _] = self.stacks[team];
        let light = h | m | s;
        let mut distances = [0; PIECES_PER_TEAM as usize];
        let mut len = 0;
        for distance in (0..BOARD_SIZE as i32).rev() {
            let x = team.start_line() + team.direction() * distance;
            for _ in 0..(light & line(x)).count_ones() {
                distances[len] = distance as u32;
                len += 1;
            }
        }
        (distances, len)
    }

    /// The regular result once the game is over; `None` while it runs.
    ///
    /// More ambers win. With equal ambers, each team's light pieces'
    /// distances from its own start line are sorted in descending order and
    /// compared position by position up to the shorter list's length: the
    /// first difference decides, the larger distance wins; otherwise (also
    /// when a team has no light piece) the game is a draw
    /// (`ostseeschach-2022.md` §10). A team without a move when it is to
    /// move loses.
    pub fn outcome(&self) -> Option<Outcome> {
        let end = self.end_reason()?;
        if end == EndReason::NoMove {
            return Some(Outcome {
                end,
                winner: Some(self.team_to_move().opponent()),
                reason: WinReason::OpponentCannotMove,
            });
        }
        let decided = |order: Ordering, reason| match order {
            Ordering::Greater => Some((Team::One, reason)),
            Ordering::Less => Some((Team::Two, reason)),
            Ordering::Equal => None,
        };
        let by_ambers = decided(
            self.ambers[Team::One].cmp(&self.ambers[Team::Two]),
            WinReason::MoreAmbers,
        );
        let (one, one_len) = self.light_distances(Team::One);
        let (two, two_len) = self.light_distances(Team::Two);
        let by_position = || {
            one[..one_len]
                .iter()
                .zip(&two[..two_len])
                .find_map(|(a, b)| decided(a.cmp(b), WinReason::LightPiecesAhead))
        };
        let (winner, reason) = match by_ambers.or_else(by_position) {
            Some((team, reason)) => (Some(team), reason),
            None => (None, WinReason::Equal),
        };
        Some(Outcome {
            end,
            winner,
            reason,
        })
    }

    /// The winner of a finished game; `None` for a draw or while the game
    /// runs.
    pub fn winner(&self) -> Option<Team> {
        self.outcome().and_then(|o| o.winner)
    }

    /// The largest distance of one of `team`'s light pieces (a tower counts
    /// for its top piece) from the team's own start line, 0..=7; 0 when it
    /// has none left (where the official server fails).
    pub fn light_lead(&self, team: Team) -> u32 {
        self.light_distances(team).0[0]
    }

    /// `team`'s own score parts, in the order of the official result
    /// definition after the win points (`ostseeschach-2022.md` §13.3):
    /// `Bernsteine` (its ambers) and `Leichtfiguren Vorne`
    /// ([`light_lead`](Ostseeschach::light_lead)). The win points (2 win, 1
    /// draw, 0 loss) follow from [`Ostseeschach::outcome`].
    pub fn score_parts(&self, team: Team) -> [u32; 2] {
        [self.ambers(team), self.light_lead(team)]
    }
}

/// The field of bit `square`.
#[inline]
fn coordinates(square: u32) -> Coordinates {
    Coordinates::new(x_of(square), y_of(square))
}

impl fmt::Debug for Ostseeschach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ostseeschach")
            .field("turn", &self.turn)
            .field("ambers", &self.ambers.0)
            .field("last_move", &self.last_move())
            .finish_non_exhaustive()?;
        write!(f, "\n{self}")
    }
}

impl fmt::Display for Ostseeschach {
    /// Draws the board as the official server does: one line per y, two
    /// characters per field along x (`--` empty, see [`Piece`]'s
    /// `Display`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..BOARD_SIZE as i32 {
            if y > 0 {
                f.write_str("\n")?;
            }
            for x in 0..BOARD_SIZE as i32 {
                match self.piece_at(Coordinates::new(x, y)) {
                    Some(piece) => write!(f, "{piece}")?,
                    None => f.write_str("--")?,
                }
            }
        }
        Ok(())
    }
}
