//! [`XmlReader`]: a small pull reader over quick-xml for one complete
//! element. It hands out child elements one by one, so message parsers can
//! accept children in any order and skip the ones they do not know
//! (decisions.md §7), and it unescapes attribute values and text.

use std::{borrow::Cow, cell::Cell};

use quick_xml::{
    Reader,
    escape::resolve_predefined_entity,
    events::{BytesStart, Event},
};

use crate::error::DecodeError;

/// The most attributes one element may carry. No protocol element has more
/// than a handful; the cap keeps the duplicate check (and everything else
/// that looks at attributes) cheap whatever a peer sends.
pub const MAX_ATTRIBUTES: usize = 64;

/// One element whose start tag has been read.
///
/// Its attribute list is checked exactly once — at most
/// [`MAX_ATTRIBUTES`] attributes, no name repeated (a document with a
/// repeated attribute is not well-formed XML): while a parser goes through
/// all attributes anyway ([`attributes`](Self::attributes),
/// [`attribute`](Self::attribute)), or else when the element is skipped,
/// read as text, or its children are read to the end.
#[derive(Debug)]
pub(crate) struct Element<'a> {
    start: BytesStart<'a>,
    /// `<x/>`: there are no children and no end tag to read.
    empty: bool,
    /// Whether the attribute list has been checked.
    checked: Cell<bool>,
}

impl<'a> Element<'a> {
    fn new(start: BytesStart<'a>, empty: bool) -> Element<'a> {
        Element {
            start,
            empty,
            checked: Cell::new(false),
        }
    }

    /// The element name as written.
    pub(crate) fn name(&self) -> &str {
        self.start.name().into_inner()
    }

    /// The attributes as `(name, unescaped value)` pairs, in document order.
    /// Values are normalised as XML requires: a literal line break becomes a
    /// space, `&#xa;` a line break. A repeated name or more than
    /// [`MAX_ATTRIBUTES`] attributes is an error.
    pub(crate) fn attributes(&self) -> Attributes<'_> {
        let mut inner = self.start.attributes();
        // quick-xml's own duplicate check allocates for every element; ours
        // keeps the few names of a protocol element on the stack.
        inner.with_checks(false);
        Attributes {
            inner,
            names: NameSet::default(),
            checked: &self.checked,
        }
    }

    /// The value of one attribute, if present. Reads the whole list, so a
    /// repeat after the first occurrence is found too.
    pub(crate) fn attribute(&self, name: &str) -> Result<Option<Cow<'_, str>>, DecodeError> {
        let mut found = None;
        for attr in self.attributes() {
            let (key, value) = attr?;
            if key == name {
                found = Some(value);
            }
        }
        Ok(found)
    }

    /// The value of the `class` attribute, or `""` if it is missing.
    pub(crate) fn class(&self) -> Result<Cow<'_, str>, DecodeError> {
        Ok(self.attribute("class")?.unwrap_or(Cow::Borrowed("")))
    }

    /// Checks the attribute list unless that has happened already.
    fn ensure_checked(&self) -> Result<(), DecodeError> {
        if !self.checked.get() {
            check_attributes(&self.start)?;
            self.checked.set(true);
        }
        Ok(())
    }
}

/// The attribute names of one start tag, for the duplicate check: the first
/// eight on the stack (no protocol element has more), further ones up to
/// [`MAX_ATTRIBUTES`] on the heap. Each insertion compares with at most
/// [`MAX_ATTRIBUTES`] short names, so a whole tag is checked in linear time.
#[derive(Default)]
struct NameSet<'e> {
    inline: [&'e [u8]; 8],
    more: Vec<&'e [u8]>,
    count: usize,
}

impl<'e> NameSet<'e> {
    fn insert(&mut self, name: &'e [u8]) -> Result<(), DecodeError> {
        if self.count == MAX_ATTRIBUTES {
            return Err(DecodeError::TooManyAttributes {
                limit: MAX_ATTRIBUTES,
            });
        }
        let inline_len = self.count.min(self.inline.len());
        if self.inline[..inline_len].contains(&name) || self.more.contains(&name) {
            return Err(DecodeError::RepeatedAttribute {
                name: String::from_utf8_lossy(name).into_owned(),
            });
        }
        match self.inline.get_mut(self.count) {
            Some(slot) => *slot = name,
            None => self.more.push(name),
        }
        self.count += 1;
        Ok(())
    }
}

