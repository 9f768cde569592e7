//! Identifiers handed to clients: room ids and reservation codes, both random
//! version-4 UUIDs in lower-case canonical form, as the official server
//! issues them.

use std::fmt;

/// A room's id. Clients treat it as an opaque string.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoomId(String);

impl RoomId {
    /// A fresh random id.
    pub fn random() -> RoomId {
        RoomId(uuid::Uuid::new_v4().to_string())
    }

    /// The id as sent on the wire.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for RoomId {
    /// Whatever a client names; unknown ids are simply not found.
    fn from(s: &str) -> Self {
        RoomId(s.to_owned())
    }
}

impl fmt::Display for RoomId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A single-use code that admits one client to one prepared seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReservationCode(String);

impl ReservationCode {
    /// A fresh random code.
    pub fn random() -> ReservationCode {
        ReservationCode(uuid::Uuid::new_v4().to_string())
    }

    /// The code as sent on the wire.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for ReservationCode {
    fn from(s: &str) -> Self {
        ReservationCode(s.to_owned())
    }
}

impl fmt::Display for ReservationCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_canonical_lower_case_uuids() {
        let id = RoomId::random();
        let s = id.as_str();
        assert_eq!(s.len(), 36);
        assert!(
            s.chars()
                .all(|c| c == '-' || c.is_ascii_digit() || c.is_ascii_lowercase())
        );
        assert_eq!(s.as_bytes()[14], b'4', "version 4");
        assert_ne!(RoomId::random(), RoomId::random());
        assert_ne!(ReservationCode::random(), ReservationCode::random());
    }
}
