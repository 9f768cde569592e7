//! The framing of a connection's endless document. The first input byte
//! says how many bytes arrive per read (1 to 256); the rest is the stream.
//! Cutting the stream into packets never panics, the packets and the error
//! do not depend on how the bytes arrive, and no packet exceeds the limit.
#![no_main]

use bytes::BytesMut;
use libfuzzer_sys::fuzz_target;
use spielleiter_protocol::{FrameDecoder, StreamEvent};
use tokio_util::codec::Decoder;

/// Small limits, so that inputs reach them.
const MAX_MESSAGE: usize = 4096;
const MAX_DEPTH: usize = 8;

/// What the decoder made of a stream.
#[derive(Debug, PartialEq, Eq)]
enum Event {
    Frame(Vec<u8>),
    End,
    Error(String),
}

/// The events of `stream` arriving `step` bytes at a time, up to the end
/// of the document or the first error.
fn events(stream: &[u8], step: usize) -> Vec<Event> {
    let mut decoder = FrameDecoder::with_limits(MAX_MESSAGE, MAX_DEPTH);
    let mut buffer = BytesMut::new();
    let mut events = Vec::new();
    for chunk in stream.chunks(step) {
        buffer.extend_from_slice(chunk);
        loop {
            match decoder.decode(&mut buffer) {
                Ok(Some(StreamEvent::Frame(frame))) => {
                    assert!(frame.as_bytes().len() <= MAX_MESSAGE);
                    events.push(Event::Frame(frame.as_bytes().to_vec()));
                }
                Ok(Some(StreamEvent::End)) => {
                    events.push(Event::End);
                    return events;
                }
                Ok(None) => break,
                Err(error) => {
                    events.push(Event::Error(error.to_string()));
                    return events;
                }
            }
        }
    }
    events
}

fuzz_target!(|input: &[u8]| {
    let Some((&step, stream)) = input.split_first() else {
        return;
    };
    let whole = events(stream, stream.len().max(1));
    let in_pieces = events(stream, usize::from(step) + 1);
    assert_eq!(whole, in_pieces);
});
