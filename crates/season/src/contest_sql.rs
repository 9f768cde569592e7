//! A contest in the season store (issue 35): [`create_contest`] makes the
//! store's one contest, and [`ContestStore`] is its accounts — teams,
//! members, organisers, invite links and sessions — as the web side's
//! [`ContestAccounts`] interface reads and writes them, on any
//! [`Database`] (SQLite's file, PostgreSQL's database, either behind
//! [`AnyStore`](crate::AnyStore)). The tables are schema version 3
//! (`store`'s list of migrations); every statement is written once for
//! both databases (see [`crate::sql`]).
//!
//! # Atomicity
//!
//! Every method of the interface is one transaction, rolled back when it
//! refuses. A one-time link is used by a conditional update (`… WHERE
//! used_at IS NULL`) that must change its row before the member is made:
//! of two uses at once, on PostgreSQL the second waits for the first's row
//! lock and then finds the link used; on SQLite the writers take turns.
//! A name that is taken is found by the unique key of the insert
//! (`ON CONFLICT DO NOTHING`), never by a read before it, so two teams or
//! people of one name at once make one.
//!
//! # One contest per store
//!
//! A store holds at most one contest, as the web side serves one and the
//! command line names none; its rows still carry the contest's id, so a
//! later schema can hold several without rewriting them. The contest's
//! record (name, game, seed, settings) is read once when the store is
//! opened: nothing changes it while it runs.

use std::{fmt, sync::Arc};

use spielleiter_contest::{
    Account, AccountKind, Contest, ContestAccounts, ContestId, ContestSettings, Credentials,
    GroupId, Invite, InviteError, InviteId, InviteKind, MemberId, NewAccount, Role, Session,
    SessionId, SessionOrigin, SessionState, SignedIn, StoreError, StoreFuture, StoredInvite,
    StoredSession, Team, TeamId, Timestamp, TokenDigest,
    accounts::{MAX_OPEN_LINKS_PER_TEAM, MAX_SESSIONS_PER_ACCOUNT},
    accounts_store::TOO_MANY_LINKS,
    login_key,
};
use spielleiter_rules::GameType;

use crate::{
    Created,
    error::SeasonError,
    sql::{Database, Row, Sql, Value, Work},
};

/// A contest to be made by [`create_contest`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewContest {
    /// Its name for people.
    pub name: String,
    /// The game every encounter plays.
    pub game: GameType,
    /// The seed of every random choice; `None`: drawn by the caller when
    /// the contest is new, and any seed of an existing contest of the same
    /// name and game is the same contest.
    pub seed: Option<u64>,
    /// Its rules.
    pub settings: ContestSettings,
}

/// Makes the store's contest, or finds the same one there (the same name
/// and game, and the same seed when `new` names one): then nothing
/// changes. `draw_seed` gives a new contest's seed when `new` names none.
///
/// # Errors
///
/// [`SeasonError::OtherContest`] when the store holds another contest,
/// [`SeasonError::Definition`] for settings out of range, or the store
/// fails.
pub async fn create_contest<D: Database>(
    db: &D,
    new: &NewContest,
    draw_seed: impl FnOnce() -> u64,
) -> Result<(Contest, Created), SeasonError> {
    new.settings
        .check()
        .map_err(|e| SeasonError::Definition(e.to_string()))?;
    let settings = serde_json::to_string(&new.settings).map_err(|e| SeasonError::Corrupt {
        what: "contest settings",
        cause: e.to_string(),
    })?;
    let (name, game) = (new.name.clone(), new.game.id().to_owned());
    let seed = new.seed.unwrap_or_else(draw_seed).to_string();
    let existing = db
        .transaction(move |db| {
            Box::pin(async move {
                if let Some(contest) = read_contest(db).await? {
                    return Ok((contest, Created::Existing));
                }
                db.execute(
                    "INSERT INTO contests (name, game, seed, settings, created_ms) \
                     VALUES ($1, $2, $3, $4, {now_ms})",
                    &[
                        name.as_str().into(),
                        game.as_str().into(),
                        seed.as_str().into(),
                        settings.as_str().into(),
                    ],
                )
                .await?;
                let contest = read_contest(db)
                    .await?
                    .ok_or_else(|| SeasonError::Corrupt {
                        what: "contest",
                        cause: "the new contest cannot be read back".to_owned(),
                    })?;
                Ok((contest, Created::New))
            })
        })
        .await?;
    let (contest, created) = existing;
    if created == Created::Existing {
        let mut differences = Vec::new();
        if contest.name != new.name {
            differences.push(format!("not `{}`", new.name));
        }
        if contest.game != new.game {
            differences.push(format!(
                "of the game {}, not {}",
                contest.game.id(),
                new.game.id()
            ));
        }
        if let Some(seed) = new.seed.filter(|seed| *seed != contest.seed) {
            differences.push(format!("with seed {}, not {seed}", contest.seed));
        }
        if !differences.is_empty() {
            return Err(SeasonError::OtherContest {
                store: db.store_name(),
                name: contest.name,
                difference: differences.join(", "),
            });
        }
    }
    Ok((contest, created))
}

