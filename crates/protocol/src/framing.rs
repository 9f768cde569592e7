//! [`FrameDecoder`]: splits a connection's byte stream into its packets.
//!
//! A connection is one XML document whose root element (`<protocol>`) stays
//! open; each direct child of the root is one packet (`lobby.md` §2). The
//! decoder finds where each child ends without parsing it: it tracks just
//! enough lexical state (text, tag, quoted attribute value, comment, CDATA,
//! processing instruction) and the element depth to recognise the end tag of
//! a depth-1 element, and hands the element's bytes on as a [`Frame`]. Parsing
//! a frame into a message is the job of [`ClientMessage`] and
//! [`ServerMessage`] (mini-redis' check → parse split).
//!
//! Every byte is scanned once: the scan position and lexical state survive
//! between calls, so a packet split over many reads costs no rescanning.
//! Memory is bounded: bytes before and between packets are discarded as soon
//! as they are scanned, and a packet longer than the maximum message size is
//! an error as soon as the limit is crossed.
//!
//! [`ClientMessage`]: crate::ClientMessage
//! [`ServerMessage`]: crate::ServerMessage

use std::{fmt, io};

use bytes::{Buf, Bytes, BytesMut};
use thiserror::Error;
use tokio_util::codec::Decoder;

use crate::xml::MAX_ATTRIBUTES;

/// The default maximum size of one packet in bytes (decisions.md §8).
pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 1 << 20;

/// The default maximum element nesting depth inside one packet. The deepest
/// official packet (a memento) nests 6 levels.
pub const DEFAULT_MAX_DEPTH: usize = 32;

const UTF8_BOM: [u8; 3] = [0xef, 0xbb, 0xbf];

/// One complete packet: the bytes of a direct child element of the stream's
/// root, from its `<` to its final `>`.
#[derive(Clone, PartialEq, Eq)]
pub struct Frame {
    bytes: Bytes,
}

impl Frame {
    /// A frame holding `bytes`, which should be one complete element (for
    /// tests and for messages that do not come from a stream).
    pub fn new(bytes: impl Into<Bytes>) -> Frame {
        Frame {
            bytes: bytes.into(),
        }
    }

    /// The element's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The element's bytes, without copying.
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }

    /// The element name, as written in the start tag.
    pub fn name(&self) -> &[u8] {
        let rest = self.bytes.get(1..).unwrap_or_default();
        let end = rest
            .iter()
            .position(|&b| b.is_ascii_whitespace() || b == b'/' || b == b'>')
            .unwrap_or(rest.len());
        &rest[..end]
    }
}

impl fmt::Debug for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Frame")
            .field(&String::from_utf8_lossy(&self.bytes))
            .finish()
    }
}

/// What the decoder found in the stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamEvent {
    /// A complete packet.
    Frame(Frame),
    /// The peer closed its root element (`</protocol>`): its stream is over.
    /// Any bytes after it are ignored.
    End,
}

/// Why the byte stream cannot be split into packets. Apart from
/// [`Io`](Self::Io), every variant means the peer sent something that cannot
/// be resynchronised; the connection has to be closed (decisions.md §8).
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum FramingError {
    /// Reading from the socket failed.
    #[error("I/O error: {0}")]
    Io(io::Error),
    /// A packet is larger than the configured maximum.
    #[error("a message is larger than {limit} bytes")]
    TooLarge {
        /// The configured maximum in bytes.
        limit: usize,
    },
    /// A packet nests elements deeper than the configured maximum.
    #[error("a message nests elements deeper than {limit} levels")]
    TooDeep {
        /// The configured maximum depth.
        limit: usize,
    },
    /// A start tag carries more attributes than any protocol element may
    /// (`MAX_ATTRIBUTES`).
    #[error("an element has more than {limit} attributes")]
    TooManyAttributes {
        /// The maximum.
        limit: usize,
    },
    /// The bytes cannot become well-formed XML, found without parsing the
    /// packet at the byte that shows it: text before the root element, a
    /// DOCTYPE, a byte a tag cannot hold where it stands (an unquoted
    /// attribute value, `<` in a value), an end tag that does not match its
    /// start tag, a forbidden control character.
    #[error("malformed XML: {reason}")]
    Malformed {
        /// What was wrong.
        reason: &'static str,
    },
    /// The stream ended in the middle of a packet.
    #[error("the stream ended inside a message")]
    UnexpectedEof,
    /// The decoder already reported an error; it accepts no more input.
    #[error("the stream already failed")]
    AfterError,
}

