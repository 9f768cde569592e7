//! The web side's public address as an organiser gives it (`--web-url`,
//! `http.public_url`): checked once, for the invite links that the contest's
//! commands print and the door's pages show.

/// An `http://` or `https://` address with a host and nothing after its
/// path (no query, no fragment), without its trailing `/`.
pub(crate) fn parse_web_url(text: &str) -> Result<String, String> {
    let bad =
        |why: &str| format!("`{text}` is no web address: {why} (e.g. https://contest.example.org)");
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))
        .ok_or_else(|| bad("it does not start with http:// or https://"))?;
    if rest.is_empty() || rest.starts_with('/') {
        return Err(bad("it names no host"));
    }
    if text
        .chars()
        .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '?' | '#' | '"' | '<' | '>'))
    {
        return Err(bad(
            "it holds a space, a quote, `?`, `#` or a control character",
        ));
    }
    Ok(text.trim_end_matches('/').to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn web_addresses_are_http_with_a_host_and_lose_their_trailing_slash() {
        assert_eq!(
            parse_web_url("https://contest.example.org/").as_deref(),
            Ok("https://contest.example.org")
        );
        assert_eq!(
            parse_web_url("http://127.0.0.1:13080/sub").as_deref(),
            Ok("http://127.0.0.1:13080/sub")
        );
        for bad in [
            "contest.example.org",
            "ftp://x",
            "https://",
            "https:///path",
            "https://x/?a=1",
            "https://x y",
        ] {
            assert!(parse_web_url(bad).is_err(), "{bad}");
        }
    }
}
