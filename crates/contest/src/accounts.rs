//! People and teams (issue 35): the [`Contest`] record, [`Team`]s, the
//! [`Account`]s of organisers and members with their [`Role`], one-time
//! [`Invite`]s, [`Session`] expiry, and the rules for names and passwords.
//!
//! Secrets stay out of this crate: an invite's token and a session's id
//! are random values the web side draws and stores hashed, and passwords
//! are Argon2id hashes (decisions.md §34). Here is what the stored records
//! mean and when they stop being valid.

use serde::{Deserialize, Serialize};
use spielleiter_rules::GameType;

use crate::{ContestId, ContestSettings, GroupId, MemberId, TeamId, Timestamp};

/// A contest: one game, its seed (every game, draw and lot of the contest
/// derives from it), and its settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contest {
    /// The store's id.
    pub id: ContestId,
    /// The contest's name for people, e.g. `Software-Challenge 2027`.
    pub name: String,
    /// The game every encounter plays, stored by its protocol id.
    #[serde(with = "game_id")]
    pub game: GameType,
    /// The seed of every random choice of the contest.
    pub seed: u64,
    /// The rules of the contest.
    pub settings: ContestSettings,
}

impl Contest {
    /// What ranks teams that are level on ranking points (decisions.md
    /// §31): the mean per game of the game's first score part, by its name
    /// for people, e.g. `mean points`, `mean ambers`.
    pub fn second_criterion(&self) -> String {
        format!("mean {}", self.game.points_name())
    }
}

/// A game stored by its protocol id (`swc_2027_blokus`).
mod game_id {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    use spielleiter_rules::GameType;

    pub(super) fn serialize<S: Serializer>(game: &GameType, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(game.id())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameType, D::Error> {
        let id = String::deserialize(d)?;
        GameType::from_id(&id).ok_or_else(|| D::Error::custom(format!("unknown game `{id}`")))
    }
}

/// A team of a contest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Team {
    /// The store's id.
    pub id: TeamId,
    /// The team's name, shown publicly ([`check_team_name`]).
    pub name: String,
    /// The championship group, once the organiser placed the team or the
    /// draw did.
    pub group: Option<GroupId>,
    /// A disabled team signs in no more, and forfeits its encounters; its
    /// results so far stay.
    pub enabled: bool,
    /// Whether friendly challenges to the team are accepted without asking.
    pub auto_accept_friendly: bool,
}

/// A member's role in its team.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The team's first member, who came in by the organiser's invite;
    /// invites and removes students.
    Teacher,
    /// A member invited by the teacher.
    Student,
}

/// What an account is: an organiser of the contest, or a member of one
/// team. The three kinds of person of a contest are the organiser and a
/// team's teacher and students.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum AccountKind {
    /// Runs the contest: sees everything, acts in no team's name.
    Organiser,
    /// A member of `team`.
    Member {
        /// The team.
        team: TeamId,
        /// The member's role in it.
        role: Role,
    },
}

/// A person who can sign in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Account {
    /// The store's id.
    pub id: MemberId,
    /// The name shown for the person ([`check_display_name`]).
    pub display_name: String,
    /// Organiser or member.
    pub kind: AccountKind,
    /// A disabled account signs in no more; its sessions end.
    pub enabled: bool,
}

/// What an invite link is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum InviteKind {
    /// The organiser's link for a team: who opens it becomes the team's
    /// teacher.
    Teacher,
    /// A teacher's link: who opens it joins the team as a student.
    Student,
    /// The organiser's link for `member` to set a new password.
    PasswordReset {
        /// Whose password.
        member: MemberId,
    },
}

/// A one-time, expiring link (its secret token is the web side's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invite {
    /// The team the link is for.
    pub team: TeamId,
    /// What it does.
    pub kind: InviteKind,
    /// Who made it: an organiser's or teacher's account, or `None` for the
    /// server's administrator (the passphrase login, which has no account).
    pub created_by: Option<MemberId>,
    /// When.
    pub created_at: Timestamp,
    /// The first instant at which it no longer works.
    pub expires_at: Timestamp,
    /// When it was used, if it was: a link works once.
    pub used_at: Option<Timestamp>,
    /// An organiser or teacher may withdraw a link before it is used.
    pub withdrawn: bool,
}