// The cause is part of the message, so it is not also a `source`: an
// error chain prints every cause once.
impl From<io::Error> for FramingError {
    fn from(error: io::Error) -> Self {
        FramingError::Io(error)
    }
}

/// Where the decoder is in the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before the root start tag.
    Prolog,
    /// Inside the root element.
    Root,
    /// After the root end tag.
    Ended,
    /// An error was reported.
    Failed,
}

/// The lexical state at the scan position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lex {
    /// Character data.
    Text,
    /// Just after `<`.
    Open,
    /// Inside a start tag.
    StartTag(TagPart),
    /// Inside an end tag.
    EndTag(EndPart),
    /// Just after `<!`.
    Bang,
    /// After `<!-`.
    CommentOpen,
    /// Matching `[CDATA[` after `<!`; `matched` bytes of it seen so far.
    CdataOpen { matched: u8 },
    /// Inside a comment; `dashes` counts the `-` just before (max 2).
    Comment { dashes: u8 },
    /// Inside a CDATA section; `brackets` counts the `]` just before (max 2).
    Cdata { brackets: u8 },
    /// Inside a processing instruction or XML declaration; `question` means
    /// the last byte was `?`.
    Pi { question: bool },
}

/// Where in a start tag (`<name a="v" b='w'/>`) the scan is. Each part
/// admits a few byte classes; any other byte cannot be well-formed there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagPart {
    /// The element's name.
    Name,
    /// White space after the name or a value: an attribute, `/` or `>`.
    Space,
    /// An attribute's name.
    AttributeName,
    /// White space between an attribute's name and `=`.
    BeforeEquals,
    /// After `=`: white space, then the opening quote.
    AfterEquals,
    /// Inside a value opened by `quote`.
    Value { quote: u8 },
    /// Just after a value's closing quote: white space, `/` or `>`.
    AfterValue,
    /// After `/`: only `>`.
    Slash,
}

/// Where in an end tag (`</name >`) the scan is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EndPart {
    /// Just after `</`: the name's first character.
    Start,
    /// The name.
    Name,
    /// White space after the name: only more of it, then `>`.
    Space,
}

/// Splits a byte stream into [`StreamEvent`]s; a [`tokio_util::codec::Decoder`].
///
/// Accepts before the root element an optional UTF-8 byte-order mark, an XML
/// declaration, comments, processing instructions and whitespace. Inside the
/// root, text, comments and processing instructions between packets are
/// skipped. The root element may have any name; any end tag at depth 0
/// ends the stream.
///
/// # Security
///
/// The peer is untrusted. A packet longer than
/// [`max_message_size`](Self::with_limits), nested deeper than the maximum
/// depth, or with a start tag of more than
/// `MAX_ATTRIBUTES` attributes fails with a [`FramingError`] as soon as the limit is crossed; the
/// decoder never holds more than one packet's worth of bytes plus the bytes
/// of the read that crossed the limit.
#[derive(Debug)]
pub struct FrameDecoder {
    max_message_size: usize,
    max_depth: usize,
    phase: Phase,
    lex: Lex,
    /// Open elements of the current packet; 0 between packets.
    depth: usize,
    /// Attribute values seen in the current start tag.
    attributes: usize,
    /// How many bytes at the front of the buffer have been scanned.
    scanned: usize,
    /// Offset in the buffer of the `<` that starts the current packet.
    packet_start: Option<usize>,
    /// How many bytes of a byte-order mark have been seen at the start of
    /// the stream (they may arrive in separate reads).
    bom_seen: u8,
    /// Whether any byte at all has been scanned.
    started: bool,
    /// The hash of the name of the tag being scanned (see [`hash_byte`]).
    name_hash: u64,
    /// The name hashes of the current packet's open elements, outermost
    /// first: an end tag must match the innermost (at most the maximum
    /// depth long).
    open_names: Vec<u64>,
}

impl Default for FrameDecoder {
    fn default() -> Self {
        FrameDecoder::new()
    }
}

impl FrameDecoder {
    /// A decoder with the default limits: 1 MiB per packet, depth 32.
    pub fn new() -> FrameDecoder {
        FrameDecoder::with_limits(DEFAULT_MAX_MESSAGE_SIZE, DEFAULT_MAX_DEPTH)
    }

