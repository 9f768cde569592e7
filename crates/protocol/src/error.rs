//! [`DecodeError`] and [`MoveError`]: why a complete element could not be
//! turned into a typed message.

use std::fmt;

use thiserror::Error;

/// The most bytes of a peer's input that an error message repeats: a value
/// of a megabyte is shown as its first 200 bytes and `…`, so neither an
/// error reply nor a log line grows with what a peer sends.
pub const ECHO_LIMIT: usize = 200;

/// Displays `text` cut to at most [`ECHO_LIMIT`] bytes (at a character
/// boundary), with `…` when something was cut.
#[derive(Clone, Copy, Debug)]
pub struct Prefix<'a>(pub &'a str);

/// [`Prefix`] of `text`.
pub fn prefix(text: &str) -> Prefix<'_> {
    Prefix(text)
}

impl fmt::Display for Prefix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.len() <= ECHO_LIMIT {
            return f.write_str(self.0);
        }
        let mut end = ECHO_LIMIT;
        while !self.0.is_char_boundary(end) {
            end -= 1;
        }
        write!(f, "{}…", &self.0[..end])
    }
}

/// Why a complete element (a [`Frame`](crate::Frame)) is not a valid
/// message.
///
/// The server treats every variant as a protocol error of the sender. The
/// variants say how far parsing got: [`Xml`](Self::Xml) means the bytes are not
/// well-formed XML at all; the others mean well-formed XML that does not
/// have the shape the protocol requires.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The element is not well-formed XML (or not UTF-8).
    #[error("malformed XML: {}", prefix(&.0.to_string()))]
    Xml(quick_xml::Error),
    /// An element repeats an attribute name (not well-formed XML).
    #[error("malformed XML: the attribute `{}` is repeated", prefix(name))]
    RepeatedAttribute {
        /// The repeated name.
        name: String,
    },
    /// An element carries more attributes than any protocol element may.
    #[error("malformed XML: an element has more than {limit} attributes")]
    TooManyAttributes {
        /// The maximum ([`MAX_ATTRIBUTES`](crate::xml::MAX_ATTRIBUTES)).
        limit: usize,
    },
    /// The input holds a control character that XML does not allow
    /// anywhere in a document (U+0000 to U+001F but tab, line feed and
    /// carriage return), not even as a reference to it.
    #[error("malformed XML: the control character U+{code:04X} at byte {at}")]
    ForbiddenCharacter {
        /// The character's code.
        code: u8,
        /// Its offset in the packet.
        at: usize,
    },
    /// An element or attribute name that is no XML name (`< a="b"/>`,
    /// `<a"b"/>`).
    #[error("malformed XML: `{}` is no element or attribute name", prefix(name))]
    InvalidName {
        /// The name as received.
        name: String,
    },
    /// The input ended inside the element.
    #[error("the element is incomplete")]
    UnexpectedEof,
    /// The input holds no element at all.
    #[error("no element found")]
    NoElement,
    /// A required attribute is missing.
    #[error("<{element}> lacks the attribute `{attribute}`")]
    MissingAttribute {
        /// The element.
        element: &'static str,
        /// The missing attribute.
        attribute: &'static str,
    },
    /// A required child element is missing.
    #[error("<{element}> lacks the child element <{child}>")]
    MissingChild {
        /// The element.
        element: &'static str,
        /// The missing child.
        child: &'static str,
    },
    /// A value (attribute or text) cannot be converted.
    #[error("`{}` is not a valid {what}", prefix(value))]
    InvalidValue {
        /// What the value should have been, e.g. "team" or "turn".
        what: &'static str,
        /// The value as received.
        value: String,
    },
    /// A `class` attribute names no type that may appear there.
    #[error("unknown class `{}` for <{element}>", prefix(class))]
    UnknownClass {
        /// The element carrying the attribute.
        element: &'static str,
        /// The value of `class` (empty if the attribute is missing).
        class: String,
    },
    /// A move has the wrong shape (`blokus-2021.md` §7.3).
    #[error("malformed move: {0}")]
    MalformedMove(MoveError),
}

// The cause is part of the message, so it is not also a `source`: an
// error chain prints every cause once.
impl From<quick_xml::Error> for DecodeError {
    fn from(error: quick_xml::Error) -> Self {
        DecodeError::Xml(error)
    }
}

impl From<MoveError> for DecodeError {
    fn from(error: MoveError) -> Self {
        DecodeError::MalformedMove(error)
    }
}

