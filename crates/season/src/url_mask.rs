//! [`masked_store_url`]: a store's `--store` text as it may be printed or
//! logged, with every password it can carry replaced by `***`.
//!
//! A PostgreSQL connection text carries a password in three forms: after
//! the user in a URL (`postgres://season:SECRET@db/season`), as a URL
//! parameter (`postgres://season@db/season?password=SECRET`), and as a
//! key/value pair (`host=db user=season password=SECRET`). Every message
//! and log line that names a store goes through this one function, so a
//! form it knows is masked everywhere at once.

/// What a password is shown as.
const MASK: &str = "***";

/// `text` with every password masked: the one after the user of a URL, a
/// URL parameter and a key/value pair whose key ends in `password` (any
/// case: `password`, `PASSWORD`, `sslpassword`), quoted or not. Masks
/// rather more than less: whatever the PostgreSQL driver would read as a
/// password is masked, also in a text it refuses. A text without any
/// (a SQLite file) comes back unchanged.
pub fn masked_store_url(text: &str) -> String {
    match text.split_once("://") {
        Some((scheme, rest)) if is_scheme(scheme) => {
            format!("{scheme}://{}", masked_url_rest(rest))
        }
        _ => masked_key_values(text),
    }
}

/// Whether `text` is a URL scheme (`postgres`, `postgresql`, `sqlite`).
fn is_scheme(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// A URL after its `scheme://`: the user's password, then the
/// parameters.
fn masked_url_rest(rest: &str) -> String {
    // The driver reads the user and password up to the first `@`; a
    // password with a raw `@`, `/` or `?` in it reaches further, to the
    // last `@` that hosts follow. Masking up to there covers both.
    let at = rest
        .rmatch_indices('@')
        .map(|(at, _)| at)
        .find(|&at| hosts_follow(&rest[at + 1..]))
        .or_else(|| rest.find('@'));
    let (credentials, after) = match at {
        Some(at) => {
            let user_info = &rest[..at];
            let credentials = match user_info.split_once(':') {
                Some((user, _)) => format!("{user}:{MASK}@"),
                None => format!("{user_info}@"),
            };
            (credentials, &rest[at + 1..])
        }
        None => (String::new(), rest),
    };
    let masked_after = match after.split_once('?') {
        Some((path, parameters)) => format!("{path}?{}", masked_parameters(parameters)),
        None => after.to_owned(),
    };
    credentials + &masked_after
}

/// Whether `text` begins with what follows a URL's `@`: hosts (names,
/// addresses, ports, `,` between them) up to the path, the parameters or
/// the end.
fn hosts_follow(text: &str) -> bool {
    text.chars()
        .take_while(|&c| !matches!(c, '/' | '?'))
        .all(|c| {
            c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':' | ',' | '[' | ']' | '%')
        })
}

/// URL parameters (`a=1&password=x&b=2`) with every password's value
/// masked. A raw `&` in a password cuts it for the driver; what follows up
/// to the next `KEY=` is the password's too, and goes.
fn masked_parameters(parameters: &str) -> String {
    let mut kept = Vec::new();
    let mut in_password = false;
    for part in parameters.split('&') {
        match part.split_once('=') {
            Some((key, _)) => {
                in_password = is_password_key(&percent_decoded(key));
                if in_password {
                    kept.push(format!("{key}={MASK}"));
                } else {
                    kept.push(part.to_owned());
                }
            }
            None if in_password => {}
            None => kept.push(part.to_owned()),
        }
    }
    kept.join("&")
}

/// Whether a parameter's key names a password (`password`, `sslpassword`,
/// any case).
fn is_password_key(key: &str) -> bool {
    key.trim().to_ascii_lowercase().ends_with("password")
}

