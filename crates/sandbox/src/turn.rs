//! [`JoinTurns`]: the order in which a game's seats may join, so that the
//! seats' containers can all start at once while their players still reach
//! the server one after the other.
//!
//! A container takes a few hundred milliseconds to start; starting each
//! seat's only once the seat before it has joined costs that time once per
//! seat. But the runner must know which seat never joined (that one is the
//! offender), and the server only counts joins. So every seat's container
//! starts at once, and its forwarder holds its player's connections, the
//! join already checked, until the seat's turn ([`JoinTurn`]): the turn of
//! seat N is given when N seats have joined. A seat that never joins holds
//! back every seat after it, as if they had not been started.

use tokio::sync::watch;

/// The turns of a game's seats, in seat order; held by the runner, which
/// gives each as the seats before it have joined. Dropped, every turn not
/// yet given is never given: a connection waiting for one is closed.
#[derive(Debug)]
pub struct JoinTurns {
    givers: Vec<watch::Sender<bool>>,
}

/// One seat's turn to join: until it is given, the seat's connections wait
/// at its forwarder before the server hears of them.
#[derive(Clone, Debug)]
pub struct JoinTurn(watch::Receiver<bool>);

impl JoinTurns {
    /// The turns of `seats` seats; the first seat's is given at once.
    pub fn new(seats: usize) -> (JoinTurns, Vec<JoinTurn>) {
        let (givers, turns) = (0..seats)
            .map(|seat| {
                let (giver, turn) = watch::channel(seat == 0);
                (giver, JoinTurn(turn))
            })
            .unzip();
        (JoinTurns { givers }, turns)
    }

    /// Gives the turn of seat `seat` (and any before it not yet given);
    /// whether seat `seat`'s had not been given before. A seat past the
    /// last has no turn: `false`.
    pub fn give(&self, seat: usize) -> bool {
        let Some(giver) = self.givers.get(seat) else {
            return false;
        };
        for earlier in &self.givers[..seat] {
            earlier.send_if_modified(|given| !std::mem::replace(given, true));
        }
        giver.send_if_modified(|given| !std::mem::replace(given, true))
    }
}

impl JoinTurn {
    /// A turn that is given already: a seat that joins when it is ready.
    pub fn given() -> JoinTurn {
        JoinTurn(watch::channel(true).1)
    }

    /// Whether the turn has been given.
    pub fn is_given(&self) -> bool {
        *self.0.borrow()
    }

    /// Waits until the turn is given: `true`, or `false` when it never will
    /// be (the runner dropped the game's turns).
    pub(crate) async fn wait(&mut self) -> bool {
        self.0.wait_for(|given| *given).await.is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_s_turn_comes_when_the_seats_before_it_have_joined() {
        let (turns, seats) = JoinTurns::new(3);
        let given = || seats.iter().map(JoinTurn::is_given).collect::<Vec<_>>();
        assert_eq!(given(), [true, false, false]);
        // The first seat joined: the second's turn, not the third's.
        assert!(turns.give(1));
        assert_eq!(given(), [true, true, false]);
        // The same news again gives nothing new.
        assert!(!turns.give(1));
        assert!(turns.give(2));
        assert_eq!(given(), [true, true, true]);
        assert!(!turns.give(3), "there is no fourth seat");
    }

    #[test]
    fn a_later_turn_gives_the_ones_before_it() {
        let (turns, seats) = JoinTurns::new(3);
        assert!(turns.give(2));
        assert!(seats.iter().all(JoinTurn::is_given));
        assert!(!turns.give(1));
    }

    #[tokio::test]
    async fn a_waiting_seat_goes_on_when_given_and_never_once_the_turns_are_dropped() {
        let (turns, mut seats) = JoinTurns::new(3);
        let mut third = seats.pop().expect("three seats");
        let mut second = seats.pop().expect("three seats");
        assert!(seats[0].wait().await, "the first seat waits for nobody");
        assert!(JoinTurn::given().wait().await);
        let waiting = tokio::spawn(async move { second.wait().await });
        tokio::task::yield_now().await;
        assert!(
            !waiting.is_finished(),
            "the second seat went before its turn"
        );
        turns.give(1);
        assert!(waiting.await.expect("the wait"));
        drop(turns);
        assert!(!third.wait().await, "a turn that will never come was given");
    }
}
