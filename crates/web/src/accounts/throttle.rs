//! The door's back-off on guesses (logins, invite links, registrations):
//! the game port's [`AuthBackoff`], whose failure count per key *decays* —
//! one failure is forgiven per [`FORGIVE_EVERY`] — so that a school's
//! occasional typos behind one address never add up to a lock-out, while a
//! guesser, who fails faster than that, still climbs to the longest delay
//! and stays there.
//!
//! Three keys slow a login ([`Door`](super::Door) holds one of each):
//! - the address (an IPv6 address by its /64, as the game port counts it):
//!   each attempt waits its turn, the turns spaced by the address's delay;
//! - the name *and* the address: a guesser at one name from one address
//!   is slowed as the address is, without slowing the name's owner
//!   elsewhere;
//! - the name alone, from anywhere: this one only slows, by at most
//!   [`NAME_CEILING`], and never refuses or queues, so that nobody can lock
//!   a known member out by guessing wrong at their name — the owner, from
//!   a fresh address, gets in within the ceiling.
//!
//! A turn further off than the longest delay is refused at once, counted
//! as throttled, instead of holding the connection.

use std::time::Duration;

#[cfg(doc)]
use spielleiter_server::limits::{AuthBackoff, FORGIVE_EVERY};

/// The longest the name's own back-off slows a login.
pub const NAME_CEILING: Duration = Duration::from_secs(2);