/// The store's contest, if it holds one.
pub(crate) async fn read_contest(db: &mut Sql<'_>) -> Result<Option<Contest>, SeasonError> {
    let rows = db
        .query(
            "SELECT id, name, game, seed, settings FROM contests ORDER BY id LIMIT 2",
            &[],
        )
        .await?;
    let corrupt = |cause: String| SeasonError::Corrupt {
        what: "contest",
        cause,
    };
    match rows.as_slice() {
        [] => Ok(None),
        [row] => {
            let game: String = row.get(2)?;
            let seed: String = row.get(3)?;
            let settings: String = row.get(4)?;
            Ok(Some(Contest {
                id: ContestId(row.get(0)?),
                name: row.get(1)?,
                game: GameType::from_id(&game)
                    .ok_or_else(|| corrupt(format!("unknown game `{game}`")))?,
                seed: seed
                    .parse()
                    .map_err(|_| corrupt(format!("`{seed}` is no seed")))?,
                settings: serde_json::from_str(&settings).map_err(|e| corrupt(e.to_string()))?,
            }))
        }
        _ => Err(corrupt("the store holds several contests".to_owned())),
    }
}

/// The accounts of the store's contest: what the web side's door and the
/// command line read and write (see the module's documentation).
pub struct ContestStore<D> {
    pub(crate) db: Arc<D>,
    pub(crate) contest: Contest,
}

impl<D: Database> fmt::Debug for ContestStore<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ContestStore")
            .field("store", &self.db.store_name())
            .field("contest", &self.contest.name)
            .finish_non_exhaustive()
    }
}

impl<D: Database> ContestStore<D> {
    /// The accounts of the contest `db` holds.
    ///
    /// # Errors
    ///
    /// [`SeasonError::NoContest`] when it holds none, or the store fails.
    pub async fn open(db: Arc<D>) -> Result<ContestStore<D>, SeasonError> {
        let contest = db
            .run(|db| Box::pin(async move { read_contest(db).await }))
            .await?;
        match contest {
            Some(contest) => Ok(ContestStore { db, contest }),
            None => Err(SeasonError::NoContest {
                store: db.store_name(),
            }),
        }
    }

    /// The contest's record.
    pub fn record(&self) -> &Contest {
        &self.contest
    }

    /// The store the contest is in.
    pub fn database(&self) -> &Arc<D> {
        &self.db
    }

    /// The championship group named `name` (by its lower-case key), made
    /// when the contest has none of that name yet.
    ///
    /// # Errors
    ///
    /// The store fails.
    pub async fn group(&self, name: &str) -> Result<GroupId, SeasonError> {
        let (contest, name, key) = (self.contest.id.0, name.to_owned(), login_key(name));
        self.db
            .transaction(move |db| {
                Box::pin(async move {
                    db.execute(
                        "INSERT INTO contest_groups (contest, name, name_key) VALUES ($1, $2, $3) \
                         ON CONFLICT (contest, name_key) DO NOTHING",
                        &[contest.into(), name.as_str().into(), key.as_str().into()],
                    )
                    .await?;
                    let row = db
                        .query_opt(
                            "SELECT id FROM contest_groups WHERE contest = $1 AND name_key = $2",
                            &[contest.into(), key.as_str().into()],
                        )
                        .await?;
                    let row = row.ok_or_else(|| SeasonError::Corrupt {
                        what: "contest group",
                        cause: "the group cannot be read back".to_owned(),
                    })?;
                    Ok(GroupId(row.get(0)?))
                })
            })
            .await
    }

    /// The name of group `group`, if the contest has it.
    ///
    /// # Errors
    ///
    /// The store fails.
    pub async fn group_name(&self, group: GroupId) -> Result<Option<String>, SeasonError> {
        let contest = self.contest.id.0;
        self.db
            .run(move |db| {
                Box::pin(async move {
                    let row = db
                        .query_opt(
                            "SELECT name FROM contest_groups WHERE contest = $1 AND id = $2",
                            &[contest.into(), group.0.into()],
                        )
                        .await?;
                    row.map(|row| row.get(0)).transpose()
                })
            })
            .await
    }

    /// Runs `work` in one transaction, its error as the interface's.
    pub(crate) fn call<T, W>(&self, work: W) -> StoreFuture<'_, T>
    where
        T: Send + 'static,
        W: for<'c, 'd> FnOnce(&'c mut Sql<'d>) -> Work<'c, T> + Send + 'static,
    {
        Box::pin(async move {
            self.db
                .transaction(work)
                .await
                .map_err(|error| self.store_error(error))
        })
    }

    /// `work`, its error as the interface's.
    pub(crate) fn answered<'a, T: 'a>(
        &'a self,
        work: impl Future<Output = Result<T, SeasonError>> + Send + 'a,
    ) -> StoreFuture<'a, T> {
        Box::pin(async move { work.await.map_err(|error| self.store_error(error)) })
    }

    /// A failure as the interface reports it: a refusal as it is, anything
    /// else the store's (no password: the store's name is masked).
    pub(crate) fn store_error(&self, error: SeasonError) -> StoreError {
        match error {
            SeasonError::Contest(refusal) => refusal,
            SeasonError::Database { store, cause } | SeasonError::Connect { store, cause } => {
                StoreError::Backend { store, cause }
            }
            other => StoreError::Backend {
                store: self.db.store_name(),
                cause: other.to_string(),
            },
        }
    }
}