/// Checks a start tag: a name, and an attribute list, checked without
/// unescaping any value:
/// one scan of the raw tag (names up to `=`, values skipped to their
/// closing quote) feeding a [`NameSet`]. A list that is not `name="value"`
/// pairs is malformed.
fn check_attributes(start: &BytesStart<'_>) -> Result<(), DecodeError> {
    // quick-xml takes any bytes up to white space for the element's name
    // (`< a="b"/>` is an element named "").
    check_name(start.name().into_inner().as_bytes())?;
    let raw = start.attributes_raw().as_bytes();
    let malformed = || DecodeError::invalid("attribute list", "");
    let skip_space = |mut pos: usize| {
        while raw.get(pos).is_some_and(|b| is_space(*b)) {
            pos += 1;
        }
        pos
    };
    let mut names = NameSet::default();
    let mut pos = 0;
    loop {
        pos = skip_space(pos);
        // `/` can only be the end of an empty element's tag here.
        if pos >= raw.len() || raw[pos..] == *b"/" {
            return Ok(());
        }
        let name_start = pos;
        while raw.get(pos).is_some_and(|&b| b != b'=' && !is_space(b)) {
            pos += 1;
        }
        let name = &raw[name_start..pos];
        pos = skip_space(pos);
        if name.is_empty() || raw.get(pos) != Some(&b'=') {
            return Err(malformed());
        }
        check_name(name)?;
        pos = skip_space(pos + 1);
        let quote = match raw.get(pos) {
            Some(&q @ (b'"' | b'\'')) => q,
            _ => return Err(malformed()),
        };
        let value_len = memchr::memchr(quote, &raw[pos + 1..]).ok_or_else(malformed)?;
        pos += value_len + 2;
        names.insert(name)?;
    }
}

/// Checks that `name` is an XML name: a letter, `_` or `:` first, then
/// also digits, `-` and `.`; characters beyond ASCII are taken as letters.
/// A name with `"`, `=`, `<` or the like could not be written back.
fn check_name(name: &[u8]) -> Result<(), DecodeError> {
    let starts = |b: u8| b.is_ascii_alphabetic() || b == b'_' || b == b':' || b >= 0x80;
    let continues = |b: u8| starts(b) || b.is_ascii_digit() || b == b'-' || b == b'.';
    match name.split_first() {
        Some((&first, rest)) if starts(first) && rest.iter().all(|&b| continues(b)) => Ok(()),
        _ => Err(DecodeError::InvalidName {
            name: String::from_utf8_lossy(name).into_owned(),
        }),
    }
}

/// XML white space.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Iterator over an element's attributes; see [`Element::attributes`].
pub(crate) struct Attributes<'e> {
    inner: quick_xml::events::attributes::Attributes<'e>,
    names: NameSet<'e>,
    /// The element's flag, set once the whole list has been read.
    checked: &'e Cell<bool>,
}

impl<'e> Iterator for Attributes<'e> {
    type Item = Result<(&'e str, Cow<'e, str>), DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        let attr = match self.inner.next() {
            Some(Ok(attr)) => attr,
            Some(Err(e)) => return Some(Err(quick_xml::Error::from(e).into())),
            None => {
                self.checked.set(true);
                return None;
            }
        };
        let key = attr.key.into_inner();
        if let Err(error) = self.names.insert(key.as_bytes()) {
            return Some(Err(error));
        }
        Some(
            attr.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map(|value| (key, value))
                .map_err(DecodeError::from),
        )
    }
}

impl std::fmt::Debug for Attributes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Attributes").finish_non_exhaustive()
    }
}

/// A pull reader over the bytes of one complete element.
#[derive(Debug)]
pub(crate) struct XmlReader<'a> {
    reader: Reader<&'a [u8]>,
}

