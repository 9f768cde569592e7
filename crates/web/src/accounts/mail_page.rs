//! A member's address for their team's notices (issue 36), on their
//! account page: shown and set only where the server mails notices (an
//! SMTP relay is configured) and the store keeps notices; only a member
//! of a team has one (organisers get no team's notices). The address is
//! checked as the store checks it ([`check_mail_address`]): one plain
//! `name@domain`, nothing that could add a header to a mail.

use std::sync::Arc;

use axum::{
    Form,
    extract::{State, rejection::FormRejection},
};
use serde::Deserialize;
use spielleiter_contest::{AccountKind, check_mail_address};

use super::{
    Door, bounded,
    pages::{Answer, Refusal, answer, door, fields, refused_as, see_other},
};
use crate::{app::App, route_access::Who};

/// The member's address as the account page shows it: `None` where no
/// address can be given here, `Some("")` for none yet.
pub(super) async fn shown_address(door: &Door, who: &Who) -> Result<Option<String>, Refusal> {
    let (Some(notices), Some(account)) = (door.notices.as_ref(), who.account.as_ref()) else {
        return Ok(None);
    };
    if !door.sends_mail || !matches!(account.kind, AccountKind::Member { .. }) {
        return Ok(None);
    }
    Ok(Some(
        bounded(notices.mail_address(account.id))
            .await?
            .unwrap_or_default(),
    ))
}

/// The form's field: the address, or nothing to stop the mails.
#[derive(Deserialize)]
pub(crate) struct MailFields {
    address: String,
}

/// `POST /contest/account/mail`: sets (or, empty, removes) the signed-in
/// member's address for notices.
pub(crate) async fn set_address(
    State(app): State<Arc<App>>,
    who: Who,
    form: Result<Form<MailFields>, FormRejection>,
) -> Answer {
    let result = async {
        let door = door(&app)?;
        let fields = fields(form)?;
        let account = who.account.as_ref().ok_or_else(Refusal::not_yours)?;
        let notices = door
            .notices
            .as_ref()
            .filter(|_| door.sends_mail)
            .ok_or_else(|| {
                Refusal::bad_input("This contest's server sends no mail; nothing was changed.")
            })?;
        if !matches!(account.kind, AccountKind::Member { .. }) {
            return Err(Refusal::bad_input(
                "Only a team's members get its notices by mail; nothing was changed.",
            ));
        }
        let address = fields.address.trim();
        let address = if address.is_empty() {
            None
        } else {
            check_mail_address(address)
                .map_err(|why| Refusal::bad_input(format!("{why}; nothing was changed.")))?;
            Some(address)
        };
        bounded(notices.set_mail_address(account.id, address))
            .await
            .map_err(refused_as("Not saved"))?;
        tracing::info!(
            member = account.id.0,
            mailed = address.is_some(),
            "a member set their address for notices"
        );
        Ok(see_other("/contest/account?mail"))
    }
    .await;
    answer(&who, result)
}