/// A refusal, carried out of a unit of work so that it is rolled back.
fn refuse<T>(refusal: StoreError) -> Result<T, SeasonError> {
    Err(SeasonError::Contest(refusal))
}

fn corrupt(what: &'static str, cause: String) -> SeasonError {
    SeasonError::Corrupt { what, cause }
}

/// A digest as a statement's value.
fn digest(token: &TokenDigest) -> Value<'_> {
    Value::Bytes(&token.0)
}

/// The columns of `contest_teams` (as `t`) that [`team_row`] reads.
pub(crate) const TEAM_COLUMNS: &str = "t.id, t.name, t.group_id, t.enabled, t.auto_accept_friendly";

pub(crate) fn team_row(row: &Row) -> Result<Team, SeasonError> {
    Ok(Team {
        id: TeamId(row.get(0)?),
        name: row.get(1)?,
        group: row.get::<Option<i64>>(2)?.map(GroupId),
        enabled: row.get(3)?,
        auto_accept_friendly: row.get(4)?,
    })
}

/// The columns of `contest_accounts` (as `a`) that [`account_row`] reads,
/// from column `at` on.
const ACCOUNT_COLUMNS: &str = "a.id, a.display_name, a.team, a.role, a.enabled";

fn account_row(row: &Row, at: usize) -> Result<Account, SeasonError> {
    let team: Option<i64> = row.get(at + 2)?;
    let role: Option<String> = row.get(at + 3)?;
    let kind = match (team, role.as_deref()) {
        (None, None) => AccountKind::Organiser,
        (Some(team), Some(role)) => AccountKind::Member {
            team: TeamId(team),
            role: match role {
                "teacher" => Role::Teacher,
                "student" => Role::Student,
                other => return Err(corrupt("account role", format!("`{other}`"))),
            },
        },
        (team, role) => {
            return Err(corrupt(
                "account",
                format!("team {team:?} with role {role:?}"),
            ));
        }
    };
    Ok(Account {
        id: MemberId(row.get(at)?),
        display_name: row.get(at + 1)?,
        kind,
        enabled: row.get(at + 4)?,
    })
}

fn role_text(role: Role) -> &'static str {
    match role {
        Role::Teacher => "teacher",
        Role::Student => "student",
    }
}

/// The columns of `contest_invites` (as `i`) that [`invite_row`] reads.
const INVITE_COLUMNS: &str = "i.id, i.team, i.kind, i.reset_member, i.created_by, \
     i.created_at, i.expires_at, i.used_at, i.withdrawn";

fn invite_row(row: &Row) -> Result<StoredInvite, SeasonError> {
    let kind: String = row.get(2)?;
    let reset: Option<i64> = row.get(3)?;
    let kind = match (kind.as_str(), reset) {
        ("teacher", None) => InviteKind::Teacher,
        ("student", None) => InviteKind::Student,
        ("password_reset", Some(member)) => InviteKind::PasswordReset {
            member: MemberId(member),
        },
        (kind, reset) => {
            return Err(corrupt(
                "invite",
                format!("kind `{kind}` for member {reset:?}"),
            ));
        }
    };
    Ok(StoredInvite {
        id: InviteId(row.get(0)?),
        invite: Invite {
            team: TeamId(row.get(1)?),
            kind,
            created_by: row.get::<Option<i64>>(4)?.map(MemberId),
            created_at: Timestamp(row.get(5)?),
            expires_at: Timestamp(row.get(6)?),
            used_at: row.get::<Option<i64>>(7)?.map(Timestamp),
            withdrawn: row.get(8)?,
        },
    })
}

/// The columns of `contest_sessions` (as `s`) that [`session_row`] reads.
const SESSION_COLUMNS: &str =
    "s.id, s.member, s.signed_in_at, s.last_used_at, s.user_agent, s.address";

fn session_row(row: &Row) -> Result<StoredSession, SeasonError> {
    Ok(StoredSession {
        id: SessionId(row.get(0)?),
        session: Session {
            member: MemberId(row.get(1)?),
            signed_in_at: Timestamp(row.get(2)?),
            last_used_at: Timestamp(row.get(3)?),
        },
        origin: SessionOrigin {
            user_agent: row.get(4)?,
            address: row.get(5)?,
        },
    })
}

/// Team `team` of the contest.
async fn team(db: &mut Sql<'_>, contest: i64, team: TeamId) -> Result<Team, SeasonError> {
    let row = db
        .query_opt(
            &format!(
                "SELECT {TEAM_COLUMNS} FROM contest_teams t WHERE t.contest = $1 AND t.id = $2"
            ),
            &[contest.into(), team.0.into()],
        )
        .await?;
    match row {
        Some(row) => team_row(&row),
        None => refuse(StoreError::NotFound("team")),
    }
}

/// Account `member` of the contest.
async fn account(db: &mut Sql<'_>, contest: i64, member: MemberId) -> Result<Account, SeasonError> {
    let row = db
        .query_opt(
            &format!(
                "SELECT {ACCOUNT_COLUMNS} FROM contest_accounts a WHERE a.contest = $1 AND a.id = $2"
            ),
            &[contest.into(), member.0.into()],
        )
        .await?;
    match row {
        Some(row) => account_row(&row, 0),
        None => refuse(StoreError::NotFound("account")),
    }
}

