//! [`DecodeError`] and [`MoveError`]: why a complete element could not be
//! turned into a typed message.

use thiserror::Error;

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
    #[error("malformed XML: {0}")]
    Xml(#[from] quick_xml::Error),
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
    #[error("`{value}` is not a valid {what}")]
    InvalidValue {
        /// What the value should have been, e.g. "team" or "turn".
        what: &'static str,
        /// The value as received.
        value: String,
    },
    /// A `class` attribute names no type that may appear there.
    #[error("unknown class `{class}` for <{element}>")]
    UnknownClass {
        /// The element carrying the attribute.
        element: &'static str,
        /// The value of `class` (empty if the attribute is missing).
        class: String,
    },
    /// A move has the wrong shape (`blokus-2021.md` §7.3).
    #[error("malformed move: {0}")]
    MalformedMove(#[from] MoveError),
}

impl DecodeError {
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
    #[error("`{value}` is not a {what} name")]
    UnknownName {
        /// What the name should denote: "colour", "piece kind", "rotation".
        what: &'static str,
        /// The value as received.
        value: String,
    },
    /// A coordinate is not a decimal integer in the `i32` range.
    #[error("`{value}` is not an integer coordinate")]
    InvalidCoordinate {
        /// The value as received.
        value: String,
    },
}