impl<'a> XmlReader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> XmlReader<'a> {
        XmlReader {
            reader: Reader::from_reader(bytes),
        }
    }

    /// The outermost element, skipping an XML declaration, comments,
    /// processing instructions and whitespace before it.
    pub(crate) fn root(&mut self) -> Result<Element<'a>, DecodeError> {
        // quick-xml passes raw control characters through, but XML forbids
        // them, and the writer (like the official server) escapes them as
        // references that no XML reader accepts back (`&#x0;`).
        let forbidden = |b: &u8| *b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r');
        if let Some(at) = self.reader.get_ref().iter().position(forbidden) {
            let code = self.reader.get_ref()[at];
            return Err(DecodeError::ForbiddenCharacter { code, at });
        }
        loop {
            match self.reader.read_event()? {
                Event::Start(start) => {
                    check_name(start.name().into_inner().as_bytes())?;
                    return Ok(Element::new(start, false));
                }
                Event::Empty(start) => {
                    check_name(start.name().into_inner().as_bytes())?;
                    return Ok(Element::new(start, true));
                }
                Event::Eof => return Err(DecodeError::NoElement),
                _ => {}
            }
        }
    }

    /// The next child element of `parent`, or `None` once `parent`'s end tag
    /// has been read. Text, comments and processing instructions between
    /// children are skipped. Every child returned must be consumed (by
    /// reading its children to the end, [`skip`](Self::skip) or
    /// [`text`](Self::text)) before the next call.
    pub(crate) fn next_child(
        &mut self,
        parent: &Element<'_>,
    ) -> Result<Option<Element<'a>>, DecodeError> {
        if parent.empty {
            parent.ensure_checked()?;
            return Ok(None);
        }
        loop {
            match self.reader.read_event()? {
                Event::Start(start) => return Ok(Some(Element::new(start, false))),
                Event::Empty(start) => return Ok(Some(Element::new(start, true))),
                Event::End(_) => {
                    parent.ensure_checked()?;
                    return Ok(None);
                }
                Event::Eof => return Err(DecodeError::UnexpectedEof),
                _ => {}
            }
        }
    }

    /// Skips `element` with everything inside it. The elements inside are
    /// checked like every other: an ignored child must still be
    /// well-formed.
    pub(crate) fn skip(&mut self, element: Element<'_>) -> Result<(), DecodeError> {
        element.ensure_checked()?;
        if !element.empty {
            self.skip_children()?;
        }
        Ok(())
    }

    /// Reads up to and including the end tag of the element whose start tag
    /// was read last. quick-xml checks that end tags match their start tags.
    fn skip_children(&mut self) -> Result<(), DecodeError> {
        let mut depth = 0usize;
        loop {
            match self.reader.read_event()? {
                Event::Start(start) => {
                    check_attributes(&start)?;
                    depth += 1;
                }
                Event::Empty(start) => check_attributes(&start)?,
                Event::End(_) if depth == 0 => return Ok(()),
                Event::End(_) => depth -= 1,
                Event::Eof => return Err(DecodeError::UnexpectedEof),
                _ => {}
            }
        }
    }

    /// The text content of `element`, unescaped; child elements inside it
    /// are skipped.
    pub(crate) fn text(&mut self, element: Element<'_>) -> Result<Cow<'a, str>, DecodeError> {
        element.ensure_checked()?;
        if element.empty {
            return Ok(Cow::Borrowed(""));
        }
        let mut text: Option<Cow<'a, str>> = None;
        let mut append = |piece: Cow<'a, str>| match &mut text {
            None => text = Some(piece),
            Some(existing) => existing.to_mut().push_str(&piece),
        };
        loop {
            match self.reader.read_event()? {
                Event::Text(t) => append(t.xml10_content()),
                Event::CData(c) => append(c.xml10_content()),
                Event::GeneralRef(r) => {
                    if let Some(ch) = r.resolve_char_ref()? {
                        append(Cow::Owned(ch.to_string()));
                    } else if let Some(s) = resolve_predefined_entity(&r) {
                        append(Cow::Borrowed(s));
                    } else {
                        return Err(DecodeError::invalid(
                            "entity reference",
                            format!("&{};", &*r),
                        ));
                    }
                }
                Event::Start(child) => {
                    check_attributes(&child)?;
                    self.skip_children()?;
                }
                Event::Empty(child) => check_attributes(&child)?,
                Event::End(_) => break,
                Event::Eof => return Err(DecodeError::UnexpectedEof),
                _ => {}
            }
        }
        Ok(text.unwrap_or(Cow::Borrowed("")))
    }
}