/// Whether the team of `account` is enabled (an organiser's: yes).
async fn team_enabled(
    db: &mut Sql<'_>,
    contest: i64,
    account: &Account,
) -> Result<bool, SeasonError> {
    match account.kind {
        AccountKind::Organiser => Ok(true),
        AccountKind::Member { team: of, .. } => Ok(team(db, contest, of).await?.enabled),
    }
}

/// Makes an account of `kind`; [`StoreError::Taken`] when its name is a
/// person's already.
async fn add_account(
    db: &mut Sql<'_>,
    contest: i64,
    new: &NewAccount,
    kind: AccountKind,
) -> Result<Account, SeasonError> {
    let (team, role) = match kind {
        AccountKind::Organiser => (None, None),
        AccountKind::Member { team, role } => (Some(team.0), Some(role_text(role))),
    };
    let key = new.login_key();
    let made = db
        .query_opt(
            "INSERT INTO contest_accounts (contest, display_name, login_key, password_hash, team, role) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (contest, login_key) DO NOTHING RETURNING id",
            &[
                contest.into(),
                new.display_name.as_str().into(),
                key.as_str().into(),
                new.password_hash.as_str().into(),
                team.into(),
                role.into(),
            ],
        )
        .await?;
    match made {
        Some(row) => Ok(Account {
            id: MemberId(row.get(0)?),
            display_name: new.display_name.clone(),
            kind,
            enabled: true,
        }),
        None => refuse(StoreError::Taken(new.display_name.clone())),
    }
}

/// Ends every session of `member`.
async fn end_sessions(db: &mut Sql<'_>, member: MemberId) -> Result<(), SeasonError> {
    db.execute(
        "DELETE FROM contest_sessions WHERE member = $1",
        &[member.0.into()],
    )
    .await
    .map(drop)
}

/// Withdraws `member`'s unused password-reset links.
async fn withdraw_resets(db: &mut Sql<'_>, member: MemberId) -> Result<(), SeasonError> {
    db.execute(
        "UPDATE contest_invites SET withdrawn = 1 \
         WHERE reset_member = $1 AND used_at IS NULL AND withdrawn = 0",
        &[member.0.into()],
    )
    .await
    .map(drop)
}

/// The contest's invite of `token`, with whether it may be used as far as
/// its team, its maker (an account that still exists, enabled, of an
/// enabled team) and (for a reset) its member go.
async fn invite_of(
    db: &mut Sql<'_>,
    contest: i64,
    token: &TokenDigest,
) -> Result<Option<(StoredInvite, bool)>, SeasonError> {
    let row = db
        .query_opt(
            &format!(
                "SELECT {INVITE_COLUMNS}, t.enabled, m.enabled, k.id, k.enabled, kt.enabled \
                 FROM contest_invites i \
                 JOIN contest_teams t ON t.id = i.team \
                 LEFT JOIN contest_accounts m ON m.id = i.reset_member \
                 LEFT JOIN contest_accounts k ON k.id = i.created_by \
                 LEFT JOIN contest_teams kt ON kt.id = k.team \
                 WHERE i.token = $1 AND t.contest = $2"
            ),
            &[digest(token), contest.into()],
        )
        .await?;
    row.map(|row| {
        let invite = invite_row(&row)?;
        let team_enabled: bool = row.get(9)?;
        let member_enabled: Option<bool> = row.get(10)?;
        let maker_enabled = match invite.invite.created_by {
            // The administrator's link: no account to disable.
            None => true,
            Some(_) => {
                let (maker, enabled, team): (Option<i64>, Option<bool>, Option<bool>) =
                    (row.get(11)?, row.get(12)?, row.get(13)?);
                maker.is_some() && enabled == Some(true) && team != Some(false)
            }
        };
        Ok((
            invite,
            team_enabled && member_enabled.unwrap_or(true) && maker_enabled,
        ))
    })
    .transpose()
}

/// The invite of `token` if it may be used at `now`.
async fn usable_invite(
    db: &mut Sql<'_>,
    contest: i64,
    token: &TokenDigest,
    now: Timestamp,
) -> Result<StoredInvite, SeasonError> {
    let Some((stored, enabled)) = invite_of(db, contest, token).await? else {
        return refuse(StoreError::NotFound("invite"));
    };
    match stored.invite.check(now, enabled) {
        Ok(()) => Ok(stored),
        Err(why) => refuse(StoreError::Invite(why)),
    }
}

/// Marks a usable invite used at `now`, by an update that changes it only
/// while it is unused: of two uses at once, the second finds it used
/// (on PostgreSQL it waits for the first's row lock and reads the row
/// anew).
async fn mark_used(db: &mut Sql<'_>, invite: InviteId, now: Timestamp) -> Result<(), SeasonError> {
    let changed = db
        .execute(
            "UPDATE contest_invites SET used_at = $2 \
             WHERE id = $1 AND used_at IS NULL AND withdrawn = 0",
            &[invite.0.into(), now.0.into()],
        )
        .await?;
    if changed != 1 {
        return refuse(StoreError::Invite(InviteError::Used));
    }
    Ok(())
}