    /// A decoder with the given maximum packet size in bytes and maximum
    /// element depth inside a packet (the packet element itself is depth 1).
    pub fn with_limits(max_message_size: usize, max_depth: usize) -> FrameDecoder {
        FrameDecoder {
            max_message_size: max_message_size.max(1),
            max_depth: max_depth.max(1),
            phase: Phase::Prolog,
            lex: Lex::Text,
            depth: 0,
            attributes: 0,
            scanned: 0,
            packet_start: None,
            bom_seen: 0,
            started: false,
            name_hash: NAME_HASH_START,
            open_names: Vec::new(),
        }
    }

    /// The maximum packet size in bytes.
    pub fn max_message_size(&self) -> usize {
        self.max_message_size
    }

    /// Whether the peer's root element has been closed.
    pub fn is_ended(&self) -> bool {
        self.phase == Phase::Ended
    }

    /// Whether a packet has begun and not yet ended: its bytes so far stay
    /// in the buffer until it is complete.
    pub fn in_packet(&self) -> bool {
        self.packet_start.is_some()
    }

    fn fail(&mut self, src: &mut BytesMut, error: FramingError) -> FramingError {
        self.phase = Phase::Failed;
        src.clear();
        // Give the memory of an oversized packet back right away.
        *src = BytesMut::new();
        self.scanned = 0;
        self.packet_start = None;
        self.open_names = Vec::new();
        error
    }

    fn malformed(&mut self, src: &mut BytesMut, reason: &'static str) -> FramingError {
        self.fail(src, FramingError::Malformed { reason })
    }

