//! Mail through a plain SMTP relay: the message's text (RFC 5322 headers,
//! RFC 2047 words for names and subjects outside ASCII, a quoted-printable
//! body where it is not plain ASCII) and the client's side of one delivery
//! (RFC 5321 without TLS or login: greeting, `EHLO`, `MAIL`, `RCPT`, `DATA`,
//! `QUIT`), every reply read within a bound of bytes and lines.
//!
//! Addresses are only ever ones [`check_mail_address`] passed, and every
//! other text that goes into a header has its line breaks and other control
//! characters replaced, so nothing stored (a team's name, a notice) can add a
//! header or end the message early.
//!
//! Written here rather than taken from a mail crate: this is all a
//! notice's mail needs, and the well-kept crate for it brings an
//! internationalised-domain-names library with Unicode tables that ASCII
//! addresses never use (about 0.25 MB of the container's binary).

use std::fmt;

use spielleiter_contest::check_mail_address;
use tokio::{
    io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader},
    net::TcpStream,
};

/// The longest reply line read (RFC 5321 allows 512 bytes).
const MAX_REPLY_LINE: usize = 1_000;
/// The most lines one reply may have (an `EHLO` answer lists extensions).
const MAX_REPLY_LINES: usize = 100;
/// The longest payload of one RFC 2047 word: a word is at most 75
/// characters, 12 of them `=?utf-8?q?` and `?=`.
const MAX_WORD_PAYLOAD: usize = 63;
/// The longest line of a quoted-printable body, its soft break included.
const MAX_QP_LINE: usize = 76;
/// The longest line of a body sent as it is (RFC 5322's 998 and the line
/// break).
const MAX_PLAIN_LINE: usize = 998;

/// A sender or recipient: an address, with a display name for the sender.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Mailbox {
    name: Option<String>,
    address: String,
}

impl Mailbox {
    /// `address` alone; it must pass [`check_mail_address`].
    pub(crate) fn address_only(address: &str) -> Result<Mailbox, String> {
        check_mail_address(address).map_err(|e| e.to_string())?;
        Ok(Mailbox {
            name: None,
            address: address.to_owned(),
        })
    }

    /// `name@example.org` or `Display Name <name@example.org>` (the name
    /// may be in double quotes; it holds no control characters, quotes,
    /// backslashes or angle brackets).
    pub(crate) fn parse(text: &str) -> Result<Mailbox, String> {
        let text = text.trim();
        let Some(open) = text.find('<') else {
            return Mailbox::address_only(text);
        };
        let Some(address) = text[open + 1..].strip_suffix('>') else {
            return Err("the address in <…> must end the text".to_owned());
        };
        let name = text[..open].trim();
        let name = name
            .strip_prefix('"')
            .and_then(|n| n.strip_suffix('"'))
            .unwrap_or(name);
        if name
            .chars()
            .any(|c| c.is_control() || matches!(c, '"' | '\\' | '<' | '>'))
        {
            return Err(
                "the name before <…> may not hold control characters, quotes, backslashes or angle brackets"
                    .to_owned(),
            );
        }
        let mut mailbox = Mailbox::address_only(address)?;
        if !name.is_empty() {
            mailbox.name = Some(name.to_owned());
        }
        Ok(mailbox)
    }

    /// The address, as `MAIL FROM` and `RCPT TO` give it.
    pub(crate) fn address(&self) -> &str {
        &self.address
    }

    /// The domain after the `@`.
    pub(crate) fn domain(&self) -> &str {
        self.address
            .split_once('@')
            .map_or(self.address.as_str(), |(_, domain)| domain)
    }

    /// The mailbox as a `From` or `To` header has it.
    fn header(&self) -> String {
        let atext = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c);
        match &self.name {
            // Words of RFC 5322's atoms stand as they are; other ASCII is
            // quoted (the name holds no quote or backslash).
            Some(name)
                if name
                    .split(' ')
                    .all(|word| !word.is_empty() && word.chars().all(atext)) =>
            {
                format!("{name} <{}>", self.address)
            }
            Some(name) if name.is_ascii() => format!("\"{name}\" <{}>", self.address),
            Some(name) => format!("{} <{}>", encoded_words(name), self.address),
            None => self.address.clone(),
        }
    }
}

impl fmt::Display for Mailbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(f, "{name} <{}>", self.address),
            None => f.write_str(&self.address),
        }
    }
}

