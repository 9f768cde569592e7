//! [`XmlWriter`]: writes elements exactly as the official server's
//! pretty-printer does (`lobby.md` §2.1, §3.3): two spaces of indentation per
//! level, `\n` line ends, `<empty/>` without a space before the slash, text
//! values on one line, and the official escaping, which differs between
//! attribute values and element text.

use bytes::BytesMut;

/// Where encoded bytes go. Implemented for the two buffers callers reuse
/// across messages, so encoding never allocates beyond their growth.
pub trait ByteSink {
    /// Appends `bytes`.
    fn put(&mut self, bytes: &[u8]);
}

impl ByteSink for Vec<u8> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

impl ByteSink for BytesMut {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// A line break and 64 spaces: a new line with up to 32 levels of
/// indentation in one write; deeper levels are written in several pieces.
const NEWLINE_SPACES: &[u8; 65] =
    b"\n                                                                ";

/// The attribute XStream uses to name the concrete type of a field.
const CLASS: &str = "class";

/// A pretty-printing XML writer over a [`ByteSink`].
///
/// The caller states the structure explicitly: [`start`](Self::start) an
/// element, add [`attr`](Self::attr)ibutes, then either
/// [`end_empty`](Self::end_empty) it or [`open`](Self::open) it for children
/// and later [`close`](Self::close) it. Whether an element is empty is always
/// known before its start tag is finished, so nothing is buffered.
#[derive(Debug)]
pub struct XmlWriter<'a, S: ByteSink> {
    out: &'a mut S,
    /// Indentation level of the packet's own element (0 in replays and
    /// single-packet form, 1 inside the server's `<protocol>` stream).
    base: usize,
    /// Nesting depth below the packet element of the next element to start.
    depth: usize,
}

impl<'a, S: ByteSink> XmlWriter<'a, S> {
    /// A writer whose first element starts at the current position and whose
    /// lines are indented by `base` levels.
    pub fn new(out: &'a mut S, base: usize) -> Self {
        XmlWriter {
            out,
            base,
            depth: 0,
        }
    }

    fn newline_indent(&mut self) {
        let mut spaces = 2 * (self.base + self.depth);
        let first = spaces.min(NEWLINE_SPACES.len() - 1);
        self.out.put(&NEWLINE_SPACES[..1 + first]);
        spaces -= first;
        while spaces > 0 {
            let n = spaces.min(NEWLINE_SPACES.len() - 1);
            self.out.put(&NEWLINE_SPACES[1..1 + n]);
            spaces -= n;
        }
    }

    /// Writes `element`, a complete element whose text needs no escaping,
    /// on a new line (e.g. a precomputed `<shape>MONO</shape>`).
    pub fn raw_element(&mut self, element: &str) {
        self.newline_indent();
        self.out.put(element.as_bytes());
    }

    /// [`raw_element`](Self::raw_element) for an element already in bytes
    /// (which must be well-formed XML needing no escaping).
    pub(crate) fn raw_element_bytes(&mut self, element: &[u8]) {
        self.newline_indent();
        self.out.put(element);
    }

    /// Writes `<name`: on a new, indented line unless it is the packet
    /// element itself.
    pub fn start(&mut self, name: &str) {
        if self.depth > 0 {
            self.newline_indent();
        }
        self.out.put(b"<");
        self.out.put(name.as_bytes());
    }

    /// Writes ` name="value"` with attribute escaping.
    pub fn attr(&mut self, name: &str, value: &str) {
        self.out.put(b" ");
        self.out.put(name.as_bytes());
        self.out.put(b"=\"");
        escape(self.out, value, true);
        self.out.put(b"\"");
    }

    /// Writes an integer attribute.
    pub fn attr_int(&mut self, name: &str, value: i64) {
        self.out.put(b" ");
        self.out.put(name.as_bytes());
        self.out.put(b"=\"");
        put_int(self.out, value);
        self.out.put(b"\"");
    }

