//! The Software-Challenge XML wire protocol: framing, typed messages and the
//! official encoding.
#![deny(missing_docs)]

pub mod error;
pub mod framing;
pub mod xml;

pub use error::{DecodeError, MoveError};
pub use framing::{Frame, FrameDecoder, FramingError, StreamEvent};