/// Why an invite link does not work (the page says so in one line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InviteError {
    /// Past its expiry.
    #[error("this link expired; ask for a new one")]
    Expired,
    /// Used before.
    #[error("this link was used already; ask for a new one")]
    Used,
    /// Withdrawn by whoever made it.
    #[error("this link was withdrawn")]
    Withdrawn,
    /// The team (or the member whose password it resets) is disabled.
    #[error("this team or account is disabled")]
    Disabled,
}

impl Invite {
    /// A new link of `kind` for `team`, valid for the contest's
    /// `invite_valid_seconds` from `now`.
    pub fn new(
        team: TeamId,
        kind: InviteKind,
        created_by: Option<MemberId>,
        now: Timestamp,
        settings: &ContestSettings,
    ) -> Invite {
        Invite {
            team,
            kind,
            created_by,
            created_at: now,
            expires_at: now.plus_seconds(settings.invite_valid_seconds),
            used_at: None,
            withdrawn: false,
        }
    }

    /// Whether the link may be used at `now` (`enabled`: the team, and for
    /// a password reset the member as well, are enabled). The store marks
    /// it used in the same transaction that creates the member or sets the
    /// password, so that it works once even when opened twice at once.
    ///
    /// # Errors
    ///
    /// Why it does not work.
    pub fn check(&self, now: Timestamp, enabled: bool) -> Result<(), InviteError> {
        if self.withdrawn {
            Err(InviteError::Withdrawn)
        } else if self.used_at.is_some() {
            Err(InviteError::Used)
        } else if now >= self.expires_at {
            Err(InviteError::Expired)
        } else if !enabled {
            Err(InviteError::Disabled)
        } else {
            Ok(())
        }
    }

    /// The role of the member the link makes; `None` for a password reset,
    /// which makes nobody.
    pub fn role_granted(&self) -> Option<Role> {
        match self.kind {
            InviteKind::Teacher => Some(Role::Teacher),
            InviteKind::Student => Some(Role::Student),
            InviteKind::PasswordReset { .. } => None,
        }
    }
}

/// A signed-in session (its id is the web side's secret).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// Whose.
    pub member: MemberId,
    /// When the person signed in.
    pub signed_in_at: Timestamp,
    /// The last request that used it.
    pub last_used_at: Timestamp,
}

/// The step by which a session's recorded last use moves
/// ([`Session::records_use_at`]).
pub const SESSION_USE_STEP_SECONDS: i64 = 60;

/// The most live sessions of one account: opening one more ends the one
/// signed in longest ago, so that sessions cannot pile up without bound.
pub const MAX_SESSIONS_PER_ACCOUNT: usize = 10;

/// The most open (unused, unwithdrawn, unexpired) teacher's and student's
/// links of one team; one more is refused until one is used, withdrawn or
/// expired. Password-reset links are one per member at most: a new one
/// withdraws the old.
pub const MAX_OPEN_LINKS_PER_TEAM: usize = 20;

/// Whether a session still works, and if not, why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SessionState {
    /// It works; the store records `now` as its last use when that moved
    /// by a step ([`Session::records_use_at`]).
    Live,
    /// Unused for longer than `session_idle_seconds`.
    Idle,
    /// Older than `session_absolute_seconds`, however used.
    TooOld,
}

impl Session {
    /// A session of `member` signed in at `now`.
    pub fn new(member: MemberId, now: Timestamp) -> Session {
        Session {
            member,
            signed_in_at: now,
            last_used_at: now,
        }
    }

    /// Whether a lookup at `now` records its use: only once the last use
    /// recorded is [`SESSION_USE_STEP_SECONDS`] old, so that reading pages
    /// costs the store reads, not a write each (the idle expiry then runs
    /// from a use up to a step earlier than the last one).
    pub fn records_use_at(&self, now: Timestamp) -> bool {
        now.seconds_since(self.last_used_at) >= SESSION_USE_STEP_SECONDS
    }

    /// The session's state at `now` under the contest's expiry settings.
    /// A session that is not [`SessionState::Live`] is deleted, never
    /// revived.
    pub fn state(&self, now: Timestamp, settings: &ContestSettings) -> SessionState {
        if now.seconds_since(self.signed_in_at) >= settings.session_absolute_seconds {
            SessionState::TooOld
        } else if now.seconds_since(self.last_used_at) >= settings.session_idle_seconds {
            SessionState::Idle
        } else {
            SessionState::Live
        }
    }
}

