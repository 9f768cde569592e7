//! Who sees what, and who may change it: the one access rule every route
//! of the contest's pages asks ([`may`]), over [`Viewer`]s, [`Action`]s
//! and [`Resource`]s (decisions.md §33, issues 35–37).
//!
//! In words: a team's own things (its pages, members, versions, uploads,
//! builds, tests, challenges, friendly games, its program's logs and its
//! seat's wire logs) are its members' and the organisers', never another
//! team's. An encounter's line-up, results and replays are the organisers'
//! and the two teams' until its matchday or knockout round is published,
//! then everybody's. Organisers see everything and run the contest, but act
//! in no team's name (they disable a team rather than change its program).
//! A member's notices are that member's alone.
//!
//! The web side's other pages ask the same rule: its public pages and
//! finished replays ([`Resource::Public`]) are everybody's; running games
//! and the seats to play in them ([`Resource::RunningGames`]) and the logs
//! of the server's own games ([`Resource::GameLogs`]) are everybody's only
//! where the pages are open to all (`--http-public`), otherwise the
//! organisers' (the administrator's passphrase login is an organiser). A
//! person's own account (its sessions, its password) is that person's
//! alone ([`Resource::Account`]).
//!
//! An invite link or password-reset link is its own credential: opening it
//! is checked by [`Invite::check`](crate::Invite::check), not here; making
//! or withdrawing one is [`Resource::Invite`].

use crate::{Account, AccountKind, InviteKind, MemberId, Role, TeamId};

/// Who asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// Nobody signed in (or a disabled account, or a member of a disabled
    /// team).
    Anonymous,
    /// An organiser of the contest.
    Organiser {
        /// The organiser's account; `None` for the server's administrator
        /// (the passphrase login, which has no account).
        account: Option<MemberId>,
    },
    /// A member of a team.
    Member {
        /// Who.
        member: MemberId,
        /// Their team.
        team: TeamId,
        /// Their role in it.
        role: Role,
    },
}

impl Viewer {
    /// The viewer a request is made by: the account of its session, if
    /// any; a disabled account, or a member whose team is disabled, is
    /// anonymous.
    pub fn of(account: Option<&Account>, team_enabled: impl Fn(TeamId) -> bool) -> Viewer {
        match account {
            Some(account) if account.enabled => match account.kind {
                AccountKind::Organiser => Viewer::Organiser {
                    account: Some(account.id),
                },
                AccountKind::Member { team, role } if team_enabled(team) => Viewer::Member {
                    member: account.id,
                    team,
                    role,
                },
                AccountKind::Member { .. } => Viewer::Anonymous,
            },
            _ => Viewer::Anonymous,
        }
    }

    /// The viewer's role in `team`, if a member of it.
    fn role_in(&self, team: TeamId) -> Option<Role> {
        match *self {
            Viewer::Member {
                team: own, role, ..
            } if own == team => Some(role),
            _ => None,
        }
    }

    fn is_member_of(&self, team: TeamId) -> bool {
        self.role_in(team).is_some()
    }

    fn is_teacher_of(&self, team: TeamId) -> bool {
        self.role_in(team) == Some(Role::Teacher)
    }

    fn is_organiser(&self) -> bool {
        matches!(self, Viewer::Organiser { .. })
    }

    /// The viewer's own account, if signed in with one.
    pub fn account(&self) -> Option<MemberId> {
        match *self {
            Viewer::Anonymous => None,
            Viewer::Organiser { account } => account,
            Viewer::Member { member, .. } => Some(member),
        }
    }
}

/// What the viewer wants to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// See it (a page, a download, a replay).
    View,
    /// Create, change, answer or delete it (a form's POST): upload,
    /// activate, invite, remove, accept, publish, …
    Change,
}

