//! The XML layer below the messages: a pull reader over quick-xml for
//! parsing complete elements, and a writer that produces the official
//! pretty-printed form.

pub(crate) mod read;
pub mod write;

pub use read::MAX_ATTRIBUTES;
pub(crate) use read::{Element, XmlReader, parse_bool};
pub use write::{ByteSink, XmlWriter};