/// Why a name or password is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Empty, or only spaces.
    #[error("{what} is empty")]
    Empty {
        /// `team name`, `display name`, `password`.
        what: &'static str,
    },
    /// Longer than allowed.
    #[error("{what} has {chars} characters; at most {max}")]
    TooLong {
        /// What was checked.
        what: &'static str,
        /// Its length in characters.
        chars: usize,
        /// The limit.
        max: usize,
    },
    /// So long in bytes that it cannot be within the limit in characters
    /// (four bytes per character at most): refused before it is read.
    #[error("{what} is far too long; at most {max} characters")]
    Oversized {
        /// What was checked.
        what: &'static str,
        /// The limit in characters.
        max: usize,
    },
    /// Shorter than allowed.
    #[error("{what} has {chars} characters; at least {min}")]
    TooShort {
        /// What was checked.
        what: &'static str,
        /// Its length in characters.
        chars: usize,
        /// The limit.
        min: usize,
    },
    /// Holds a control character, an invisible or direction-changing one,
    /// a space other than the plain one, or spaces at either end.
    #[error(
        "{what} has a control, invisible or direction-changing character, an unusual space, or spaces at either end"
    )]
    BadCharacters {
        /// What was checked.
        what: &'static str,
    },
}

/// The longest team name, in characters.
pub const MAX_TEAM_NAME: usize = 60;
/// The longest display name, in characters.
pub const MAX_DISPLAY_NAME: usize = 40;
/// The shortest password, in characters.
pub const MIN_PASSWORD: usize = 10;
/// The longest password, in characters: hashing is slow on purpose, so
/// its input is bounded.
pub const MAX_PASSWORD: usize = 256;

/// The most bytes `max` characters can take in UTF-8: a longer input is
/// refused by its length in bytes, before any of it is read.
pub const fn max_bytes(max_chars: usize) -> usize {
    max_chars * 4
}

/// Whether `c` may not stand in a name: a control character; a character
/// that changes the direction of the text around it (which can make a name
/// read as another); an invisible one (zero-width, joiners, fillers,
/// variation selectors, tags, soft hyphen, private use), which makes two
/// names that look the same; or a space other than U+0020 (a no-break or
/// ideographic space looks like a plain one).
pub fn is_refused_in_names(c: char) -> bool {
    if c.is_control() || (c.is_whitespace() && c != ' ') {
        return true;
    }
    matches!(
        c,
        // Soft hyphen, combining grapheme joiner, Arabic letter mark.
        '\u{00AD}' | '\u{034F}' | '\u{061C}'
        // Hangul fillers and the Mongolian vowel separator, Khmer vowels
        // inherent (invisible).
        | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}' | '\u{180B}'..='\u{180F}'
        // Zero-width space, joiners, direction marks; embeddings and
        // overrides; word joiner and invisible operators; isolates and
        // deprecated format characters.
        | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}'
        // Braille blank, Hangul filler, variation selectors, byte order
        // mark, half-width Hangul filler, interlinear annotations.
        | '\u{2800}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
        | '\u{FFF9}'..='\u{FFFB}'
        // Private use.
        | '\u{E000}'..='\u{F8FF}' | '\u{F0000}'..='\u{10FFFF}'
        // Musical formatting, shorthand format controls, Egyptian
        // hieroglyph format controls (invisible).
        | '\u{1D173}'..='\u{1D17A}' | '\u{1BCA0}'..='\u{1BCA3}' | '\u{13430}'..='\u{1343F}'
        // Tags and variation selectors supplement.
        | '\u{E0000}'..='\u{E007F}' | '\u{E0100}'..='\u{E01EF}'
    )
}

fn check_name(what: &'static str, name: &str, max: usize) -> Result<(), NameError> {
    // The length in bytes first: a huge input costs nothing more.
    if name.len() > max_bytes(max) {
        return Err(NameError::Oversized { what, max });
    }
    if name.trim().is_empty() {
        return Err(NameError::Empty { what });
    }
    let chars = name.chars().count();
    if chars > max {
        return Err(NameError::TooLong { what, chars, max });
    }
    if name.chars().any(is_refused_in_names) || name.trim() != name {
        return Err(NameError::BadCharacters { what });
    }
    Ok(())
}

/// Whether `name` may be a team's name: 1 to 60 characters, none of them
/// [refused](is_refused_in_names), no spaces at either end.
///
/// # Errors
///
/// Why not.
pub fn check_team_name(name: &str) -> Result<(), NameError> {
    check_name("team name", name, MAX_TEAM_NAME)
}

