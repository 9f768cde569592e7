//! The contest's notices by mail (issue 36): where `contest.mail_smtp`
//! names an SMTP relay, `serve` claims the notices' mails from the store
//! every few seconds ([`TeamNotices::claim_mail`]: each notice to each
//! member with an address, once however many servers claim), sends each
//! through the relay (plain SMTP, no TLS: a relay of this host or network
//! that sends on) and records how it went, so that a failed one is tried
//! again and given up after its attempts. Every call is bounded in time;
//! every failure is logged.

use std::{sync::Arc, time::Duration};

use spielleiter_contest::{MailJob, TeamNotices};
use spielleiter_server::config::Config;
use tokio_util::sync::CancellationToken;

use super::smtp::{self, Mail, Mailbox};

/// How often the store is asked for mails to send.
const CLAIM_EVERY: Duration = Duration::from_secs(5);
/// The most mails claimed at once.
const BATCH: usize = 10;
/// How long one mail may take to reach the relay and be accepted.
const SEND_LIMIT: Duration = Duration::from_secs(30);
/// How long a store call may take.
const STORE_LIMIT: Duration = Duration::from_secs(10);
/// How long after a failure a mail is tried again.
const RETRY_AFTER_MS: i64 = 60_000;

/// The notices' sender.
pub(crate) struct Mailer {
    notices: Arc<dyn TeamNotices>,
    host: String,
    port: u16,
    from: Mailbox,
    relay: String,
    contest: String,
    /// The pages' public address, for the link to the notices page.
    site: Option<String>,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer")
            .field("relay", &self.relay)
            .field("from", &self.from.to_string())
            .finish_non_exhaustive()
    }
}