    /// Writes a boolean attribute (`true`/`false`).
    pub fn attr_bool(&mut self, name: &str, value: bool) {
        self.attr_raw(name, if value { "true" } else { "false" });
    }

    /// Writes an attribute whose value needs no escaping (enum names).
    pub fn attr_raw(&mut self, name: &str, value: &str) {
        self.out.put(b" ");
        self.out.put(name.as_bytes());
        self.out.put(b"=\"");
        self.out.put(value.as_bytes());
        self.out.put(b"\"");
    }

    /// Finishes the current start tag as an empty element: `/>`.
    pub fn end_empty(&mut self) {
        self.out.put(b"/>");
    }

    /// Finishes the current start tag; children follow.
    pub fn open(&mut self) {
        self.out.put(b">");
        self.depth += 1;
    }

    /// Writes the end tag of the element opened last, on its own line.
    pub fn close(&mut self, name: &str) {
        self.depth -= 1;
        self.newline_indent();
        self.out.put(b"</");
        self.out.put(name.as_bytes());
        self.out.put(b">");
    }

    /// Writes `<name>text</name>` on one line (`<name/>` for empty text, as
    /// XStream does for an empty string).
    pub fn text_element(&mut self, name: &str, text: &str) {
        self.start(name);
        if text.is_empty() {
            self.end_empty();
            return;
        }
        self.out.put(b">");
        escape(self.out, text, false);
        self.out.put(b"</");
        self.out.put(name.as_bytes());
        self.out.put(b">");
    }

    /// Writes `<name>text</name>` on one line for a non-empty text that
    /// needs no escaping (enum names, numbers).
    pub fn text_element_raw(&mut self, name: &str, text: &str) {
        self.start(name);
        self.out.put(b">");
        self.out.put(text.as_bytes());
        self.out.put(b"</");
        self.out.put(name.as_bytes());
        self.out.put(b">");
    }

    /// Writes `<name class="class">text</name>` on one line; class and
    /// text are enum names, which need no escaping.
    pub fn text_element_with_class(&mut self, name: &str, class: &str, text: &str) {
        self.start(name);
        self.attr_raw(CLASS, class);
        self.out.put(b">");
        self.out.put(text.as_bytes());
        self.out.put(b"</");
        self.out.put(name.as_bytes());
        self.out.put(b">");
    }
}

/// Writes `value` in decimal.
pub(crate) fn put_int<S: ByteSink + ?Sized>(out: &mut S, value: i64) {
    // Board coordinates and counts are small: skip the general loop.
    if (0..10).contains(&value) {
        out.put(&[b'0' + value as u8]);
        return;
    }
    if (10..100).contains(&value) {
        out.put(&[b'0' + (value / 10) as u8, b'0' + (value % 10) as u8]);
        return;
    }
    let mut buf = [0; 20];
    out.put(format_int(value, &mut buf).as_bytes());
}

/// Formats `value` in decimal into `buf` without allocating.
pub(crate) fn format_int(value: i64, buf: &mut [u8; 20]) -> &str {
    let mut magnitude = value.unsigned_abs();
    let mut pos = buf.len();
    loop {
        pos -= 1;
        buf[pos] = b'0' + (magnitude % 10) as u8;
        magnitude /= 10;
        if magnitude == 0 {
            break;
        }
    }
    if value < 0 {
        pos -= 1;
        buf[pos] = b'-';
    }
    // Only ASCII digits and '-' were written.
    core::str::from_utf8(&buf[pos..]).unwrap_or("0")
}

