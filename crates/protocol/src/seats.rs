//! Seats on the wire (decisions.md §15): a room has as many seats as its
//! game has players; the first is `ONE`, then `TWO`, `THREE`, `FOUR`. The
//! label is what the `color` attribute of the welcome message and every
//! `team` on the wire carry, for every game.

use crate::error::DecodeError;

/// The labels of seats 0, 1, … (as many as a set of seats can hold).
pub const SEAT_LABELS: [&str; 8] = [
    "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT",
];

/// The label of `seat`.
///
/// # Panics
///
/// If `seat` is 8 or more (no game has that many players).
pub fn seat_label(seat: usize) -> &'static str {
    SEAT_LABELS[seat]
}

/// The seat a label names (exact, case-sensitive) among the first `seats`.
///
/// # Errors
///
/// [`DecodeError::InvalidValue`] if `label` names none of them.
pub fn parse_seat(label: &str, seats: usize) -> Result<usize, DecodeError> {
    SEAT_LABELS[..seats.min(SEAT_LABELS.len())]
        .iter()
        .position(|&known| known == label)
        .ok_or_else(|| DecodeError::invalid("seat", label))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_trip() {
        for (seat, label) in SEAT_LABELS.iter().enumerate() {
            assert_eq!(seat_label(seat), *label);
            assert_eq!(parse_seat(label, SEAT_LABELS.len()).ok(), Some(seat));
        }
        assert!(parse_seat("one", 2).is_err());
        assert!(parse_seat("THREE", 2).is_err());
        assert_eq!(parse_seat("THREE", 3).ok(), Some(2));
    }
}