/// Declares [`Resource`], a [`ResourceKind`] per variant and
/// [`ResourceKind::ALL`], so that a new resource is a new kind as well,
/// and the access table's test fails until it has a row.
macro_rules! resources {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $({ $($(#[doc = $field_doc:literal])* $field:ident: $ty:ty),* $(,)? })?,
    )*) => {
        /// What is asked for. Every route of the contest's pages names one.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Resource {
            $(
                $(#[doc = $doc])*
                $variant $({ $($(#[doc = $field_doc])* $field: $ty),* })?,
            )*
        }

        /// A [`Resource`] without its fields.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ResourceKind {
            $(
                $(#[doc = $doc])*
                $variant,
            )*
        }

        impl ResourceKind {
            /// Every kind of resource.
            pub const ALL: &'static [ResourceKind] = &[$(ResourceKind::$variant,)*];
        }

        impl Resource {
            /// The resource's kind.
            pub const fn kind(&self) -> ResourceKind {
                match self {
                    $(Resource::$variant { .. } => ResourceKind::$variant,)*
                }
            }
        }
    };
}

resources! {
    /// The web side's pages for everyone: the pages' files, the lists of
    /// games, finished replays and their downloads, a season's standings
    /// and games, the metrics, the health check.
    Public,
    /// Running games: their boards, live events, and the seats to play
    /// in them (change: open a seat).
    RunningGames {
        /// Whether the pages are open to all (`--http-public`, or a
        /// loopback address by default).
        open: bool,
    },
    /// The logs of the server's own games (a replay's wire log, a season
    /// game's players' logs and wire log): they hold more than the replay.
    GameLogs {
        /// Whether the pages are open to all.
        open: bool,
    },
    /// A person's own account: their sessions (change: end one) and
    /// password.
    Account {
        /// Whose.
        member: MemberId,
    },
    /// The contest's public pages: news, groups, teams, the matchday
    /// calendar, the bracket's shape.
    ContestPages,
    /// The organisers' pages: teams, groups, matchdays, publishing, resets.
    OrganiserPages,
    /// A team's private pages: its overview and settings (auto-accept).
    TeamPages {
        /// Whose.
        team: TeamId,
    },
    /// A team's member list (change: remove or disable a member).
    Members {
        /// Whose.
        team: TeamId,
    },
    /// Making or withdrawing an invite or password-reset link for a team.
    Invite {
        /// For which team.
        team: TeamId,
        /// What the link does.
        kind: InviteKind,
    },
    /// A member's notices (change: mark as read).
    Notices {
        /// Whose.
        member: MemberId,
    },
    /// A team's versions (change: upload, comment, start parameters, test,
    /// activate).
    Versions {
        /// Whose.
        team: TeamId,
    },
    /// The archive a team uploaded, for download.
    Upload {
        /// Whose.
        team: TeamId,
    },
    /// A version's build and its log.
    Build {
        /// Whose.
        team: TeamId,
    },
    /// A version's test games against the `random` bot, with replays.
    TestGame {
        /// Whose.
        team: TeamId,
    },
    /// A team's program's log of any game it played.
    ProgramLog {
        /// Whose program.
        team: TeamId,
    },
    /// A team's seat's wire log of any game it played (the other seat's
    /// bytes are the other team's).
    WireLog {
        /// Whose seat.
        team: TeamId,
    },
    /// A friendly challenge (change: the challenged team accepts or
    /// declines, the challenger withdraws).
    Challenge {
        /// Who challenged.
        challenger: TeamId,
        /// Who is challenged.
        challenged: TeamId,
    },
    /// A friendly encounter's games, results and replays.
    FriendlyGame {
        /// The two teams.
        teams: [TeamId; 2],
    },
    /// An encounter of a matchday or knockout round: its line-up, games,
    /// results and replays (change: publish, unpublish, play again).
    Encounter {
        /// The two teams.
        teams: [TeamId; 2],
        /// Whether its matchday or round is published.
        published: bool,
    },
    /// A phase's standings (and the bracket's results).
    Standings {
        /// Whether every matchday they count is published.
        published: bool,
    },
}

/// Whether `viewer` may do `action` to `resource`: the one access rule.
pub fn may(viewer: &Viewer, action: Action, resource: &Resource) -> bool {
    use Action::{Change, View};
    let organiser = viewer.is_organiser();
    match *resource {
        Resource::Public => action == View,
        Resource::RunningGames { open } => open || organiser,
        Resource::GameLogs { open } => action == View && (open || organiser),
        Resource::Account { member } => viewer.account() == Some(member),
        Resource::ContestPages => match action {
            View => true,
            Change => organiser,
        },
        Resource::OrganiserPages => organiser,
        Resource::TeamPages { team } | Resource::Members { team } => match action {
            View => organiser || viewer.is_member_of(team),
            Change => organiser || viewer.is_teacher_of(team),
        },
        Resource::Invite { team, kind } => match kind {
            InviteKind::Teacher | InviteKind::PasswordReset { .. } => organiser,
            InviteKind::Student => organiser || viewer.is_teacher_of(team),
        },
        Resource::Notices { member } => {
            matches!(*viewer, Viewer::Member { member: own, .. } if own == member)
        }
        Resource::Versions { team } => match action {
            View => organiser || viewer.is_member_of(team),
            Change => viewer.is_member_of(team),
        },
        // Made by workers: seen, never changed.
        Resource::Upload { team }
        | Resource::Build { team }
        | Resource::TestGame { team }
        | Resource::ProgramLog { team }
        | Resource::WireLog { team } => match action {
            View => organiser || viewer.is_member_of(team),
            Change => false,
        },
        Resource::Challenge {
            challenger,
            challenged,
        } => {
            let party = viewer.is_member_of(challenger) || viewer.is_member_of(challenged);
            match action {
                View => organiser || party,
                Change => party,
            }
        }
        Resource::FriendlyGame { teams } => match action {
            View => organiser || teams.iter().any(|&team| viewer.is_member_of(team)),
            Change => false,
        },
        Resource::Encounter { teams, published } => match action {
            View => published || organiser || teams.iter().any(|&team| viewer.is_member_of(team)),
            Change => organiser,
        },
        Resource::Standings { published } => match action {
            View => published || organiser,
            Change => false,
        },
    }
}