    /// Scans forward; returns the event completed by the byte at some
    /// position, or `None` when the buffer is exhausted.
    fn scan(&mut self, src: &mut BytesMut) -> Result<Option<StreamEvent>, FramingError> {
        let mut pos = self.scanned;
        // Inside a packet, scanning stops at the size limit.
        let mut end = self.scan_end(src.len());
        while pos < end {
            let b = src[pos];
            if is_forbidden(b) {
                return Err(self.malformed(src, "a control character XML does not allow"));
            }
            match self.lex {
                Lex::Text => {
                    if b == b'<' {
                        if self.phase == Phase::Prolog && (1..3).contains(&self.bom_seen) {
                            return Err(self.malformed(src, "incomplete byte-order mark"));
                        }
                        self.started = true;
                        self.lex = Lex::Open;
                    } else if self.phase == Phase::Prolog {
                        self.prolog_byte(src, b)?;
                    } else {
                        // Skip the rest of the text run at once.
                        match src[pos..end]
                            .iter()
                            .position(|&c| c == b'<' || is_forbidden(c))
                        {
                            Some(n) => {
                                pos += n;
                                continue;
                            }
                            None => pos = end - 1,
                        }
                    }
                }
                Lex::Open => match b {
                    b'/' => self.lex = Lex::EndTag(EndPart::Start),
                    b'!' => self.lex = Lex::Bang,
                    b'?' => self.lex = Lex::Pi { question: false },
                    b if is_name_start(b) => {
                        if self.phase == Phase::Root && self.depth == 0 {
                            self.packet_start = Some(pos - 1);
                            end = self.scan_end(src.len());
                        }
                        self.name_hash = hash_byte(NAME_HASH_START, b);
                        self.lex = Lex::StartTag(TagPart::Name);
                        self.attributes = 0;
                    }
                    _ => return Err(self.malformed(src, "`<` is not followed by a name")),
                },
                Lex::StartTag(TagPart::Value { quote }) => {
                    // Skip to the closing quote; `<` cannot stand in a
                    // value.
                    match src[pos..end]
                        .iter()
                        .position(|&c| c == quote || c == b'<' || is_forbidden(c))
                    {
                        Some(n) => {
                            pos += n;
                            match src[pos] {
                                b'<' => {
                                    return Err(self.malformed(src, "`<` in an attribute value"));
                                }
                                c if c == quote => self.lex = Lex::StartTag(TagPart::AfterValue),
                                // A forbidden byte: judged at the loop's top.
                                _ => continue,
                            }
                        }
                        None => pos = end - 1,
                    }
                }
                Lex::StartTag(part) => {
                    if let Some(event) = self.start_tag_byte(src, pos, part, b)? {
                        return Ok(Some(event));
                    }
                }
                Lex::EndTag(part) => match (part, b) {
                    (EndPart::Start, b) if is_name_start(b) => {
                        self.name_hash = hash_byte(NAME_HASH_START, b);
                        self.lex = Lex::EndTag(EndPart::Name);
                    }
                    (EndPart::Start, _) => {
                        return Err(self.malformed(src, "`</` is not followed by a name"));
                    }
                    (EndPart::Name, b) if is_name_char(b) => {
                        self.name_hash = hash_byte(self.name_hash, b);
                    }
                    (EndPart::Name | EndPart::Space, b) if is_space(b) => {
                        self.lex = Lex::EndTag(EndPart::Space);
                    }
                    (_, b'>') => {
                        self.lex = Lex::Text;
                        if let Some(event) = self.end_tag_closed(src, pos)? {
                            return Ok(Some(event));
                        }
                    }
                    _ => {
                        return Err(self.malformed(src, "an end tag holds more than a name"));
                    }
                },
                Lex::Bang => match b {
                    b'-' => self.lex = Lex::CommentOpen,
                    b'[' if self.phase == Phase::Root => self.lex = Lex::CdataOpen { matched: 1 },
                    _ => {
                        return Err(self.malformed(
                            src,
                            "only comments and CDATA sections may start with `<!`",
                        ));
                    }
                },
                Lex::CommentOpen => {
                    if b != b'-' {
                        return Err(self.malformed(src, "`<!-` does not start a comment"));
                    }
                    self.lex = Lex::Comment { dashes: 0 };
                }
                Lex::CdataOpen { matched } => {
                    const CDATA_OPEN: &[u8] = b"[CDATA[";
                    if CDATA_OPEN.get(usize::from(matched)) != Some(&b) {
                        return Err(self.malformed(src, "`<![` does not start a CDATA section"));
                    }
                    self.lex = if usize::from(matched) + 1 == CDATA_OPEN.len() {
                        Lex::Cdata { brackets: 0 }
                    } else {
                        Lex::CdataOpen {
                            matched: matched + 1,
                        }
                    };
                }
                Lex::Comment { dashes } => {
                    self.lex = match b {
                        b'>' if dashes == 2 => Lex::Text,
                        // `--` may only end a comment.
                        _ if dashes == 2 => {
                            return Err(self.malformed(src, "`--` inside a comment"));
                        }
                        b'-' => Lex::Comment { dashes: dashes + 1 },
                        _ => Lex::Comment { dashes: 0 },
                    };
                }
                Lex::Cdata { brackets } => {
                    self.lex = match b {
                        b']' => Lex::Cdata {
                            brackets: (brackets + 1).min(2),
                        },
                        b'>' if brackets == 2 => Lex::Text,
                        _ => Lex::Cdata { brackets: 0 },
                    };
                }
                Lex::Pi { question } => {
                    self.lex = match b {
                        b'?' => Lex::Pi { question: true },
                        b'>' if question => Lex::Text,
                        _ => Lex::Pi { question: false },
                    };
                }
            }
            pos += 1;
        }
        if let Some(start) = self.packet_start
            && pos - start >= self.max_message_size
            && src.len() > pos
        {
            let limit = self.max_message_size;
            return Err(self.fail(src, FramingError::TooLarge { limit }));
        }
        self.scanned = pos;
        Ok(None)
    }

