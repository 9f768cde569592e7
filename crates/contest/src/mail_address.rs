//! Which e-mail addresses a member may give for their notices
//! ([`check_mail_address`]): the plain `local@domain` form (RFC 5322's
//! dot-atom on both sides, the domain of letters, digits and hyphens), so
//! that an address is never more than one address — no display name, no
//! comment, no line break that could add a header to a mail.

/// The longest address, in bytes (RFC 5321's path limit less its angle
/// brackets).
pub const MAX_MAIL_ADDRESS: usize = 254;

/// Why an address is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MailAddressError {
    /// Nothing given.
    #[error("the e-mail address is empty")]
    Empty,
    /// Longer than [`MAX_MAIL_ADDRESS`].
    #[error("the e-mail address is longer than {MAX_MAIL_ADDRESS} characters")]
    TooLong,
    /// Not `local@domain`.
    #[error("the e-mail address is not of the form name@example.org: {0}")]
    Malformed(&'static str),
}

/// Whether `address` may be stored as a member's address for notices.
///
/// # Errors
///
/// Why not.
pub fn check_mail_address(address: &str) -> Result<(), MailAddressError> {
    if address.is_empty() {
        return Err(MailAddressError::Empty);
    }
    if address.len() > MAX_MAIL_ADDRESS {
        return Err(MailAddressError::TooLong);
    }
    let Some((local, domain)) = address.split_once('@') else {
        return Err(MailAddressError::Malformed("no @"));
    };
    if domain.contains('@') {
        return Err(MailAddressError::Malformed("more than one @"));
    }
    if local.is_empty() || local.len() > 64 {
        return Err(MailAddressError::Malformed(
            "the part before the @ has 1 to 64 characters",
        ));
    }
    let atom = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~-".contains(c);
    if !local
        .split('.')
        .all(|part| !part.is_empty() && part.chars().all(atom))
    {
        return Err(MailAddressError::Malformed(
            "the part before the @ has letters, digits, dots between them and !#$%&'*+/=?^_`{|}~-",
        ));
    }
    let labels: Vec<&str> = domain.split('.').collect();
    let label_ok = |label: &&str| {
        !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    if labels.len() < 2 || !labels.iter().all(label_ok) {
        return Err(MailAddressError::Malformed(
            "the domain is names of letters, digits and hyphens between dots (example.org)",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_addresses_pass() {
        for good in [
            "ada@example.org",
            "a.b+c@mail.school.example",
            "o'neil@x-y.de",
            "1@2.io",
        ] {
            assert_eq!(check_mail_address(good), Ok(()), "{good}");
        }
    }

    #[test]
    fn anything_more_than_one_address_is_refused() {
        for bad in [
            "",
            "ada",
            "ada@",
            "@example.org",
            "ada@localhost",
            "ada@@example.org",
            "a@b@example.org",
            "ada@example.org\r\nBcc: eve@example.org",
            "ada@example.org\nx",
            "Ada <ada@example.org>",
            "ada@example.org, eve@example.org",
            "ada (x)@example.org",
            "\"ada\"@example.org",
            ".ada@example.org",
            "ada.@example.org",
            "a..da@example.org",
            "ada@-example.org",
            "ada@example..org",
            "ada@exämple.org",
            "ada @example.org",
        ] {
            assert!(check_mail_address(bad).is_err(), "{bad:?}");
        }
        let long = format!("{}@example.org", "a".repeat(250));
        assert_eq!(check_mail_address(&long), Err(MailAddressError::TooLong));
        let local = format!("{}@example.org", "a".repeat(65));
        assert!(check_mail_address(&local).is_err());
    }
}