/// One plain-text mail.
#[derive(Debug)]
pub(crate) struct Mail<'a> {
    pub(crate) from: &'a Mailbox,
    pub(crate) to: &'a Mailbox,
    pub(crate) subject: &'a str,
    pub(crate) body: &'a str,
    /// The `Date` header's value (RFC 5322's form).
    pub(crate) date: &'a str,
    /// Unique for this mail, without angle brackets; `@` and the
    /// sender's domain are added.
    pub(crate) id: &'a str,
}

impl Mail<'_> {
    /// The message as RFC 5322 text with CRLF line ends (not yet
    /// dot-stuffed for `DATA`).
    pub(crate) fn text(&self) -> String {
        let (encoding, body) = body_of(self.body);
        format!(
            "From: {}\r\nTo: {}\r\nSubject: {}\r\nDate: {}\r\nMessage-ID: <{}@{}>\r\n\
             MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
             Content-Transfer-Encoding: {encoding}\r\n\r\n{body}",
            self.from.header(),
            self.to.header(),
            header_text(self.subject),
            header_text(self.date),
            header_text(self.id).replace(['<', '>', '@', ' '], ""),
            self.from.domain(),
        )
    }
}

/// `text` as one header value: control characters (line breaks among
/// them) become spaces, and text outside ASCII becomes RFC 2047 words.
fn header_text(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if flat.is_ascii() {
        flat
    } else {
        encoded_words(&flat)
    }
}

/// `text` as RFC 2047 words in UTF-8's Q encoding, each within its
/// length and whole characters, folded onto lines of their own.
fn encoded_words(text: &str) -> String {
    let mut words = Vec::new();
    let mut payload = String::new();
    for c in text.chars() {
        let mut bytes = [0; 4];
        let mut encoded = String::new();
        for &byte in c.encode_utf8(&mut bytes).as_bytes() {
            match byte {
                b' ' => encoded.push('_'),
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'!' | b'*' | b'+' | b'-' | b'/' => {
                    encoded.push(char::from(byte));
                }
                _ => encoded.push_str(&format!("={byte:02X}")),
            }
        }
        if payload.len() + encoded.len() > MAX_WORD_PAYLOAD {
            words.push(std::mem::take(&mut payload));
        }
        payload.push_str(&encoded);
    }
    words.push(payload);
    words
        .iter()
        .map(|word| format!("=?utf-8?q?{word}?="))
        .collect::<Vec<_>>()
        .join("\r\n ")
}

/// The body with CRLF line ends, and its transfer encoding: as it is
/// where it is printable ASCII in short lines, else quoted-printable.
fn body_of(text: &str) -> (&'static str, String) {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect();
    let plain = lines.iter().all(|line| {
        line.len() <= MAX_PLAIN_LINE
            && line
                .bytes()
                .all(|b| b == b'\t' || (b' '..=b'~').contains(&b))
    });
    if plain {
        return ("7bit", lines.join("\r\n") + "\r\n");
    }
    let mut body = String::new();
    for line in lines {
        quoted_printable_line(line, &mut body);
    }
    ("quoted-printable", body)
}

/// One line of the body in quoted-printable, with soft breaks that keep
/// each line within [`MAX_QP_LINE`].
fn quoted_printable_line(line: &str, out: &mut String) {
    let bytes = line.as_bytes();
    let mut width = 0;
    for (at, &byte) in bytes.iter().enumerate() {
        let last = at + 1 == bytes.len();
        let literal = match byte {
            b'=' => false,
            // Space and tab end no line: there they are encoded.
            b' ' | b'\t' => !last,
            b'!'..=b'~' => true,
            _ => false,
        };
        let piece = if literal {
            char::from(byte).to_string()
        } else {
            format!("={byte:02X}")
        };
        // Room for the piece and, unless the line ends here, a soft break.
        let room = if last { MAX_QP_LINE } else { MAX_QP_LINE - 1 };
        if width + piece.len() > room {
            out.push_str("=\r\n");
            width = 0;
        }
        out.push_str(&piece);
        width += piece.len();
    }
    out.push_str("\r\n");
}

/// The message as `DATA` sends it: every line that begins with a dot gets
/// one more (RFC 5321, 4.5.2), and the lone dot that ends it.
fn dot_stuffed(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + 8);
    for line in text.split_inclusive("\r\n") {
        if line.starts_with('.') {
            out.push(b'.');
        }
        out.extend_from_slice(line.as_bytes());
    }
    if !out.ends_with(b"\r\n") {
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b".\r\n");
    out
}