    /// Judges byte `b` at `pos` of a start tag outside a value, in `part`.
    fn start_tag_byte(
        &mut self,
        src: &mut BytesMut,
        pos: usize,
        part: TagPart,
        b: u8,
    ) -> Result<Option<StreamEvent>, FramingError> {
        let next = match (part, b) {
            (TagPart::Name, b) if is_name_char(b) => {
                self.name_hash = hash_byte(self.name_hash, b);
                TagPart::Name
            }
            (TagPart::AttributeName, b) if is_name_char(b) => TagPart::AttributeName,
            (TagPart::Space, b) if is_name_start(b) => TagPart::AttributeName,
            (TagPart::Name | TagPart::Space | TagPart::AfterValue, b) if is_space(b) => {
                TagPart::Space
            }
            (TagPart::AttributeName | TagPart::BeforeEquals, b) if is_space(b) => {
                TagPart::BeforeEquals
            }
            (TagPart::AttributeName | TagPart::BeforeEquals, b'=') => TagPart::AfterEquals,
            (TagPart::AfterEquals, b) if is_space(b) => TagPart::AfterEquals,
            (TagPart::AfterEquals, b'"' | b'\'') => {
                // Each value is one attribute: the cap holds before the
                // tag is parsed.
                self.attributes += 1;
                if self.attributes > MAX_ATTRIBUTES {
                    let limit = MAX_ATTRIBUTES;
                    return Err(self.fail(src, FramingError::TooManyAttributes { limit }));
                }
                TagPart::Value { quote: b }
            }
            (TagPart::Name | TagPart::Space | TagPart::AfterValue, b'/') => TagPart::Slash,
            (TagPart::Name | TagPart::Space | TagPart::AfterValue | TagPart::Slash, b'>') => {
                self.lex = Lex::Text;
                return self.start_tag_closed(src, pos, part == TagPart::Slash);
            }
            (_, b'<') => return Err(self.malformed(src, "`<` inside a tag")),
            (TagPart::AfterEquals, _) => {
                return Err(self.malformed(src, "an attribute value is not quoted"));
            }
            (TagPart::AttributeName | TagPart::BeforeEquals, _) => {
                return Err(self.malformed(src, "an attribute name is not followed by `=`"));
            }
            (TagPart::AfterValue, _) => {
                return Err(self.malformed(src, "attributes are not separated by white space"));
            }
            (TagPart::Slash, _) => {
                return Err(self.malformed(src, "`/` in a start tag is not followed by `>`"));
            }
            (TagPart::Name | TagPart::Space | TagPart::Value { .. }, _) => {
                return Err(self.malformed(src, "a character no name may hold in a tag"));
            }
        };
        self.lex = Lex::StartTag(next);
        Ok(None)
    }

    /// Where scanning has to stop in a buffer of `len` bytes: at its end, or
    /// inside a packet at the size limit.
    fn scan_end(&self, len: usize) -> usize {
        match self.packet_start {
            Some(start) => len.min(start.saturating_add(self.max_message_size)),
            None => len,
        }
    }

    /// Checks a text byte before the root element: only a leading byte-order
    /// mark and whitespace are allowed there.
    fn prolog_byte(&mut self, src: &mut BytesMut, b: u8) -> Result<(), FramingError> {
        let bom_index = usize::from(self.bom_seen);
        if bom_index < UTF8_BOM.len()
            && b == UTF8_BOM[bom_index]
            && (!self.started || bom_index > 0)
        {
            self.bom_seen += 1;
            self.started = true;
            return Ok(());
        }
        if (1..3).contains(&self.bom_seen) {
            return Err(self.malformed(src, "incomplete byte-order mark"));
        }
        self.started = true;
        if is_space(b) {
            Ok(())
        } else {
            Err(self.malformed(src, "text before the root element"))
        }
    }

    /// Handles the `>` at `pos` that closes a start tag.
    fn start_tag_closed(
        &mut self,
        src: &mut BytesMut,
        pos: usize,
        empty: bool,
    ) -> Result<Option<StreamEvent>, FramingError> {
        match self.phase {
            Phase::Prolog => {
                if empty {
                    self.phase = Phase::Ended;
                    src.clear();
                    self.scanned = 0;
                    return Ok(Some(StreamEvent::End));
                }
                self.phase = Phase::Root;
                Ok(None)
            }
            _ if empty => {
                if self.depth == 0 {
                    Ok(Some(self.take_frame(src, pos)))
                } else {
                    Ok(None)
                }
            }
            _ => {
                self.depth += 1;
                if self.depth > self.max_depth {
                    let limit = self.max_depth;
                    return Err(self.fail(src, FramingError::TooDeep { limit }));
                }
                self.open_names.push(self.name_hash);
                Ok(None)
            }
        }
    }

    /// Handles the `>` at `pos` that closes an end tag.
    fn end_tag_closed(
        &mut self,
        src: &mut BytesMut,
        pos: usize,
    ) -> Result<Option<StreamEvent>, FramingError> {
        match (self.phase, self.depth) {
            (Phase::Prolog, _) => Err(self.malformed(src, "end tag before the root element")),
            (_, 0) => {
                self.phase = Phase::Ended;
                src.clear();
                self.scanned = 0;
                Ok(Some(StreamEvent::End))
            }
            (_, depth) => {
                if self.open_names.pop() != Some(self.name_hash) {
                    return Err(
                        self.malformed(src, "an end tag does not match the element it closes")
                    );
                }
                self.depth = depth - 1;
                if self.depth == 0 {
                    Ok(Some(self.take_frame(src, pos)))
                } else {
                    Ok(None)
                }
            }
        }
    }