/// `text` with its `%XX` escapes decoded (as the driver reads keys).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let escaped = (bytes[index] == b'%')
            .then(|| text.get(index + 1..index + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                decoded.push(byte);
                index += 3;
            }
            None => {
                decoded.push(bytes[index]);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

/// A key/value text (`host=db password = 'a b' user=x`) with the value of
/// every key ending in `password` (any case) masked: a quoted value up to
/// its closing quote, another up to the next white space, `\` escaping
/// the character after it in both.
fn masked_key_values(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut masked = String::with_capacity(text.len());
    let mut copied = 0;
    let mut search = 0;
    while let Some(found) = lower[search..].find("password") {
        let key_end = search + found + "password".len();
        search = key_end;
        let after_key = &text[key_end..];
        let Some(value_start) = after_key
            .trim_start()
            .strip_prefix('=')
            .map(|value| text.len() - value.trim_start().len())
        else {
            continue;
        };
        let value_end = value_start + value_length(&text[value_start..]);
        masked.push_str(&text[copied..value_start]);
        masked.push_str(MASK);
        copied = value_end;
        search = value_end;
    }
    masked.push_str(&text[copied..]);
    masked
}

/// The length in bytes of the key/value value at the start of `text`.
fn value_length(text: &str) -> usize {
    let quoted = text.starts_with('\'');
    let mut chars = text.char_indices().skip(usize::from(quoted));
    while let Some((index, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '\'' if quoted => return index + 1,
            c if c.is_whitespace() && !quoted => return index,
            _ => {}
        }
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_after_the_user_is_masked() {
        assert_eq!(
            masked_store_url("postgres://season:secret@db:5432/league"),
            "postgres://season:***@db:5432/league"
        );
        assert_eq!(
            masked_store_url("postgresql://season:s%40cret@db/league?sslmode=require"),
            "postgresql://season:***@db/league?sslmode=require"
        );
        // A raw `@`, `/` or `?` in the password does not leave a piece of
        // it behind.
        assert_eq!(
            masked_store_url("postgres://season:p@ss/w?rd@db/league"),
            "postgres://season:***@db/league"
        );
        assert_eq!(
            masked_store_url("postgres://season@db/league"),
            "postgres://season@db/league"
        );
        assert_eq!(
            masked_store_url("postgres://db/league"),
            "postgres://db/league"
        );
    }

    #[test]
    fn a_password_parameter_is_masked_in_any_case() {
        assert_eq!(
            masked_store_url("postgres://season@db/league?password=secret"),
            "postgres://season@db/league?password=***"
        );
        assert_eq!(
            masked_store_url(
                "postgres://season@db/league?sslmode=require&PassWord=secret&application_name=x"
            ),
            "postgres://season@db/league?sslmode=require&PassWord=***&application_name=x"
        );
        // An escaped key is the driver's `password` too; a raw `&` in the
        // value does not leave its tail.
        assert_eq!(
            masked_store_url("postgres://db/league?pass%77ord=se&cret&sslpassword=key&x=1"),
            "postgres://db/league?pass%77ord=***&sslpassword=***&x=1"
        );
        // Both forms at once.
        assert_eq!(
            masked_store_url("postgres://season:one@db/league?password=two"),
            "postgres://season:***@db/league?password=***"
        );
    }

    #[test]
    fn a_key_value_password_is_masked_quoted_or_not() {
        assert_eq!(
            masked_store_url("host=db user=season password=secret dbname=league"),
            "host=db user=season password=*** dbname=league"
        );
        assert_eq!(
            masked_store_url("host=db PASSWORD = 'two words \\' quoted' dbname=league"),
            "host=db PASSWORD = *** dbname=league"
        );
        assert_eq!(
            masked_store_url("password=a\\ b sslpassword=c"),
            "password=*** sslpassword=***"
        );
        assert_eq!(
            masked_store_url("host=db password='never closed"),
            "host=db password=***"
        );
        assert_eq!(masked_store_url("password="), "password=***");
    }

    #[test]
    fn texts_without_a_password_are_unchanged() {
        for text in [
            "league.sqlite",
            "sqlite:/var/lib/season.sqlite",
            "sqlite:///srv/passwords/season.sqlite",
            "host=db user=season dbname=league",
            "",
        ] {
            assert_eq!(masked_store_url(text), text);
        }
    }
}