/// Whether `name` may be a person's display name: 1 to 40 characters, none
/// of them [refused](is_refused_in_names), no spaces at either end.
///
/// # Errors
///
/// Why not.
pub fn check_display_name(name: &str) -> Result<(), NameError> {
    check_name("display name", name, MAX_DISPLAY_NAME)
}

/// Whether `password` may be set: 10 to 256 characters (anything else is
/// the person's choice).
///
/// # Errors
///
/// Why not.
pub fn check_password(password: &str) -> Result<(), NameError> {
    let what = "password";
    if password.len() > max_bytes(MAX_PASSWORD) {
        return Err(NameError::Oversized {
            what,
            max: MAX_PASSWORD,
        });
    }
    let chars = password.chars().count();
    if chars == 0 {
        Err(NameError::Empty { what })
    } else if chars < MIN_PASSWORD {
        Err(NameError::TooShort {
            what,
            chars,
            min: MIN_PASSWORD,
        })
    } else if chars > MAX_PASSWORD {
        Err(NameError::TooLong {
            what,
            chars,
            max: MAX_PASSWORD,
        })
    } else {
        Ok(())
    }
}

/// The key a person signs in by and that must be unique in a contest:
/// the display name in lower case (`Ada` and `ada` are one name), so that
/// two people cannot be told apart only by case.
pub fn login_key(display_name: &str) -> String {
    display_name.to_lowercase()
}

/// The SHA-256 digest of a secret the web side handed out (an invite's
/// token, a session's id). The store keeps only digests, so that reading
/// the store gives no working link or cookie; the web side computes them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TokenDigest(pub [u8; 32]);