impl DecodeError {
    /// Whether the bytes are not well-formed XML at all, as opposed to
    /// well-formed XML without the shape the protocol requires.
    pub fn is_malformed_xml(&self) -> bool {
        // Every variant named: a new one has to be placed here.
        match self {
            DecodeError::Xml(_)
            | DecodeError::RepeatedAttribute { .. }
            | DecodeError::TooManyAttributes { .. }
            | DecodeError::ForbiddenCharacter { .. }
            | DecodeError::InvalidName { .. }
            | DecodeError::UnexpectedEof
            | DecodeError::NoElement => true,
            DecodeError::MissingAttribute { .. }
            | DecodeError::MissingChild { .. }
            | DecodeError::InvalidValue { .. }
            | DecodeError::UnknownClass { .. }
            | DecodeError::MalformedMove(_) => false,
        }
    }

    /// Whether the sender's connection is closed after the error packet
    /// (decisions.md §8): malformed XML cannot be resynchronised, and a
    /// malformed move is a player's protocol error (it loses the game).
    /// Every other shape error is answered and forgiven. The one place that
    /// decides it: the server's connection and the error texts both ask
    /// here.
    pub fn closes_connection(&self) -> bool {
        self.is_malformed_xml() || matches!(self, DecodeError::MalformedMove(_))
    }

    pub(crate) fn invalid(what: &'static str, value: impl Into<String>) -> DecodeError {
        DecodeError::InvalidValue {
            what,
            value: value.into(),
        }
    }
}

/// Why a move sent by a client cannot be understood. These are shape
/// errors, checked before any rule: a move that has the right shape but
/// breaks a rule is a valid message.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MoveError {
    /// A required child element, such as `<piece>` or `<position>`, is
    /// missing.
    #[error("the element <{element}> is missing")]
    MissingElement {
        /// The missing element.
        element: &'static str,
    },
    /// A required attribute, such as `kind`, is missing.
    #[error("<{element}> lacks the attribute `{attribute}`")]
    MissingAttribute {
        /// The element.
        element: &'static str,
        /// The attribute.
        attribute: &'static str,
    },
    /// An enum value is not one of the official names (case-sensitive).
    #[error("`{}` is not a {what} name", prefix(value))]
    UnknownName {
        /// What the name should denote: "colour", "piece kind", "rotation".
        what: &'static str,
        /// The value as received.
        value: String,
    },
    /// A coordinate is not a decimal integer in the `i32` range.
    #[error("`{}` is not an integer coordinate", prefix(value))]
    InvalidCoordinate {
        /// The value as received.
        value: String,
    },
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// One error of every kind, whether it is malformed XML, and whether
    /// it closes the connection (also for the tests of their texts).
    pub(crate) fn every_kind() -> Vec<(DecodeError, bool, bool)> {
        let xml = quick_xml::Error::Syntax(quick_xml::errors::SyntaxError::UnclosedTag);
        vec![
            (DecodeError::Xml(xml), true, true),
            (
                DecodeError::RepeatedAttribute { name: "a".into() },
                true,
                true,
            ),
            (DecodeError::TooManyAttributes { limit: 64 }, true, true),
            (
                DecodeError::ForbiddenCharacter { code: 1, at: 3 },
                true,
                true,
            ),
            (DecodeError::InvalidName { name: "1".into() }, true, true),
            (DecodeError::UnexpectedEof, true, true),
            (DecodeError::NoElement, true, true),
            (
                DecodeError::MissingAttribute {
                    element: "joinRoom",
                    attribute: "roomId",
                },
                false,
                false,
            ),
            (
                DecodeError::MissingChild {
                    element: "data",
                    child: "piece",
                },
                false,
                false,
            ),
            (DecodeError::invalid("team", "x"), false, false),
            (
                DecodeError::UnknownClass {
                    element: "data",
                    class: "x".into(),
                },
                false,
                false,
            ),
            (
                DecodeError::MalformedMove(MoveError::MissingElement { element: "piece" }),
                false,
                true,
            ),
        ]
    }

    #[test]
    fn each_kind_says_whether_it_is_xml_and_whether_it_closes() {
        for (error, xml, closes) in every_kind() {
            assert_eq!(error.is_malformed_xml(), xml, "{error:?}");
            assert_eq!(error.closes_connection(), closes, "{error:?}");
        }
    }
}