    /// Cuts the packet that ends with the byte at `end` out of the buffer.
    fn take_frame(&mut self, src: &mut BytesMut, end: usize) -> StreamEvent {
        let start = self.packet_start.take().unwrap_or(0);
        let mut bytes = src.split_to(end + 1);
        bytes.advance(start);
        self.scanned = 0;
        StreamEvent::Frame(Frame {
            bytes: bytes.freeze(),
        })
    }

    /// Drops scanned bytes that belong to no packet.
    fn discard_scanned(&mut self, src: &mut BytesMut) {
        let keep_from = match self.packet_start {
            Some(start) => start,
            // A `<` at the end of the buffer may start the next packet.
            None if self.lex == Lex::Open => self.scanned - 1,
            None => self.scanned,
        };
        if keep_from > 0 {
            src.advance(keep_from);
            self.scanned -= keep_from;
            if let Some(start) = &mut self.packet_start {
                *start = 0;
            }
        }
    }
}

/// A byte that may begin an XML name; bytes of characters beyond ASCII
/// are taken as letters.
fn is_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b':' || b >= 0x80
}

/// A byte that may continue an XML name.
fn is_name_char(b: u8) -> bool {
    is_name_start(b) || b.is_ascii_digit() || b == b'-' || b == b'.'
}

/// XML white space (not form feed or vertical tab, which are not).
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// A control character XML allows nowhere in a document (U+0000 to U+001F
/// but tab, line feed and carriage return; U+007F is allowed).
fn is_forbidden(b: u8) -> bool {
    b < 0x20 && !is_space(b)
}

/// The start value of a name hash.
const NAME_HASH_START: u64 = 0xcbf2_9ce4_8422_2325;

