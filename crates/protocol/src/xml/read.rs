//! [`XmlReader`]: a small pull reader over quick-xml for one complete
//! element. It hands out child elements one by one, so message parsers can
//! accept children in any order and skip the ones they do not know
//! (decisions.md §7), and it unescapes attribute values and text.

use std::borrow::Cow;

use quick_xml::{
    Reader,
    escape::resolve_predefined_entity,
    events::{BytesStart, Event},
    name::QName,
};

use crate::error::DecodeError;

/// One element whose start tag has been read.
#[derive(Debug)]
pub(crate) struct Element<'a> {
    start: BytesStart<'a>,
    /// `<x/>`: there are no children and no end tag to read.
    empty: bool,
}

impl<'a> Element<'a> {
    /// The element name as written.
    pub(crate) fn name(&self) -> &str {
        self.start.name().into_inner()
    }

    /// The attributes as `(name, unescaped value)` pairs, in document order.
    /// Values are normalised as XML requires: a literal line break becomes a
    /// space, `&#xa;` a line break. A repeated attribute name is an error.
    pub(crate) fn attributes(&self) -> Attributes<'_> {
        let mut inner = self.start.attributes();
        // quick-xml's own duplicate check allocates for every element; ours
        // keeps the few names of a protocol element on the stack.
        inner.with_checks(false);
        Attributes {
            inner,
            seen: [""; 8],
            seen_len: 0,
            more_seen: Vec::new(),
        }
    }

    /// The value of one attribute, if present.
    pub(crate) fn attribute(&self, name: &str) -> Result<Option<Cow<'_, str>>, DecodeError> {
        for attr in self.attributes() {
            let (key, value) = attr?;
            if key == name {
                return Ok(Some(value));
            }
        }
        Ok(None)
    }

    /// The value of the `class` attribute, or `""` if it is missing.
    pub(crate) fn class(&self) -> Result<Cow<'_, str>, DecodeError> {
        Ok(self.attribute("class")?.unwrap_or(Cow::Borrowed("")))
    }
}

/// Iterator over an element's attributes; see [`Element::attributes`].
pub(crate) struct Attributes<'e> {
    inner: quick_xml::events::attributes::Attributes<'e>,
    seen: [&'e str; 8],
    seen_len: usize,
    /// Names beyond the first eight (no protocol element has that many).
    more_seen: Vec<&'e str>,
}

impl<'e> Iterator for Attributes<'e> {
    type Item = Result<(&'e str, Cow<'e, str>), DecodeError>;

    fn next(&mut self) -> Option<Self::Item> {
        let attr = match self.inner.next()? {
            Ok(attr) => attr,
            Err(e) => return Some(Err(quick_xml::Error::from(e).into())),
        };
        let key = attr.key.into_inner();
        let seen = &self.seen[..self.seen_len];
        if seen.contains(&key) || self.more_seen.contains(&key) {
            return Some(Err(DecodeError::invalid(
                "attribute list",
                format!("{key} is repeated"),
            )));
        }
        if self.seen_len < self.seen.len() {
            self.seen[self.seen_len] = key;
            self.seen_len += 1;
        } else {
            self.more_seen.push(key);
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
        loop {
            match self.reader.read_event()? {
                Event::Start(start) => {
                    return Ok(Element {
                        start,
                        empty: false,
                    });
                }
                Event::Empty(start) => return Ok(Element { start, empty: true }),
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
            return Ok(None);
        }
        loop {
            match self.reader.read_event()? {
                Event::Start(start) => {
                    return Ok(Some(Element {
                        start,
                        empty: false,
                    }));
                }
                Event::Empty(start) => return Ok(Some(Element { start, empty: true })),
                Event::End(_) => return Ok(None),
                Event::Eof => return Err(DecodeError::UnexpectedEof),
                _ => {}
            }
        }
    }

    /// Skips `element` with everything inside it.
    pub(crate) fn skip(&mut self, element: Element<'_>) -> Result<(), DecodeError> {
        if !element.empty {
            self.reader.read_to_end(QName(element.name()))?;
        }
        Ok(())
    }

    /// The text content of `element`, unescaped; child elements inside it
    /// are skipped.
    pub(crate) fn text(&mut self, element: Element<'_>) -> Result<Cow<'a, str>, DecodeError> {
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
                    self.reader.read_to_end(child.name())?;
                }
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
    fn booleans_are_lenient_like_java() {
        assert!(parse_bool("true") && parse_bool("TRUE") && parse_bool("tRuE"));
        assert!(!parse_bool("yes") && !parse_bool("") && !parse_bool(" true"));
    }
}