/// Parses a boolean as the official server does: `true` in any letter case
/// is true, anything else is false (`lobby.md` §3.3).
pub(crate) fn parse_bool(value: &str) -> bool {
    value.eq_ignore_ascii_case("true")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_text_and_attributes() {
        let xml = br#"<?xml version="1.0"?><a x="1&amp;&#xa;2" y='q
r'><!-- c --><b>t&lt;&#x41;<![CDATA[<z>]]></b><c/>junk<d><e/></d></a>"#;
        let mut r = XmlReader::new(xml);
        let a = r.root().expect("root");
        assert_eq!(a.name(), "a");
        assert_eq!(a.attribute("x").expect("ok").as_deref(), Some("1&\n2"));
        assert_eq!(a.attribute("y").expect("ok").as_deref(), Some("q r"));
        assert_eq!(a.attribute("z").expect("ok"), None);
        let b = r.next_child(&a).expect("ok").expect("b");
        assert_eq!(r.text(b).expect("text"), "t<A<z>");
        let c = r.next_child(&a).expect("ok").expect("c");
        assert_eq!(c.name(), "c");
        r.skip(c).expect("skip");
        let d = r.next_child(&a).expect("ok").expect("d");
        r.skip(d).expect("skip");
        assert!(r.next_child(&a).expect("ok").is_none());
    }

    #[test]
    fn truncated_input_is_an_error_not_a_panic() {
        let mut r = XmlReader::new(b"<a><b>");
        let a = r.root().expect("root");
        let b = r.next_child(&a).expect("ok").expect("b");
        assert!(r.text(b).is_err());
    }

    #[test]
    fn control_characters_are_malformed_but_tab_and_line_breaks_are_not() {
        for (xml, code, at) in [("<a b=\"x\0\"/>", 0, 7), ("<a>\u{1f}</a>", 0x1f, 3)] {
            match consume(xml) {
                Err(DecodeError::ForbiddenCharacter { code: c, at: a }) => {
                    assert_eq!((c, a), (code, at), "{xml:?}")
                }
                other => panic!("{xml:?}: {other:?}"),
            }
        }
        consume("<a b=\"\t\r\n\">\t\r\n</a>").expect("tab and line breaks are allowed");
    }

    #[test]
    fn element_and_attribute_names_are_xml_names() {
        for xml in [
            "< a=\"b\"/>",
            "<a>< b=\"c\"/></a>",
            "<a><b>< /></b></a>",
            "<a\"b\"/>",
            "<a b\"c\"=\"d\"/>",
            "<a><b 1=\"c\"/></a>",
        ] {
            assert!(
                matches!(consume(xml), Err(DecodeError::InvalidName { .. })),
                "{xml}: {:?}",
                consume(xml)
            );
        }
        consume("<sc.protocol.Close_1 a-b=\"\" _:c.d=\"\" ä=\"\"/>").expect("names");
    }

    /// Reads the root and skips it, as a parser that wants nothing of it.
    fn consume(xml: &str) -> Result<(), DecodeError> {
        let mut r = XmlReader::new(xml.as_bytes());
        let root = r.root()?;
        r.skip(root)
    }

    #[test]
    fn a_repeated_attribute_is_malformed_wherever_it_is() {
        // Looked up: found although the first occurrence comes first.
        let xml = br#"<a x="1" x="2"/>"#;
        let a = XmlReader::new(xml).root().expect("root");
        assert!(matches!(
            a.attribute("x"),
            Err(DecodeError::RepeatedAttribute { name }) if name == "x"
        ));
        assert!(a.attributes().any(|attr| attr.is_err()));
        // Never looked at.
        assert!(matches!(
            consume(r#"<a x="1" x="2"/>"#),
            Err(DecodeError::RepeatedAttribute { .. })
        ));
        // In a child that nobody looks at.
        assert!(matches!(
            consume("<a><b><c y='1' z='2' y='3'/></b></a>"),
            Err(DecodeError::RepeatedAttribute { .. })
        ));
        // In a parent whose children are read.
        let mut r = XmlReader::new(br#"<a q="1" q="2"><b/></a>"#);
        let a = r.root().expect("root");
        let b = r.next_child(&a).expect("ok").expect("b");
        r.skip(b).expect("b is fine");
        assert!(r.next_child(&a).is_err());
        // Inside text.
        let mut r = XmlReader::new(br#"<a>t<b q="1" q="1">u</b></a>"#);
        let a = r.root().expect("root");
        assert!(r.text(a).is_err());
        // Names differing in case or prefix are different names.
        consume(r#"<a x="1" X="2" p:x="3"/>"#).expect("distinct names");
    }

    #[test]
    fn attributes_are_capped() {
        let tag = |n: usize| {
            let attributes: String = (0..n).map(|i| format!(" a{i}=\"{i}\"")).collect();
            format!("<a{attributes}/>")
        };
        let fine = tag(MAX_ATTRIBUTES);
        consume(&fine).expect("at the cap");
        let a = XmlReader::new(fine.as_bytes()).root().expect("root");
        assert_eq!(a.attributes().filter(Result::is_ok).count(), MAX_ATTRIBUTES);
        let over = tag(MAX_ATTRIBUTES + 1);
        assert!(matches!(
            consume(&over),
            Err(DecodeError::TooManyAttributes {
                limit: MAX_ATTRIBUTES
            })
        ));
        let a = XmlReader::new(over.as_bytes()).root().expect("root");
        assert!(matches!(
            a.attribute("a0"),
            Err(DecodeError::TooManyAttributes { .. })
        ));
    }

    #[test]
    fn a_malformed_attribute_list_is_an_error_also_when_skipped() {
        for xml in ["<a x/>", "<a x=1/>", "<a x='1/>", "<a =''/>"] {
            assert!(consume(xml).is_err(), "{xml}");
        }
        consume("<a x = '1'\n\ty=\"2\" />").expect("white space is allowed");
    }

    #[test]
    fn booleans_are_lenient_like_java() {
        assert!(parse_bool("true") && parse_bool("TRUE") && parse_bool("tRuE"));
        assert!(!parse_bool("yes") && !parse_bool("") && !parse_bool(" true"));
    }
}