impl core::fmt::Debug for TokenDigest {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Enough to tell two apart in a test's message, not a whole secret's
        // digest in a log.
        write!(f, "TokenDigest({:02x}{:02x}…)", self.0[0], self.0[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invite(kind: InviteKind) -> Invite {
        Invite::new(
            TeamId(1),
            kind,
            Some(MemberId(9)),
            Timestamp(1000),
            &ContestSettings::default(),
        )
    }

    #[test]
    fn an_invite_works_once_until_it_expires() {
        let mut link = invite(InviteKind::Teacher);
        let week = crate::defaults::INVITE_VALID_SECONDS;
        assert_eq!(link.expires_at, Timestamp(1000 + week));
        assert_eq!(link.check(Timestamp(1000 + week - 1), true), Ok(()));
        assert_eq!(
            link.check(Timestamp(1000 + week), true),
            Err(InviteError::Expired)
        );
        assert_eq!(
            link.check(Timestamp(2000), false),
            Err(InviteError::Disabled)
        );
        link.used_at = Some(Timestamp(1500));
        assert_eq!(link.check(Timestamp(2000), true), Err(InviteError::Used));
        link.withdrawn = true;
        assert_eq!(
            link.check(Timestamp(2000), true),
            Err(InviteError::Withdrawn)
        );
    }

    #[test]
    fn invites_grant_their_role() {
        assert_eq!(
            invite(InviteKind::Teacher).role_granted(),
            Some(Role::Teacher)
        );
        assert_eq!(
            invite(InviteKind::Student).role_granted(),
            Some(Role::Student)
        );
        let reset = InviteKind::PasswordReset {
            member: MemberId(3),
        };
        assert_eq!(invite(reset).role_granted(), None);
    }

    #[test]
    fn sessions_end_when_idle_or_too_old() {
        let settings = ContestSettings::default();
        let idle = settings.session_idle_seconds;
        let mut session = Session::new(MemberId(1), Timestamp(0));
        assert_eq!(
            session.state(Timestamp(idle - 1), &settings),
            SessionState::Live
        );
        assert_eq!(
            session.state(Timestamp(idle), &settings),
            SessionState::Idle
        );
        // Used every hour, it still ends at the absolute limit.
        let absolute = settings.session_absolute_seconds;
        let mut now = 0;
        while now + 3600 < absolute {
            now += 3600;
            assert_eq!(session.state(Timestamp(now), &settings), SessionState::Live);
            session.last_used_at = Timestamp(now);
        }
        assert_eq!(
            session.state(Timestamp(absolute), &settings),
            SessionState::TooOld
        );
    }

    #[test]
    fn names_and_passwords_are_bounded() {
        assert_eq!(check_team_name("Die Füchse"), Ok(()));
        assert!(matches!(
            check_team_name("  "),
            Err(NameError::Empty { .. })
        ));
        assert!(matches!(
            check_team_name(" padded"),
            Err(NameError::BadCharacters { .. })
        ));
        assert!(matches!(
            check_display_name("tab\there"),
            Err(NameError::BadCharacters { .. })
        ));
        assert_eq!(check_display_name(&"é".repeat(40)), Ok(()));
        assert_eq!(
            check_display_name(&"é".repeat(41)),
            Err(NameError::TooLong {
                what: "display name",
                chars: 41,
                max: 40
            })
        );
        assert!(matches!(
            check_password("short"),
            Err(NameError::TooShort { .. })
        ));
        assert_eq!(check_password("ten chars!"), Ok(()));
        assert!(matches!(
            check_password(&"x".repeat(257)),
            Err(NameError::TooLong { .. })
        ));
    }

    #[test]
    fn names_refuse_invisible_direction_changing_and_huge_input() {
        for name in [
            "Ada\u{202E}ecalevol",  // right-to-left override
            "Ada\u{2066}x\u{2069}", // an isolate
            "A\u{200B}da",          // zero-width space
            "A\u{200D}da",          // zero-width joiner
            "Ada\u{00A0}Lovelace",  // a no-break space looks like a space
            "Ada\u{3000}L",         // an ideographic space
            "A\u{FEFF}da",          // byte order mark
            "A\u{00AD}da",          // soft hyphen
            "A\u{E0041}da",         // a tag
            "Ada\u{FE0F}",          // a variation selector
            "\u{3164}",             // a Hangul filler alone
            "line\u{2028}break",    // a line separator
            "bell\u{7}",
        ] {
            assert_eq!(
                check_display_name(name),
                Err(NameError::BadCharacters {
                    what: "display name"
                }),
                "{name:?}"
            );
            assert!(check_team_name(name).is_err(), "{name:?}");
        }
        // Letters of any script, and marks that combine with them, stay.
        for name in ["Łukasz Żółć", "محمد", "李小龍", "Đặng Thị", "Zoë"] {
            assert_eq!(check_display_name(name), Ok(()), "{name:?}");
        }
        // Ten megabytes: refused by the length in bytes, one answer.
        let huge = "x".repeat(10 << 20);
        let oversized = NameError::Oversized {
            what: "display name",
            max: MAX_DISPLAY_NAME,
        };
        assert_eq!(check_display_name(&huge), Err(oversized.clone()));
        assert_eq!(
            check_display_name(&" ".repeat(10 << 20)),
            Err(oversized),
            "spaces are not trimmed first"
        );
        assert!(matches!(
            check_team_name(&huge),
            Err(NameError::Oversized { max: 60, .. })
        ));
        assert!(matches!(
            check_password(&huge),
            Err(NameError::Oversized { .. })
        ));
        // Four-byte characters up to the limit are still counted as
        // characters.
        assert_eq!(check_display_name(&"😀".repeat(40)), Ok(()));
        assert!(matches!(
            check_display_name(&"😀".repeat(41)),
            Err(NameError::Oversized { .. })
        ));
    }

    #[test]
    fn names_sign_in_whatever_their_case() {
        assert_eq!(login_key("Ada Lovelace"), "ada lovelace");
        assert_eq!(login_key("ÄRGER"), login_key("ärger"));
        assert_ne!(login_key("Ada"), login_key("Ada "));
    }

    #[test]
    fn a_contest_stores_its_game_by_id() {
        let contest = Contest {
            id: ContestId(1),
            name: "Ostsee".into(),
            game: GameType::Ostseeschach2022,
            seed: 7,
            settings: ContestSettings::default(),
        };
        let json = serde_json::to_value(&contest).expect("json");
        assert_eq!(json["game"], "swc_2022_ostseeschach");
        let back: Contest = serde_json::from_value(json.clone()).expect("back");
        assert_eq!(back, contest);
        assert_eq!(contest.second_criterion(), "mean ambers");
        let mut unknown = json;
        unknown["game"] = "chess".into();
        let error = serde_json::from_value::<Contest>(unknown).expect_err("unknown game");
        assert!(
            error.to_string().contains("unknown game `chess`"),
            "{error}"
        );
    }
}