/// Appends `value` escaped as the official serializer does (`lobby.md`
/// §3.3): the five predefined entities, CR and NUL as character references,
/// other control characters as lower-case hex references except that
/// newline and tab stay literal in element text.
pub(crate) fn escape<S: ByteSink + ?Sized>(out: &mut S, value: &str, in_attribute: bool) {
    let bytes = value.as_bytes();
    let mut copied = 0;
    for (i, &b) in bytes.iter().enumerate() {
        // C1 controls (U+0080..U+009F) are ISO controls too, and Java escapes
        // every ISO control; in UTF-8 they are 0xC2 0x80..=0x9F.
        if b == 0xc2 && matches!(bytes.get(i + 1), Some(0x80..=0x9f)) {
            out.put(&bytes[copied..i]);
            copied = i + 2;
            write_char_ref(out, bytes[i + 1]);
            continue;
        }
        if i < copied {
            continue;
        }
        let replacement: &[u8] = match b {
            b'&' => b"&amp;",
            b'<' => b"&lt;",
            b'>' => b"&gt;",
            b'"' => b"&quot;",
            b'\'' => b"&apos;",
            b'\n' if !in_attribute => continue,
            b'\t' if !in_attribute => continue,
            0..=0x1f | 0x7f => {
                out.put(&bytes[copied..i]);
                copied = i + 1;
                write_char_ref(out, b);
                continue;
            }
            _ => continue,
        };
        out.put(&bytes[copied..i]);
        out.put(replacement);
        copied = i + 1;
    }
    out.put(&bytes[copied..]);
}

fn write_char_ref<S: ByteSink + ?Sized>(out: &mut S, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.put(b"&#x");
    if b >= 0x10 {
        out.put(&[HEX[usize::from(b >> 4)]]);
    }
    out.put(&[HEX[usize::from(b & 0xf)]]);
    out.put(b";");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(value: &str, in_attribute: bool) -> String {
        let mut out = Vec::new();
        escape(&mut out, value, in_attribute);
        String::from_utf8(out).expect("escaping keeps UTF-8")
    }

    #[test]
    fn attribute_escaping_follows_the_official_serializer() {
        assert_eq!(
            escaped("Ungueltiger Zug von 'bob'.\nX", true),
            "Ungueltiger Zug von &apos;bob&apos;.&#xa;X"
        );
        assert_eq!(escaped("a&b<c>d\"e", true), "a&amp;b&lt;c&gt;d&quot;e");
        assert_eq!(escaped("\t\r\0\u{1}", true), "&#x9;&#xd;&#x0;&#x1;");
        assert_eq!(escaped("∅ Punkte ü", true), "∅ Punkte ü");
    }

    #[test]
    fn text_keeps_newline_and_tab_literal() {
        assert_eq!(escaped("a\nb\tc\rd'", false), "a\nb\tc&#xd;d&apos;");
        assert_eq!(escaped("\u{1b}", false), "&#x1b;");
        assert_eq!(escaped("a\u{85}b\u{a0}", false), "a&#x85;b\u{a0}");
    }

    #[test]
    fn integers_format_like_java() {
        let mut buf = [0; 20];
        assert_eq!(format_int(0, &mut buf), "0");
        assert_eq!(format_int(-17, &mut buf), "-17");
        assert_eq!(format_int(i64::MIN, &mut buf), "-9223372036854775808");
        assert_eq!(format_int(i64::MAX, &mut buf), "9223372036854775807");
        for value in [0, 7, 10, 19, 99, 100, -1, 12345] {
            let mut out = Vec::new();
            put_int(&mut out, value);
            assert_eq!(out, value.to_string().as_bytes());
        }
    }

    #[test]
    fn nested_elements_are_indented_from_the_base() {
        let mut out = Vec::new();
        let mut w = XmlWriter::new(&mut out, 1);
        w.start("room");
        w.attr("roomId", "r");
        w.open();
        w.start("data");
        w.attr("class", "x");
        w.open();
        w.text_element("color", "BLUE");
        w.start("board");
        w.end_empty();
        w.close("data");
        w.close("room");
        assert_eq!(
            String::from_utf8(out).expect("utf-8"),
            "<room roomId=\"r\">\n    <data class=\"x\">\n      <color>BLUE</color>\n      <board/>\n    </data>\n  </room>"
        );
    }
}