impl<D: Database + 'static> ContestAccounts for ContestStore<D> {
    fn describe(&self) -> String {
        format!(
            "the contest {:?} in {}",
            self.contest.name,
            self.db.store_name()
        )
    }

    fn contest(&self) -> StoreFuture<'_, Contest> {
        Box::pin(std::future::ready(Ok(self.contest.clone())))
    }

    fn add_team<'a>(&'a self, name: &'a str, group: Option<GroupId>) -> StoreFuture<'a, Team> {
        let (contest, name) = (self.contest.id.0, name.to_owned());
        self.call(move |db| {
            Box::pin(async move {
                if let Some(group) = group {
                    let known = db
                        .query_opt(
                            "SELECT id FROM contest_groups WHERE contest = $1 AND id = $2",
                            &[contest.into(), group.0.into()],
                        )
                        .await?;
                    if known.is_none() {
                        return refuse(StoreError::NotFound("group"));
                    }
                }
                let key = login_key(&name);
                let made = db
                    .query_opt(
                        "INSERT INTO contest_teams (contest, name, name_key, group_id) \
                         VALUES ($1, $2, $3, $4) ON CONFLICT (contest, name_key) DO NOTHING \
                         RETURNING id",
                        &[
                            contest.into(),
                            name.as_str().into(),
                            key.as_str().into(),
                            group.map(|g| g.0).into(),
                        ],
                    )
                    .await?;
                match made {
                    Some(row) => Ok(Team {
                        id: TeamId(row.get(0)?),
                        name,
                        group,
                        enabled: true,
                        auto_accept_friendly: false,
                    }),
                    None => refuse(StoreError::Taken(name)),
                }
            })
        })
    }

    fn teams(&self) -> StoreFuture<'_, Vec<Team>> {
        let contest = self.contest.id.0;
        self.call(move |db| {
            Box::pin(async move {
                db.query(
                    &format!(
                        "SELECT {TEAM_COLUMNS} FROM contest_teams t WHERE t.contest = $1 ORDER BY t.id"
                    ),
                    &[contest.into()],
                )
                .await?
                .iter()
                .map(team_row)
                .collect()
            })
        })
    }

    fn team(&self, of: TeamId) -> StoreFuture<'_, Team> {
        let contest = self.contest.id.0;
        self.call(move |db| Box::pin(async move { team(db, contest, of).await }))
    }

    fn set_team_enabled(&self, of: TeamId, enabled: bool) -> StoreFuture<'_, ()> {
        let contest = self.contest.id.0;
        self.call(move |db| {
            Box::pin(async move {
                let changed = db
                    .execute(
                        "UPDATE contest_teams SET enabled = $3 WHERE contest = $1 AND id = $2",
                        &[contest.into(), of.0.into(), enabled.into()],
                    )
                    .await?;
                if changed == 0 {
                    return refuse(StoreError::NotFound("team"));
                }
                if !enabled {
                    db.execute(
                        "DELETE FROM contest_sessions WHERE member IN \
                         (SELECT id FROM contest_accounts WHERE team = $1)",
                        &[of.0.into()],
                    )
                    .await?;
                }
                Ok(())
            })
        })
    }

    fn set_auto_accept(&self, of: TeamId, auto_accept: bool) -> StoreFuture<'_, ()> {
        let contest = self.contest.id.0;
        self.call(move |db| {
            Box::pin(async move {
                let changed = db
                    .execute(
                        "UPDATE contest_teams SET auto_accept_friendly = $3 \
                         WHERE contest = $1 AND id = $2",
                        &[contest.into(), of.0.into(), auto_accept.into()],
                    )
                    .await?;
                if changed == 0 {
                    return refuse(StoreError::NotFound("team"));
                }
                Ok(())
            })
        })
    }

    fn members(&self, of: TeamId) -> StoreFuture<'_, Vec<Account>> {
        let contest = self.contest.id.0;
        self.call(move |db| {
            Box::pin(async move {
                team(db, contest, of).await?;
                db.query(
                    &format!(
                        "SELECT {ACCOUNT_COLUMNS} FROM contest_accounts a \
                         WHERE a.contest = $1 AND a.team = $2 ORDER BY a.id"
                    ),
                    &[contest.into(), of.0.into()],
                )
                .await?
                .iter()
                .map(|row| account_row(row, 0))
                .collect()
            })
        })
    }

    fn account(&self, member: MemberId) -> StoreFuture<'_, Account> {
        let contest = self.contest.id.0;
        self.call(move |db| Box::pin(async move { account(db, contest, member).await }))
    }

    fn add_organiser<'a>(&'a self, new: &'a NewAccount) -> StoreFuture<'a, Account> {
        let (contest, new) = (self.contest.id.0, new.clone());
        self.call(move |db| {
            Box::pin(async move { add_account(db, contest, &new, AccountKind::Organiser).await })
        })
    }

    fn credentials<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<Credentials>> {
        let (contest, key) = (self.contest.id.0, key.to_owned());
        self.call(move |db| {
            Box::pin(async move {
                let row = db
                    .query_opt(
                        &format!(
                            "SELECT {ACCOUNT_COLUMNS}, a.password_hash FROM contest_accounts a \
                             WHERE a.contest = $1 AND a.login_key = $2"
                        ),
                        &[contest.into(), key.as_str().into()],
                    )
                    .await?;
                row.map(|row| {
                    Ok(Credentials {
                        account: account_row(&row, 0)?,
                        password_hash: row.get(5)?,
                    })
                })
                .transpose()
            })
        })
    }

    fn set_account_enabled(&self, member: MemberId, enabled: bool) -> StoreFuture<'_, ()> {
        let contest = self.contest.id.0;
        self.call(move |db| {
            Box::pin(async move {
                let changed = db
                    .execute(
                        "UPDATE contest_accounts SET enabled = $3 WHERE contest = $1 AND id = $2",
                        &[contest.into(), member.0.into(), enabled.into()],
                    )
                    .await?;
                if changed == 0 {
                    return refuse(StoreError::NotFound("account"));
                }
                if !enabled {
                    end_sessions(db, member).await?;
                }
                Ok(())
            })
        })
    }

    fn remove_member(&self, of: TeamId, member: MemberId) -> StoreFuture<'_, ()> {
        let contest = self.contest.id.0;
        self.call(move |db| {
            Box::pin(async move {
                let removed = account(db, contest, member).await?;
                if !matches!(removed.kind, AccountKind::Member { team, .. } if team == of) {
                    return refuse(StoreError::NotFound("member of this team"));
                }
                end_sessions(db, member).await?;
                db.execute(
                    "DELETE FROM contest_invites WHERE reset_member = $1",
                    &[member.0.into()],
                )
                .await?;
                db.execute(
                    "DELETE FROM contest_accounts WHERE id = $1",
                    &[member.0.into()],
                )
                .await?;
                Ok(())
            })
        })
    }

    fn add_invite<'a>(
        &'a self,
        token: &'a TokenDigest,
        invite: &'a Invite,
    ) -> StoreFuture<'a, StoredInvite> {
        let (contest, token, invite) = (self.contest.id.0, *token, *invite);
        self.call(move |db| {
            Box::pin(async move {
                team(db, contest, invite.team).await?;
                let (kind, reset) = match invite.kind {
                    InviteKind::Teacher => ("teacher", None),
                    InviteKind::Student => ("student", None),
                    InviteKind::PasswordReset { member } => {
                        let whose = account(db, contest, member).await?;
                        if !matches!(whose.kind, AccountKind::Member { team, .. } if team == invite.team)
                        {
                            return refuse(StoreError::Refused(
                                "a password reset names a member of its team",
                            ));
                        }
                        ("password_reset", Some(member.0))
                    }
                };
                match invite.kind {
                    // One open reset link per member: a new one ends the old.
                    InviteKind::PasswordReset { member } => withdraw_resets(db, member).await?,
                    InviteKind::Teacher | InviteKind::Student => {
                        // Counted under the team's row lock (PostgreSQL), so
                        // that links made at once cannot pass the cap together.
                        db.execute(
                            "UPDATE contest_teams SET enabled = enabled WHERE id = $1",
                            &[invite.team.0.into()],
                        )
                        .await?;
                        let open: i64 = db
                            .query_opt(
                                "SELECT count(*) FROM contest_invites WHERE team = $1 \
                                 AND kind IN ('teacher', 'student') AND used_at IS NULL \
                                 AND withdrawn = 0 AND expires_at > $2",
                                &[invite.team.0.into(), invite.created_at.0.into()],
                            )
                            .await?
                            .map_or(Ok(0), |row| row.get(0))?;
                        if usize::try_from(open).unwrap_or(usize::MAX) >= MAX_OPEN_LINKS_PER_TEAM {
                            return refuse(StoreError::Refused(TOO_MANY_LINKS));
                        }
                    }
                }
                let made = db
                    .query_opt(
                        "INSERT INTO contest_invites (token, team, kind, reset_member, created_by, \
                         created_at, expires_at, used_at, withdrawn) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
                         ON CONFLICT (token) DO NOTHING RETURNING id",
                        &[
                            digest(&token),
                            invite.team.0.into(),
                            kind.into(),
                            reset.into(),
                            invite.created_by.map(|m| m.0).into(),
                            invite.created_at.0.into(),
                            invite.expires_at.0.into(),
                            invite.used_at.map(|t| t.0).into(),
                            invite.withdrawn.into(),
                        ],
                    )
                    .await?;
                match made {
                    Some(row) => Ok(StoredInvite {
                        id: InviteId(row.get(0)?),
                        invite,
                    }),
                    None => refuse(StoreError::Refused("this token is in use")),
                }
            })
        })
    }

    fn invite<'a>(&'a self, token: &'a TokenDigest) -> StoreFuture<'a, Option<StoredInvite>> {
        let (contest, token) = (self.contest.id.0, *token);
        self.call(move |db| {
            Box::pin(async move {
                Ok(invite_of(db, contest, &token)
                    .await?
                    .map(|(invite, _)| invite))
            })
        })
    }

    fn invites(&self, of: TeamId) -> StoreFuture<'_, Vec<StoredInvite>> {
        let contest = self.contest.id.0;
        self.call(move |db| {
            Box::pin(async move {
                team(db, contest, of).await?;
                db.query(
                    &format!(
                        "SELECT {INVITE_COLUMNS} FROM contest_invites i WHERE i.team = $1 \
                         ORDER BY i.id DESC"
                    ),
                    &[of.0.into()],
                )
                .await?
                .iter()
                .map(invite_row)
                .collect()
            })
        })
    }

    fn withdraw_invite(&self, of: TeamId, invite: InviteId) -> StoreFuture<'_, ()> {
        let contest = self.contest.id.0;
        self.call(move |db| {
            Box::pin(async move {
                let known = db
                    .query_opt(
                        "SELECT i.id FROM contest_invites i JOIN contest_teams t ON t.id = i.team \
                         WHERE i.id = $1 AND i.team = $2 AND t.contest = $3",
                        &[invite.0.into(), of.0.into(), contest.into()],
                    )
                    .await?;
                if known.is_none() {
                    return refuse(StoreError::NotFound("invite of this team"));
                }
                let changed = db
                    .execute(
                        "UPDATE contest_invites SET withdrawn = 1 WHERE id = $1 AND used_at IS NULL",
                        &[invite.0.into()],
                    )
                    .await?;
                if changed == 0 {
                    return refuse(StoreError::Invite(InviteError::Used));
                }
                Ok(())
            })
        })
    }

    fn join<'a>(
        &'a self,
        token: &'a TokenDigest,
        new: &'a NewAccount,
        now: Timestamp,
    ) -> StoreFuture<'a, Account> {
        let (contest, token, new) = (self.contest.id.0, *token, new.clone());
        self.call(move |db| {
            Box::pin(async move {
                let stored = usable_invite(db, contest, &token, now).await?;
                let Some(role) = stored.invite.role_granted() else {
                    return refuse(StoreError::Refused("this link sets a password"));
                };
                mark_used(db, stored.id, now).await?;
                let kind = AccountKind::Member {
                    team: stored.invite.team,
                    role,
                };
                // A taken name fails the transaction: the link stays unused.
                add_account(db, contest, &new, kind).await
            })
        })
    }

    fn reset_password<'a>(
        &'a self,
        token: &'a TokenDigest,
        password_hash: &'a str,
        now: Timestamp,
    ) -> StoreFuture<'a, Account> {
        let (contest, token, hash) = (self.contest.id.0, *token, password_hash.to_owned());
        self.call(move |db| {
            Box::pin(async move {
                let stored = usable_invite(db, contest, &token, now).await?;
                let InviteKind::PasswordReset { member } = stored.invite.kind else {
                    return refuse(StoreError::Refused("this link is no password reset"));
                };
                mark_used(db, stored.id, now).await?;
                db.execute(
                    "UPDATE contest_accounts SET password_hash = $2 WHERE id = $1",
                    &[member.0.into(), hash.as_str().into()],
                )
                .await?;
                withdraw_resets(db, member).await?;
                end_sessions(db, member).await?;
                account(db, contest, member).await
            })
        })
    }

    fn set_password<'a>(&'a self, member: MemberId, password_hash: &'a str) -> StoreFuture<'a, ()> {
        let (contest, hash) = (self.contest.id.0, password_hash.to_owned());
        self.call(move |db| {
            Box::pin(async move {
                let changed = db
                    .execute(
                        "UPDATE contest_accounts SET password_hash = $3 \
                         WHERE contest = $1 AND id = $2",
                        &[contest.into(), member.0.into(), hash.as_str().into()],
                    )
                    .await?;
                if changed == 0 {
                    return refuse(StoreError::NotFound("account"));
                }
                withdraw_resets(db, member).await?;
                end_sessions(db, member).await
            })
        })
    }

    fn rehash_password<'a>(
        &'a self,
        member: MemberId,
        old: &'a str,
        new: &'a str,
    ) -> StoreFuture<'a, bool> {
        let (contest, old, new) = (self.contest.id.0, old.to_owned(), new.to_owned());
        self.call(move |db| {
            Box::pin(async move {
                account(db, contest, member).await?;
                // Only the hash that was read is replaced: a password set
                // meanwhile wins.
                let changed = db
                    .execute(
                        "UPDATE contest_accounts SET password_hash = $3 \
                         WHERE id = $1 AND password_hash = $2",
                        &[member.0.into(), old.as_str().into(), new.as_str().into()],
                    )
                    .await?;
                Ok(changed == 1)
            })
        })
    }

    fn open_session<'a>(
        &'a self,
        token: &'a TokenDigest,
        member: MemberId,
        origin: &'a SessionOrigin,
        now: Timestamp,
    ) -> StoreFuture<'a, StoredSession> {
        let (contest, token, origin) = (self.contest.id.0, *token, origin.clone());
        let settings = self.contest.settings.clone();
        self.call(move |db| {
            Box::pin(async move {
                let whose = account(db, contest, member).await?;
                if !whose.enabled || !team_enabled(db, contest, &whose).await? {
                    return refuse(StoreError::Refused("this account is disabled"));
                }
                // The account's expired sessions go; of its live ones, the
                // one signed in first ends when there are as many as allowed
                // (counted under the account's row lock on PostgreSQL, so
                // that sign-ins at once cannot pass the cap together).
                db.execute(
                    "UPDATE contest_accounts SET enabled = enabled WHERE id = $1",
                    &[member.0.into()],
                )
                .await?;
                let mut live = Vec::new();
                let rows = db
                    .query(
                        &format!(
                            "SELECT {SESSION_COLUMNS} FROM contest_sessions s WHERE s.member = $1 \
                             ORDER BY s.signed_in_at, s.id"
                        ),
                        &[member.0.into()],
                    )
                    .await?;
                for row in &rows {
                    let session = session_row(row)?;
                    if session.session.state(now, &settings) == SessionState::Live {
                        live.push(session.id);
                    } else {
                        db.execute(
                            "DELETE FROM contest_sessions WHERE id = $1",
                            &[session.id.0.into()],
                        )
                        .await?;
                    }
                }
                if live.len() >= MAX_SESSIONS_PER_ACCOUNT
                    && let Some(first) = live.first()
                {
                    db.execute(
                        "DELETE FROM contest_sessions WHERE id = $1",
                        &[first.0.into()],
                    )
                    .await?;
                }
                let made = db
                    .query_opt(
                        "INSERT INTO contest_sessions \
                         (token, member, signed_in_at, last_used_at, user_agent, address) \
                         VALUES ($1, $2, $3, $3, $4, $5) ON CONFLICT (token) DO NOTHING RETURNING id",
                        &[
                            digest(&token),
                            member.0.into(),
                            now.0.into(),
                            origin.user_agent.as_str().into(),
                            origin.address.as_str().into(),
                        ],
                    )
                    .await?;
                match made {
                    Some(row) => Ok(StoredSession {
                        id: SessionId(row.get(0)?),
                        session: Session::new(member, now),
                        origin,
                    }),
                    None => refuse(StoreError::Refused("this token is in use")),
                }
            })
        })
    }

    fn session<'a>(
        &'a self,
        token: &'a TokenDigest,
        now: Timestamp,
    ) -> StoreFuture<'a, Option<SignedIn>> {
        let (contest, token) = (self.contest.id.0, *token);
        let settings = self.contest.settings.clone();
        self.call(move |db| {
            Box::pin(async move {
                let row = db
                    .query_opt(
                        &format!(
                            "SELECT {SESSION_COLUMNS}, {ACCOUNT_COLUMNS}, t.enabled \
                             FROM contest_sessions s JOIN contest_accounts a ON a.id = s.member \
                             LEFT JOIN contest_teams t ON t.id = a.team \
                             WHERE s.token = $1 AND a.contest = $2"
                        ),
                        &[digest(&token), contest.into()],
                    )
                    .await?;
                let Some(row) = row else {
                    return Ok(None);
                };
                let mut session = session_row(&row)?;
                let account = account_row(&row, 6)?;
                let team_enabled = row.get::<Option<bool>>(11)?.unwrap_or(true);
                if session.session.state(now, &settings) != SessionState::Live || !account.enabled {
                    // Ended for good: deleted, never revived.
                    db.execute(
                        "DELETE FROM contest_sessions WHERE id = $1",
                        &[session.id.0.into()],
                    )
                    .await?;
                    return Ok(None);
                }
                // A lookup writes only when the use moved by the step: most
                // requests of a page read and write nothing.
                if session.session.records_use_at(now) {
                    db.execute(
                        "UPDATE contest_sessions SET last_used_at = $2 WHERE id = $1",
                        &[session.id.0.into(), now.0.into()],
                    )
                    .await?;
                    session.session.last_used_at = now;
                }
                Ok(Some(SignedIn {
                    session,
                    account,
                    team_enabled,
                }))
            })
        })
    }

    fn sessions(&self, member: MemberId, now: Timestamp) -> StoreFuture<'_, Vec<StoredSession>> {
        let contest = self.contest.id.0;
        let settings = self.contest.settings.clone();
        self.call(move |db| {
            Box::pin(async move {
                let rows = db
                    .query(
                        &format!(
                            "SELECT {SESSION_COLUMNS} FROM contest_sessions s \
                             JOIN contest_accounts a ON a.id = s.member \
                             WHERE s.member = $1 AND a.contest = $2 \
                             ORDER BY s.signed_in_at DESC, s.id DESC"
                        ),
                        &[member.0.into(), contest.into()],
                    )
                    .await?;
                let mut live = Vec::with_capacity(rows.len());
                for row in &rows {
                    let session = session_row(row)?;
                    if session.session.state(now, &settings) == SessionState::Live {
                        live.push(session);
                    }
                }
                Ok(live)
            })
        })
    }

    fn end_session(&self, member: MemberId, session: SessionId) -> StoreFuture<'_, ()> {
        self.call(move |db| {
            Box::pin(async move {
                let changed = db
                    .execute(
                        "DELETE FROM contest_sessions WHERE id = $1 AND member = $2",
                        &[session.0.into(), member.0.into()],
                    )
                    .await?;
                if changed == 0 {
                    return refuse(StoreError::NotFound("session of yours"));
                }
                Ok(())
            })
        })
    }

    fn end_session_of<'a>(&'a self, token: &'a TokenDigest) -> StoreFuture<'a, ()> {
        let token = *token;
        self.call(move |db| {
            Box::pin(async move {
                db.execute(
                    "DELETE FROM contest_sessions WHERE token = $1",
                    &[digest(&token)],
                )
                .await
                .map(drop)
            })
        })
    }
}