/// A relay's `HOST` or `HOST:PORT` (an IPv6 address in brackets).
fn relay_of(text: &str) -> anyhow::Result<(String, u16)> {
    let bad = || {
        anyhow::anyhow!(
            "contest.mail_smtp (--mail-smtp) {text:?} is not HOST or HOST:PORT (e.g. 127.0.0.1:25)"
        )
    };
    let (host, port) = match text.rsplit_once(':') {
        Some((host, port)) if !host.ends_with(':') && !port.contains(']') => {
            (host, port.parse::<u16>().map_err(|_| bad())?)
        }
        _ => (text, 25),
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() || port == 0 || host.chars().any(|c| c.is_whitespace() || c == '/') {
        return Err(bad());
    }
    Ok((host.to_owned(), port))
}

impl Mailer {
    /// The mailer of `config`, if it names a relay.
    ///
    /// # Errors
    ///
    /// A relay that is no `HOST[:PORT]`, or no (or no valid) sender.
    pub(crate) fn of_config(
        config: &Config,
        notices: Arc<dyn TeamNotices>,
        contest: &str,
        site: Option<String>,
    ) -> anyhow::Result<Option<Mailer>> {
        let Some(relay) = &config.contest_mail_smtp else {
            return Ok(None);
        };
        let (host, port) = relay_of(relay)?;
        let from_text = config.contest_mail_from.as_deref().ok_or_else(|| {
            anyhow::anyhow!(
                "contest.mail_smtp is set but contest.mail_from (--mail-from) is not: whom are the mails from?"
            )
        })?;
        let from = Mailbox::parse(from_text).map_err(|why| {
            anyhow::anyhow!("contest.mail_from (--mail-from) {from_text:?} is no address: {why}")
        })?;
        Ok(Some(Mailer {
            notices,
            relay: format!("{host}:{port}"),
            host,
            port,
            from,
            contest: contest.to_owned(),
            site,
        }))
    }

    /// Sends the notices' mails until `stop` is cancelled.
    pub(crate) async fn run(self, stop: CancellationToken) {
        tracing::info!(relay = %self.relay, from = %self.from, "the contest's notices are mailed");
        let mut ticks = tokio::time::interval(CLAIM_EVERY);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = stop.cancelled() => return,
                _ = ticks.tick() => {}
            }
            tokio::select! {
                () = stop.cancelled() => return,
                () = self.send_due() => {}
            }
        }
    }

    /// Claims the mails due and sends each.
    async fn send_due(&self) {
        // The lease covers the whole batch at the send limit, so that no
        // other server claims a mail of it while this one still may send.
        let lease = SEND_LIMIT * u32::try_from(BATCH).unwrap_or(u32::MAX) + STORE_LIMIT;
        let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
        let jobs = match tokio::time::timeout(STORE_LIMIT, self.notices.claim_mail(lease_ms, BATCH))
            .await
        {
            Ok(Ok(jobs)) => jobs,
            Ok(Err(error)) => {
                tracing::warn!(%error, "cannot claim the notices' mails");
                return;
            }
            Err(_) => {
                tracing::warn!("the store took too long to hand out the notices' mails");
                return;
            }
        };
        for job in jobs {
            let outcome = self.send(&job).await;
            match &outcome {
                Ok(()) => tracing::info!(
                    notice = job.notice.0,
                    member = job.member.0,
                    team = job.team.0,
                    "a notice was mailed"
                ),
                Err(why) => tracing::warn!(
                    notice = job.notice.0,
                    member = job.member.0,
                    team = job.team.0,
                    attempt = job.attempt,
                    attempts = spielleiter_contest::MAIL_ATTEMPTS,
                    why = %why,
                    "a notice's mail failed"
                ),
            }
            match tokio::time::timeout(
                STORE_LIMIT,
                self.notices.mail_done(&job, outcome, RETRY_AFTER_MS),
            )
            .await
            {
                Ok(Ok(())) => {}
                Ok(Err(error)) => {
                    tracing::warn!(notice = job.notice.0, %error, "cannot record a notice's mail");
                }
                Err(_) => tracing::warn!(
                    notice = job.notice.0,
                    "the store took too long to record a notice's mail"
                ),
            }
        }
    }

    /// The subject and body of `job`'s mail.
    fn text_of(&self, job: &MailJob) -> (String, String) {
        let link = match &self.site {
            Some(site) => format!(
                "\n\nAll of your team's notices: {}/contest/teams/{}/notices",
                site.trim_end_matches('/'),
                job.team
            ),
            None => String::new(),
        };
        (
            format!("{}: a notice for {}", self.contest, job.team_name),
            format!(
                "{}{link}\n\n-- \nYou get this because you gave this address on your account \
                 page of {}; empty it there to get no more.\n",
                job.text, self.contest
            ),
        )
    }

    async fn send(&self, job: &MailJob) -> Result<(), String> {
        let to = Mailbox::address_only(&job.address)
            .map_err(|e| format!("the address {:?} is refused: {e}", job.address))?;
        let (subject, body) = self.text_of(job);
        let now = jiff::Timestamp::now().to_zoned(jiff::tz::TimeZone::UTC);
        let date = jiff::fmt::rfc2822::to_string(&now)
            .map_err(|e| format!("cannot write the mail's date: {e}"))?;
        // Unique for the mail: each notice goes to each member once, and
        // each attempt is a new message.
        let id = format!(
            "notice-{}.member-{}.attempt-{}.{}",
            job.notice.0,
            job.member.0,
            job.attempt,
            now.timestamp().as_millisecond()
        );
        let mail = Mail {
            from: &self.from,
            to: &to,
            subject: &subject,
            body: &body,
            date: &date,
            id: &id,
        };
        match tokio::time::timeout(SEND_LIMIT, smtp::deliver(&self.host, self.port, &mail)).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(error)) => Err(format!("the relay {}: {error}", self.relay)),
            Err(_) => Err(format!(
                "the relay {} took longer than {} s",
                self.relay,
                SEND_LIMIT.as_secs()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relays_are_host_and_port() {
        for (text, host, port) in [
            ("127.0.0.1:2525", "127.0.0.1", 2525),
            ("mail.example.org", "mail.example.org", 25),
            ("[::1]:587", "::1", 587),
            ("relay:25", "relay", 25),
        ] {
            assert_eq!(relay_of(text).ok(), Some((host.to_owned(), port)), "{text}");
        }
        for bad in [
            "",
            ":25",
            "relay:x",
            "relay:0",
            "relay:99999",
            "smtp://relay",
            "a b",
        ] {
            assert!(relay_of(bad).is_err(), "{bad:?}");
        }
    }
}
