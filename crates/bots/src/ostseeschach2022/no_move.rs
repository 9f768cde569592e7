//! The move the Ostseeschach bots answer in a position without a legal one.

use spielleiter_rules::ostseeschach::Move;

/// What a bot answers in a position without a legal move, where no server
/// asks (a team that cannot move has lost): a move that stays on its
/// field, which the rules refuse.
pub(super) const NO_MOVE: Move = Move::new(0, 0, 0, 0);
