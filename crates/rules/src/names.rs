//! [`UnknownName`]: the one error of parsing any of the rules' wire names
//! (teams, colours, piece kinds, rotations, flips).

use core::fmt;

/// A name that is not one of the enum's wire names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownName;

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown name")
    }
}

impl core::error::Error for UnknownName {}