/// Why a mail did not reach the relay.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SmtpError {
    /// No connection.
    #[error("cannot connect: {0}")]
    Connect(std::io::Error),
    /// The connection failed on the way.
    #[error("the connection failed: {0}")]
    Io(#[from] std::io::Error),
    /// The relay ended the connection.
    #[error("the relay closed the connection")]
    Closed,
    /// A reply no SMTP server gives.
    #[error("the relay's reply is not SMTP: {0}")]
    Garbled(&'static str),
    /// The relay said no.
    #[error("the relay refused {step}: {reply}")]
    Refused {
        /// What it refused.
        step: &'static str,
        /// Its reply.
        reply: String,
    },
}

/// A reply: its code and its first line's text.
#[derive(Debug)]
struct Reply {
    code: u16,
    text: String,
}

impl Reply {
    /// `Ok` for a positive completion (2xx), or 3xx where asked.
    fn expect(self, step: &'static str, class: u16) -> Result<(), SmtpError> {
        if self.code / 100 == class {
            Ok(())
        } else {
            Err(SmtpError::Refused {
                step,
                reply: format!("{} {}", self.code, self.text),
            })
        }
    }
}

/// Reads one reply of one or more lines (`250-…` lines before `250 …`).
async fn read_reply<R: AsyncRead + Unpin>(reader: &mut BufReader<R>) -> Result<Reply, SmtpError> {
    let mut first: Option<Reply> = None;
    for _ in 0..MAX_REPLY_LINES {
        let mut line = Vec::new();
        let limit = u64::try_from(MAX_REPLY_LINE).unwrap_or(u64::MAX);
        (&mut *reader)
            .take(limit)
            .read_until(b'\n', &mut line)
            .await?;
        if line.is_empty() {
            return Err(SmtpError::Closed);
        }
        if !line.ends_with(b"\n") {
            return Err(SmtpError::Garbled("a reply line is too long"));
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        let code = line
            .get(..3)
            .filter(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|digits| digits.parse::<u16>().ok())
            .ok_or(SmtpError::Garbled("a reply does not begin with its code"))?;
        let more = match line.as_bytes().get(3) {
            Some(b'-') => true,
            Some(b' ') | None => false,
            Some(_) => {
                return Err(SmtpError::Garbled(
                    "a reply's code is not followed by a space or -",
                ));
            }
        };
        let reply = first.get_or_insert_with(|| Reply {
            code,
            text: line
                .get(4..)
                .unwrap_or("")
                .chars()
                .filter(|c| !c.is_control())
                .take(200)
                .collect(),
        });
        if reply.code != code {
            return Err(SmtpError::Garbled("a reply's lines have different codes"));
        }
        if !more {
            return Ok(Reply {
                code,
                text: std::mem::take(&mut reply.text),
            });
        }
    }
    Err(SmtpError::Garbled("a reply has too many lines"))
}

/// Sends `command` and reads its reply.
async fn command<S: AsyncRead + AsyncWrite + Unpin>(
    stream: &mut BufReader<S>,
    command: &str,
) -> Result<Reply, SmtpError> {
    stream.get_mut().write_all(command.as_bytes()).await?;
    stream.get_mut().write_all(b"\r\n").await?;
    stream.get_mut().flush().await?;
    read_reply(stream).await
}

/// Delivers `mail` to the relay at `host:port`, greeting it with the
/// sender's domain. The caller bounds the whole delivery in time.
pub(crate) async fn deliver(host: &str, port: u16, mail: &Mail<'_>) -> Result<(), SmtpError> {
    let stream = TcpStream::connect((host, port))
        .await
        .map_err(SmtpError::Connect)?;
    deliver_on(stream, mail).await
}

/// [`deliver`] on a connected stream.
async fn deliver_on<S: AsyncRead + AsyncWrite + Unpin>(
    stream: S,
    mail: &Mail<'_>,
) -> Result<(), SmtpError> {
    let mut stream = BufReader::new(stream);
    read_reply(&mut stream).await?.expect("the connection", 2)?;
    let hello = mail.from.domain();
    let greeted = command(&mut stream, &format!("EHLO {hello}")).await?;
    if greeted.code / 100 == 5 {
        // A relay that knows no extensions answers HELO only.
        command(&mut stream, &format!("HELO {hello}"))
            .await?
            .expect("HELO", 2)?;
    } else {
        greeted.expect("EHLO", 2)?;
    }
    command(&mut stream, &format!("MAIL FROM:<{}>", mail.from.address()))
        .await?
        .expect("the sender", 2)?;
    command(&mut stream, &format!("RCPT TO:<{}>", mail.to.address()))
        .await?
        .expect("the recipient", 2)?;
    command(&mut stream, "DATA").await?.expect("DATA", 3)?;
    stream
        .get_mut()
        .write_all(&dot_stuffed(&mail.text()))
        .await?;
    stream.get_mut().flush().await?;
    read_reply(&mut stream).await?.expect("the message", 2)?;
    // The mail is taken; how the goodbye goes changes nothing.
    let _ = command(&mut stream, "QUIT").await;
    let _ = stream.get_mut().shutdown().await;
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test.
mod tests {
    use super::*;
    use tokio::io::{AsyncWriteExt, DuplexStream, duplex};

    fn mailboxes() -> (Mailbox, Mailbox) {
        (
            Mailbox::parse("Cup <cup@contest.example>").unwrap(),
            Mailbox::parse("fritz@school.example").unwrap(),
        )
    }

    fn mail<'a>(from: &'a Mailbox, to: &'a Mailbox, subject: &'a str, body: &'a str) -> Mail<'a> {
        Mail {
            from,
            to,
            subject,
            body,
            date: "Thu, 3 Dec 2026 11:00:00 +0000",
            id: "1.2.3",
        }
    }

    /// Undoes [`encoded_words`] (the test's own reading of RFC 2047's Q).
    fn decoded_words(header: &str) -> String {
        let mut bytes = Vec::new();
        for word in header.split("\r\n ") {
            let payload = word
                .strip_prefix("=?utf-8?q?")
                .and_then(|w| w.strip_suffix("?="))
                .unwrap();
            assert!(word.len() <= 75, "{word}");
            let mut chars = payload.bytes();
            while let Some(b) = chars.next() {
                match b {
                    b'_' => bytes.push(b' '),
                    b'=' => {
                        let hex = [chars.next().unwrap(), chars.next().unwrap()];
                        bytes.push(
                            u8::from_str_radix(std::str::from_utf8(&hex).unwrap(), 16).unwrap(),
                        );
                    }
                    other => bytes.push(other),
                }
            }
        }
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn mailboxes_are_addresses_with_an_optional_name() {
        let (from, to) = mailboxes();
        assert_eq!(from.address(), "cup@contest.example");
        assert_eq!(from.domain(), "contest.example");
        assert_eq!(from.to_string(), "Cup <cup@contest.example>");
        assert_eq!(to.to_string(), "fritz@school.example");
        assert_eq!(
            Mailbox::parse("\"Cup, Inc.\" <cup@contest.example>")
                .unwrap()
                .header(),
            "\"Cup, Inc.\" <cup@contest.example>"
        );
        assert_eq!(
            Mailbox::parse("<cup@contest.example>").unwrap(),
            Mailbox::parse("cup@contest.example").unwrap()
        );
        for bad in [
            "",
            "cup",
            "Cup <cup>",
            "Cup <cup@contest.example",
            "Cup <cup@contest.example> more",
            "A\r\nBcc: x@y.org <cup@contest.example>",
            "A \"B\" <cup@contest.example>",
            "cup@contest.example\r\nBcc: x@y.org",
        ] {
            assert!(Mailbox::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_mail_has_its_headers_and_a_plain_body_as_it_is() {
        let (from, to) = mailboxes();
        let text = mail(
            &from,
            &to,
            "Cup: a notice for Owls",
            "Hello.\nSecond line\n",
        )
        .text();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert_eq!(
            head.split("\r\n").collect::<Vec<_>>(),
            [
                "From: Cup <cup@contest.example>",
                "To: fritz@school.example",
                "Subject: Cup: a notice for Owls",
                "Date: Thu, 3 Dec 2026 11:00:00 +0000",
                "Message-ID: <1.2.3@contest.example>",
                "MIME-Version: 1.0",
                "Content-Type: text/plain; charset=utf-8",
                "Content-Transfer-Encoding: 7bit",
            ]
        );
        assert_eq!(body, "Hello.\r\nSecond line\r\n\r\n");
    }

    #[test]
    fn no_stored_text_adds_a_header() {
        let (from, to) = mailboxes();
        let subject = "Cup: a notice for Owls\r\nBcc: everyone@example.org\n\rX-Evil: 1";
        let text = mail(&from, &to, subject, "body").text();
        let (head, _) = text.split_once("\r\n\r\n").unwrap();
        let names: Vec<&str> = head
            .split("\r\n")
            .map(|line| line.split_once(':').unwrap().0)
            .collect();
        assert_eq!(
            names,
            [
                "From",
                "To",
                "Subject",
                "Date",
                "Message-ID",
                "MIME-Version",
                "Content-Type",
                "Content-Transfer-Encoding"
            ]
        );
        assert!(
            head.contains("Subject: Cup: a notice for Owls  Bcc: everyone@example.org  X-Evil: 1")
        );
    }

    #[test]
    fn names_and_subjects_outside_ascii_are_encoded_words() {
        let from = Mailbox::parse("Pokal Köln <cup@contest.example>").unwrap();
        let to = Mailbox::parse("fritz@school.example").unwrap();
        let subject = "Größter Wettbewerb: eine Mitteilung für die Füchse ".repeat(4);
        let text = mail(&from, &to, &subject, "x").text();
        let (head, _) = text.split_once("\r\n\r\n").unwrap();
        let from_line = head.lines().next().unwrap();
        let name = from_line
            .strip_prefix("From: ")
            .and_then(|l| l.strip_suffix(" <cup@contest.example>"))
            .unwrap();
        assert_eq!(decoded_words(name), "Pokal Köln");
        let subject_header = head
            .split_once("Subject: ")
            .unwrap()
            .1
            .split_once("\r\nDate: ")
            .unwrap()
            .0;
        assert!(
            subject_header.split("\r\n ").count() > 3,
            "{subject_header}"
        );
        assert_eq!(decoded_words(subject_header), subject);
        assert!(head.is_ascii());
    }

    #[test]
    fn bodies_outside_ascii_are_quoted_printable() {
        let (from, to) = mailboxes();
        let body = format!("Grüße an alle = Teams \n{}\n\u{7}bell", "ä".repeat(60));
        let text = mail(&from, &to, "s", &body).text();
        let (head, encoded) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.ends_with("Content-Transfer-Encoding: quoted-printable"));
        assert!(encoded.is_ascii());
        assert!(
            encoded.split("\r\n").all(|line| line.len() <= MAX_QP_LINE),
            "{encoded}"
        );
        // The test's own decoding: soft breaks go, =XX become bytes.
        let joined = encoded.replace("=\r\n", "");
        let mut bytes = Vec::new();
        let mut rest = joined.as_bytes();
        while let Some((&b, tail)) = rest.split_first() {
            if b == b'=' {
                let hex = std::str::from_utf8(&tail[..2]).unwrap();
                bytes.push(u8::from_str_radix(hex, 16).unwrap());
                rest = &tail[2..];
            } else {
                bytes.push(b);
                rest = tail;
            }
        }
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            body.replace('\n', "\r\n") + "\r\n"
        );
    }

    #[test]
    fn data_doubles_leading_dots_and_ends_with_a_lone_dot() {
        assert_eq!(
            dot_stuffed(".one\r\ntwo\r\n..three\r\n"),
            b"..one\r\ntwo\r\n...three\r\n.\r\n"
        );
        assert_eq!(dot_stuffed("no end"), b"no end\r\n.\r\n");
    }

    /// A relay that answers each of `replies` in turn (the first is its
    /// greeting; a message after `DATA` is read to its lone dot), reads one
    /// more command, hangs up, and returns what it was sent.
    async fn relay(side: DuplexStream, replies: Vec<&'static str>) -> String {
        let (read, mut write) = tokio::io::split(side);
        let mut lines = BufReader::new(read);
        let mut seen = String::new();
        let mut replies = replies.into_iter();
        if let Some(greeting) = replies.next() {
            write.write_all(greeting.as_bytes()).await.unwrap();
        }
        let mut in_data = false;
        for reply in replies {
            loop {
                let mut line = String::new();
                if lines.read_line(&mut line).await.unwrap_or(0) == 0 {
                    return seen;
                }
                seen.push_str(&line);
                if in_data {
                    if line == ".\r\n" {
                        in_data = false;
                        break;
                    }
                    continue;
                }
                in_data = line == "DATA\r\n";
                break;
            }
            if write.write_all(reply.as_bytes()).await.is_err() {
                return seen;
            }
        }
        let mut line = String::new();
        let _ = lines.read_line(&mut line).await;
        seen.push_str(&line);
        seen
    }

    #[tokio::test]
    async fn a_mail_is_delivered_in_one_dialogue() {
        let (from, to) = mailboxes();
        let body = ".a line with a dot\nend";
        let message = mail(&from, &to, "s", body);
        let (client, server) = duplex(1 << 16);
        let relay = tokio::spawn(relay(
            server,
            vec![
                "220 relay.test ESMTP\r\n",
                "250-relay.test\r\n250-SIZE 1000\r\n250 HELP\r\n",
                "250 sender ok\r\n",
                "251 will forward\r\n",
                "354 go on\r\n",
                "250 queued\r\n",
                "221 bye\r\n",
            ],
        ));
        deliver_on(client, &message).await.unwrap();
        let seen = relay.await.unwrap();
        let expected = format!(
            "EHLO contest.example\r\nMAIL FROM:<cup@contest.example>\r\n\
             RCPT TO:<fritz@school.example>\r\nDATA\r\n{}QUIT\r\n",
            String::from_utf8(dot_stuffed(&message.text())).unwrap()
        );
        assert_eq!(seen, expected);
        assert!(seen.contains("\r\n..a line with a dot\r\n"));
    }

    #[tokio::test]
    async fn a_relay_without_extensions_is_greeted_with_helo() {
        let (from, to) = mailboxes();
        let message = mail(&from, &to, "s", "b");
        let (client, server) = duplex(1 << 16);
        let relay = tokio::spawn(relay(
            server,
            vec![
                "220 old relay\r\n",
                "502 what\r\n",
                "250 hello\r\n",
                "250 ok\r\n",
                "250 ok\r\n",
                "354 go\r\n",
                "250 ok\r\n",
                "221 bye\r\n",
            ],
        ));
        deliver_on(client, &message).await.unwrap();
        assert!(
            relay
                .await
                .unwrap()
                .starts_with("EHLO contest.example\r\nHELO contest.example\r\n")
        );
    }

    #[tokio::test]
    async fn refusals_and_broken_replies_are_errors_that_say_what() {
        let (from, to) = mailboxes();
        let message = mail(&from, &to, "s", "b");
        for (replies, expected) in [
            (
                vec!["554 go away\r\n"],
                "the relay refused the connection: 554 go away",
            ),
            (
                vec![
                    "220 hi\r\n",
                    "250 hi\r\n",
                    "250 ok\r\n",
                    "550 no such user\r\n",
                ],
                "the relay refused the recipient: 550 no such user",
            ),
            (
                vec![
                    "220 hi\r\n",
                    "250 hi\r\n",
                    "250 ok\r\n",
                    "250 ok\r\n",
                    "354 go\r\n",
                    "452 full\r\n",
                ],
                "the relay refused the message: 452 full",
            ),
            (
                vec!["220 hi\r\n", "25O hi\r\n"],
                "not SMTP: a reply does not begin with its code",
            ),
            (
                vec!["220-hi\r\n221 bye\r\n"],
                "not SMTP: a reply's lines have different codes",
            ),
            (vec!["220 hi\r\n"], "closed the connection"),
        ] {
            let (client, server) = duplex(1 << 16);
            let relay = tokio::spawn(relay(server, replies));
            let error = deliver_on(client, &message).await.unwrap_err().to_string();
            assert!(error.contains(expected), "{error} (expected {expected})");
            relay.await.unwrap();
        }
    }

    #[tokio::test]
    async fn replies_are_read_within_their_bounds() {
        let long_line = format!("220 {}\r\n", "x".repeat(MAX_REPLY_LINE));
        let many_lines = "220-more\r\n".repeat(MAX_REPLY_LINES + 1);
        for (reply, expected) in [
            (long_line, "a reply line is too long"),
            (many_lines, "a reply has too many lines"),
        ] {
            let (client, mut server) = duplex(1 << 20);
            server.write_all(reply.as_bytes()).await.unwrap();
            let mut reader = BufReader::new(client);
            let error = read_reply(&mut reader).await.unwrap_err().to_string();
            assert!(error.contains(expected), "{error}");
        }
    }
}