/// One step of FNV-1a over a tag's name: end tags are matched to start tags
/// by hash, so the decoder keeps eight bytes per open element whatever the
/// names' length. A collision only lets a mismatch through to the parser,
/// which refuses it when the packet is complete.
fn hash_byte(hash: u64, b: u8) -> u64 {
    (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
}

impl Decoder for FrameDecoder {
    type Item = StreamEvent;
    type Error = FramingError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<StreamEvent>, FramingError> {
        match self.phase {
            Phase::Failed => {
                src.clear();
                return Err(FramingError::AfterError);
            }
            Phase::Ended => {
                src.clear();
                return Ok(None);
            }
            Phase::Prolog | Phase::Root => {}
        }
        let event = self.scan(src)?;
        if event.is_none() {
            self.discard_scanned(src);
        }
        Ok(event)
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<StreamEvent>, FramingError> {
        match self.decode(src)? {
            Some(event) => Ok(Some(event)),
            None if self.packet_start.is_some() => Err(self.fail(src, FramingError::UnexpectedEof)),
            None => {
                src.clear();
                Ok(None)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `input` in pieces of `chunk` bytes; collects events until the
    /// first error.
    fn feed(
        decoder: &mut FrameDecoder,
        input: &[u8],
        chunk: usize,
    ) -> (Vec<StreamEvent>, Option<FramingError>) {
        let mut buf = BytesMut::new();
        let mut events = Vec::new();
        for piece in input.chunks(chunk.max(1)) {
            buf.extend_from_slice(piece);
            loop {
                match decoder.decode(&mut buf) {
                    Ok(Some(event)) => events.push(event),
                    Ok(None) => break,
                    Err(e) => return (events, Some(e)),
                }
            }
        }
        (events, None)
    }

    fn frames(events: &[StreamEvent]) -> Vec<String> {
        events
            .iter()
            .map(|e| match e {
                StreamEvent::Frame(f) => String::from_utf8_lossy(f.as_bytes()).into_owned(),
                StreamEvent::End => "END".to_owned(),
            })
            .collect()
    }

    #[test]
    fn splits_packets_with_nesting_quotes_comments_and_cdata() {
        let input = "\u{feff}<?xml version=\"1.0\"?>\n<!-- hi --><protocol a='>'>\n  <a x=\"/>\" y='&lt;'/>  <b><c>t</c><d/><!-- </b> --><![CDATA[</b>]]></b>text<?pi </x> ?><e\n/></protocol>trailing junk";
        for chunk in [1, 2, 3, 7, 1000] {
            let (events, err) = feed(&mut FrameDecoder::new(), input.as_bytes(), chunk);
            assert!(err.is_none(), "chunk {chunk}: {err:?}");
            assert_eq!(
                frames(&events),
                [
                    "<a x=\"/>\" y='&lt;'/>",
                    "<b><c>t</c><d/><!-- </b> --><![CDATA[</b>]]></b>",
                    "<e\n/>",
                    "END"
                ],
                "chunk {chunk}"
            );
        }
    }

    /// Feeds `input` byte by byte to a fresh decoder; the error, and how
    /// many bytes had arrived when it came.
    fn first_error(input: &[u8]) -> Option<(usize, FramingError)> {
        let mut decoder = FrameDecoder::new();
        let mut buf = BytesMut::new();
        for (index, &byte) in input.iter().enumerate() {
            buf.extend_from_slice(&[byte]);
            loop {
                match decoder.decode(&mut buf) {
                    Ok(Some(_)) => {}
                    Ok(None) => break,
                    Err(error) => return Some((index + 1, error)),
                }
            }
        }
        None
    }

    #[test]
    fn what_cannot_become_well_formed_fails_at_the_byte_that_shows_it() {
        // Each case: the stream up to and including the byte that cannot
        // be well-formed, then more that would keep a lenient decoder
        // waiting.
        let cases: [(&str, &str); 13] = [
            (
                "<protocol><room roomId=\"r\"><data class=\"x\"><piece color=B",
                "LUE></room>",
            ),
            ("<protocol><join gameType=s", "wc\"/>"),
            ("<protocol><a x=\"1\"y", "=\"2\"/>"),
            ("<protocol><a x y", "=\"1\"/>"),
            ("<protocol><a x=\"<", "\"/>"),
            ("<protocol><a/ ", ">"),
            ("<protocol><a \"", "b\"/>"),
            ("<protocol><a>text</b>", "</a>"),
            ("<protocol><a><b></a>", "</b></a>"),
            ("<protocol></ ", "a>"),
            ("<protocol><a></a x", ">"),
            ("<protocol><a><!-- a --x", " -->"),
            ("<protocol><a>\u{1}", "</a>"),
        ];
        for (bad, rest) in cases {
            let input = format!("{bad}{rest}");
            match first_error(input.as_bytes()) {
                Some((at, FramingError::Malformed { .. })) => {
                    assert_eq!(at, bad.len(), "{input}: refused at byte {at}");
                }
                other => panic!("{input}: {other:?}"),
            }
        }
    }

    #[test]
    fn well_formed_tags_pass_whatever_their_spacing() {
        let input = "<protocol >\n<a\tx = 'v' y\n=\"w\"\r\n/><b  ><c.d-e:f_1 />\u{e9}</b\n><\u{e9}\u{e8} \u{e9}='1'></\u{e9}\u{e8}></protocol >";
        for chunk in [1, 4, 1000] {
            let (events, err) = feed(&mut FrameDecoder::new(), input.as_bytes(), chunk);
            assert!(err.is_none(), "chunk {chunk}: {err:?}");
            assert_eq!(events.len(), 4, "{events:?}");
        }
    }

    #[test]
    fn empty_root_ends_the_stream() {
        let (events, err) = feed(&mut FrameDecoder::new(), b"<protocol/>", 1);
        assert!(err.is_none());
        assert_eq!(events, [StreamEvent::End]);
        assert_eq!(frames(&events), ["END"]);
    }

    #[test]
    fn text_before_the_root_is_malformed() {
        let (_, err) = feed(&mut FrameDecoder::new(), b"hello<protocol>", 4);
        assert!(matches!(err, Some(FramingError::Malformed { .. })));
        let (_, err) = feed(&mut FrameDecoder::new(), b"<protocol><1/>", 4);
        assert!(matches!(err, Some(FramingError::Malformed { .. })));
        let (_, err) = feed(&mut FrameDecoder::new(), b"<!DOCTYPE x><x>", 4);
        assert!(matches!(err, Some(FramingError::Malformed { .. })));
        let (_, err) = feed(&mut FrameDecoder::new(), b"\xef\xbb<x>", 4);
        assert!(matches!(err, Some(FramingError::Malformed { .. })));
    }

    #[test]
    fn a_packet_over_the_limit_fails_without_buffering_it() {
        let mut decoder = FrameDecoder::with_limits(64, 8);
        let mut buf = BytesMut::new();
        buf.extend_from_slice(b"<protocol><big>");
        assert!(matches!(decoder.decode(&mut buf), Ok(None)));
        let mut failed = false;
        for _ in 0..100 {
            buf.extend_from_slice(b"0123456789");
            assert!(buf.len() <= 64 + 10, "buffer grew to {}", buf.len());
            match decoder.decode(&mut buf) {
                Ok(None) => {}
                Err(FramingError::TooLarge { limit: 64 }) => {
                    failed = true;
                    break;
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        assert!(failed);
        assert!(buf.is_empty());
        assert!(matches!(
            decoder.decode(&mut buf),
            Err(FramingError::AfterError)
        ));
    }

    #[test]
    fn a_packet_of_exactly_the_limit_passes() {
        let packet = b"<p>0123456789</p>";
        let mut decoder = FrameDecoder::with_limits(packet.len(), 8);
        let mut input = b"<protocol>".to_vec();
        input.extend_from_slice(packet);
        let (events, err) = feed(&mut decoder, &input, 3);
        assert!(err.is_none());
        assert_eq!(frames(&events), ["<p>0123456789</p>"]);
    }

    #[test]
    fn nesting_over_the_limit_fails() {
        let (_, err) = feed(
            &mut FrameDecoder::with_limits(1000, 3),
            b"<protocol><a><b><c><d/></c></b></a>",
            5,
        );
        assert!(err.is_none());
        let (_, err) = feed(
            &mut FrameDecoder::with_limits(1000, 3),
            b"<protocol><a><b><c><d></d></c></b></a>",
            5,
        );
        assert!(matches!(err, Some(FramingError::TooDeep { limit: 3 })));
    }

    #[test]
    fn a_tag_with_too_many_attributes_fails_before_it_ends() {
        let attributes = |n: usize| (0..n).map(|i| format!(" a{i}='{i}'")).collect::<String>();
        let fine = format!("<protocol><join{}/>", attributes(MAX_ATTRIBUTES));
        let (events, err) = feed(&mut FrameDecoder::new(), fine.as_bytes(), 7);
        assert!(err.is_none(), "{err:?}");
        assert_eq!(events.len(), 1);
        // 100,000 attributes: the error comes at the 65th, long before the
        // tag (or the size limit) ends.
        let mut decoder = FrameDecoder::new();
        let mut buf = BytesMut::from(format!("<protocol><join{}", attributes(100_000)).as_bytes());
        let limit = MAX_ATTRIBUTES;
        assert!(matches!(
            decoder.decode(&mut buf),
            Err(FramingError::TooManyAttributes { limit: l }) if l == limit
        ));
    }

    #[test]
    fn junk_between_packets_is_not_kept() {
        let mut decoder = FrameDecoder::new();
        let mut buf = BytesMut::new();
        buf.extend_from_slice(b"<protocol>");
        for _ in 0..1000 {
            buf.extend_from_slice(b"   \n <!-- x --> ");
            assert!(matches!(decoder.decode(&mut buf), Ok(None)));
            assert!(buf.len() < 8);
        }
    }

    #[test]
    fn eof_inside_a_packet_is_an_error() {
        let mut decoder = FrameDecoder::new();
        let mut buf = BytesMut::from(&b"<protocol><join gameType="[..]);
        assert!(matches!(
            decoder.decode_eof(&mut buf),
            Err(FramingError::UnexpectedEof)
        ));
        let mut decoder = FrameDecoder::new();
        let mut buf = BytesMut::from(&b"<protocol><close/>  "[..]);
        assert!(matches!(
            decoder.decode_eof(&mut buf),
            Ok(Some(StreamEvent::Frame(_)))
        ));
        assert!(matches!(decoder.decode_eof(&mut buf), Ok(None)));
    }

    #[test]
    fn frame_name_stops_at_space_slash_or_bracket() {
        assert_eq!(Frame::new(&b"<join gameType=\"x\"/>"[..]).name(), b"join");
        assert_eq!(Frame::new(&b"<close/>"[..]).name(), b"close");
        assert_eq!(Frame::new(&b"<room>"[..]).name(), b"room");
    }
}
