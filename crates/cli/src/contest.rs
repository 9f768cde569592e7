//! `spielleiter contest …`: the organiser's commands for the contest of a
//! store (a SQLite file or a PostgreSQL database, the season store's; one
//! contest per store): make it and see it, add teams — each with a
//! one-time link for its teacher — disable and enable teams and members,
//! print a new teacher's link or a member's password-reset link, and add
//! organisers' accounts. The teams come in through those links on the
//! pages `serve --store` shows (`spielleiter_web::accounts`).
//!
//! A link is printed once and never stored: the store keeps only its
//! token's digest. A team's versions, the matchdays and the standings are
//! `matchdays`'.

use std::sync::Arc;

use anyhow::Context;
use clap::{Args, Subcommand};
use spielleiter_contest::{
    Account, AccountKind, ContestAccounts, ContestSettings, Invite, InviteKind, NewAccount, Role,
    StoreError, Team, Timestamp, check_display_name, check_password, check_team_name, login_key,
};
use spielleiter_rules::GameType;
use spielleiter_season::{
    AnyStore, ContestStore, Created, NewContest, SeasonError, create_contest, sql::Database,
};
use spielleiter_web::accounts::{PasswordParams, Passwords, secrets};

mod knockout;
mod matchdays;

/// The pages' address a printed link starts with when `--web-url` is not
/// given: `serve`'s own web port on this machine.
pub const DEFAULT_WEB_URL: &str = "http://localhost:13080";

/// Where the contest is kept.
#[derive(Debug, Args)]
pub struct StoreArgs {
    /// The store: a SQLite file (`contest.sqlite`, `sqlite:PATH`) or a
    /// PostgreSQL database (`postgres://USER:PASSWORD@HOST:PORT/DATABASE`,
    /// or `host=HOST dbname=DATABASE user=USER password=PASSWORD`). Its
    /// password is shown as `***` wherever the store is named.
    #[arg(
        long,
        env = "SPIELLEITER_STORE",
        hide_env_values = true,
        value_name = "URL"
    )]
    pub store: String,
}

/// Where a printed link points.
#[derive(Debug, Args)]
pub struct WebUrlArgs {
    /// The pages' public address the link starts with, as the teams reach
    /// `serve`'s web side (`https://contest.example.org`).
    #[arg(long, value_name = "URL", default_value = DEFAULT_WEB_URL)]
    pub web_url: String,
}

impl WebUrlArgs {
    /// The address, checked (before anything is written).
    fn checked(&self) -> anyhow::Result<String> {
        crate::web_url::parse_web_url(&self.web_url)
            .map_err(|why| anyhow::anyhow!("--web-url {why}"))
    }
}

/// `contest` subcommands.
#[derive(Debug, Subcommand)]
pub enum ContestCommand {
    /// Make the store's contest: its game, name and seed (idempotent: the
    /// same contest again changes nothing; a store holds one contest).
    Create(CreateArgs),
    /// The contest: its game and seed, its teams with their members.
    Status(StatusArgs),
    /// Add, disable or enable a team.
    Team {
        #[command(subcommand)]
        command: TeamCommand,
    },
    /// Disable or enable a member's account (or an organiser's).
    Member {
        #[command(subcommand)]
        command: MemberCommand,
    },
    /// Print a new one-time link for a team's teacher (when the first one
    /// expired or was lost).
    Invite(InviteArgs),
    /// Print a one-time link for a member to set a new password.
    Reset(ResetArgs),
    /// Add an organiser's account (the organiser's pages without the
    /// administrator's passphrase).
    Organiser {
        #[command(subcommand)]
        command: OrganiserCommand,
    },
    /// Add, list or activate a team's versions.
    Version {
        #[command(subcommand)]
        command: matchdays::VersionCommand,
    },
    /// Make, play (freeze and schedule), show or publish a matchday.
    Matchday {
        #[command(subcommand)]
        command: matchdays::MatchdayCommand,
    },
    /// The tables of a phase, from the stored results.
    Standings(matchdays::StandingsArgs),
    /// The final's knockout: make its bracket, play, publish or show a
    /// round.
    Final {
        #[command(subcommand)]
        command: knockout::FinalCommand,
    },
}

/// Who plays for a team without an active version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StandInArg {
    /// The built-in `random` bot.
    Random,
    /// Nobody: the team loses its encounter's games unplayed.
    Forfeit,
}

/// `contest organiser` subcommands.
#[derive(Debug, Subcommand)]
pub enum OrganiserCommand {
    /// Add an organiser's account; its password is read from standard
    /// input (one line: pipe it in, so that it shows on no terminal), and
    /// hashed with the config file's `[contest]` parameters.
    Add(OrganiserAddArgs),
}

/// `contest organiser add`.
#[derive(Debug, Args)]
pub struct OrganiserAddArgs {
    /// The organiser's display name (as they sign in).
    #[arg(value_name = "NAME")]
    name: String,
    #[command(flatten)]
    store: StoreArgs,
    /// The server's config file, for the password's hashing parameters
    /// [default: as `serve` finds it].
    #[arg(long, value_name = "FILE")]
    config: Option<std::path::PathBuf>,
}

/// `contest team` subcommands.
#[derive(Debug, Subcommand)]
pub enum TeamCommand {
    /// Add a team and print the one-time link for its teacher.
    Add(TeamAddArgs),
    /// Disable a team: its members sign in no more (their sessions end)
    /// and its links stop working.
    Disable(TeamArgs),
    /// Enable a disabled team again.
    Enable(TeamArgs),
}

/// `contest member` subcommands.
#[derive(Debug, Subcommand)]
pub enum MemberCommand {
    /// Disable an account: it signs in no more, its sessions end.
    Disable(MemberArgs),
    /// Enable a disabled account again.
    Enable(MemberArgs),
}

/// `contest create`.
#[derive(Debug, Args)]
pub struct CreateArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// The game every encounter plays.
    #[arg(long, value_name = "ID")]
    game: GameType,
    /// The contest's name for people [default: the game's id and the
    /// year].
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// The seed every game, draw and lot of the contest derives from
    /// [default: from the OS].
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Games of an encounter (even: each side moves first in half).
    #[arg(long, value_name = "N", default_value_t = spielleiter_contest::defaults::GAMES_PER_ENCOUNTER)]
    games_per_encounter: u32,
    /// Who plays for a team without an active version at a matchday's
    /// deadline.
    #[arg(long, value_enum, default_value = "random")]
    stand_in: StandInArg,
    /// When a matchday's or knockout round's results become everybody's:
    /// when an organiser publishes them, or as soon as every game is
    /// played (an organiser may still take them back).
    #[arg(long, value_enum, default_value = "manual")]
    publication: PublicationArg,
    /// The best K of each championship group play the champions league.
    #[arg(long, value_name = "K", default_value_t = spielleiter_contest::defaults::CHAMPIONS_LEAGUE_SIZE)]
    champions_league_size: u32,
    /// Games of a version's test against the built-in random bot (even).
    #[arg(long, value_name = "N", default_value_t = spielleiter_contest::defaults::TEST_GAMES)]
    test_games: u32,
    /// Games of a friendly encounter (even).
    #[arg(long, value_name = "N", default_value_t = spielleiter_contest::defaults::GAMES_PER_FRIENDLY)]
    games_per_friendly: u32,
    /// Friendly encounters a team may start an hour (0: none).
    #[arg(long, value_name = "N", default_value_t = spielleiter_contest::defaults::FRIENDLY_CHALLENGES_PER_HOUR)]
    friendly_challenges_per_hour: u32,
}

/// When results become public.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PublicationArg {
    /// `contest matchday publish N` / `contest final publish ROUND`.
    Manual,
    /// Once played to the end.
    Automatic,
}

/// `contest status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    store: StoreArgs,
}

/// `contest team add`.
#[derive(Debug, Args)]
pub struct TeamAddArgs {
    /// The team's name, shown publicly.
    #[arg(value_name = "NAME")]
    name: String,
    #[command(flatten)]
    store: StoreArgs,
    /// The team's championship group (made when the contest has none of
    /// that name).
    #[arg(long, value_name = "G")]
    group: Option<String>,
    #[command(flatten)]
    web: WebUrlArgs,
}

/// `contest team disable|enable`.
#[derive(Debug, Args)]
pub struct TeamArgs {
    /// The team's name.
    #[arg(value_name = "NAME")]
    name: String,
    #[command(flatten)]
    store: StoreArgs,
}

/// `contest member disable|enable`.
#[derive(Debug, Args)]
pub struct MemberArgs {
    /// The member's display name (as they sign in).
    #[arg(value_name = "NAME")]
    name: String,
    #[command(flatten)]
    store: StoreArgs,
}

/// `contest invite`.
#[derive(Debug, Args)]
pub struct InviteArgs {
    /// The team whose teacher the link makes.
    #[arg(value_name = "TEAM")]
    team: String,
    #[command(flatten)]
    store: StoreArgs,
    #[command(flatten)]
    web: WebUrlArgs,
}

/// `contest reset`.
#[derive(Debug, Args)]
pub struct ResetArgs {
    /// The member's display name (as they sign in).
    #[arg(value_name = "MEMBER")]
    member: String,
    #[command(flatten)]
    store: StoreArgs,
    #[command(flatten)]
    web: WebUrlArgs,
}

/// Runs a `contest` subcommand.
pub fn run(command: &ContestCommand) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        match command {
            ContestCommand::Create(args) => create(args).await,
            ContestCommand::Status(args) => status(args).await,
            ContestCommand::Team { command } => match command {
                TeamCommand::Add(args) => add_team(args).await,
                TeamCommand::Disable(args) => set_team_enabled(args, false).await,
                TeamCommand::Enable(args) => set_team_enabled(args, true).await,
            },
            ContestCommand::Member { command } => match command {
                MemberCommand::Disable(args) => set_member_enabled(args, false).await,
                MemberCommand::Enable(args) => set_member_enabled(args, true).await,
            },
            ContestCommand::Invite(args) => invite(args).await,
            ContestCommand::Reset(args) => reset(args).await,
            ContestCommand::Organiser {
                command: OrganiserCommand::Add(args),
            } => add_organiser(args).await,
            ContestCommand::Version { command } => matchdays::version(command).await,
            ContestCommand::Matchday { command } => matchdays::matchday(command).await,
            ContestCommand::Standings(args) => matchdays::standings(args).await,
            ContestCommand::Final { command } => knockout::final_round(command).await,
        }
    })
}

/// Now, by the system's clock.
fn now() -> Timestamp {
    Timestamp(jiff::Timestamp::now().as_second())
}

/// An instant as people read it, in UTC.
fn shown(at: Timestamp) -> String {
    jiff::Timestamp::from_second(at.0).map_or_else(
        |_| at.to_string(),
        |t| t.strftime("%Y-%m-%d %H:%M UTC").to_string(),
    )
}

async fn create(args: &CreateArgs) -> anyhow::Result<()> {
    let name = match &args.name {
        Some(name) => name.trim().to_owned(),
        None => format!("{} {}", args.game.id(), jiff::Zoned::now().year()),
    };
    // Refused before the store is opened: a refused contest writes nothing.
    check_team_name(&name).map_err(|error| {
        anyhow::anyhow!(
            "the contest's name is refused: {}",
            error.to_string().replace("team name", "name")
        )
    })?;
    let settings = ContestSettings {
        games_per_encounter: args.games_per_encounter,
        stand_in: match args.stand_in {
            StandInArg::Random => spielleiter_contest::StandIn::RandomBot,
            StandInArg::Forfeit => spielleiter_contest::StandIn::Forfeit,
        },
        champions_league_size: args.champions_league_size,
        publication: match args.publication {
            PublicationArg::Manual => spielleiter_contest::Publication::Manual,
            PublicationArg::Automatic => spielleiter_contest::Publication::Automatic,
        },
        test_games: args.test_games,
        games_per_friendly: args.games_per_friendly,
        friendly_challenges_per_hour: args.friendly_challenges_per_hour,
        ..ContestSettings::default()
    };
    // Refused before the store is opened, in the settings' own words.
    settings
        .check()
        .map_err(|error| anyhow::anyhow!("{error}"))?;
    let store = spielleiter_season::open(&args.store.store).await?;
    let new = NewContest {
        name,
        game: args.game,
        seed: args.seed,
        settings,
    };
    let (contest, created) = create_contest(&store, &new, rand::random).await?;
    let store_name = store.store_name();
    match created {
        Created::New => println!(
            "contest \"{}\" created in {store_name}: game {}, seed {}",
            contest.name,
            contest.game.id(),
            contest.seed
        ),
        Created::Existing => println!(
            "contest \"{}\" is already in {store_name}; nothing changed",
            contest.name
        ),
    }
    Ok(())
}

/// The accounts of the contest in the store `args` names (which must be
/// there).
async fn open(args: &StoreArgs) -> anyhow::Result<ContestStore<AnyStore>> {
    let store = match spielleiter_season::open_existing(&args.store).await {
        Ok(store) => store,
        Err(SeasonError::Missing { store }) => anyhow::bail!(
            "{store} does not exist; `spielleiter contest create --store …` makes one"
        ),
        Err(error) => return Err(error.into()),
    };
    Ok(ContestStore::open(Arc::new(store)).await?)
}

/// The contest's team named `name` (by its lower-case key).
async fn team_named(store: &ContestStore<AnyStore>, name: &str) -> anyhow::Result<Team> {
    let teams = store.teams().await?;
    let key = login_key(name.trim());
    if let Some(team) = teams.iter().find(|team| login_key(&team.name) == key) {
        return Ok(team.clone());
    }
    let names: Vec<String> = teams
        .iter()
        .take(20)
        .map(|t| format!("\"{}\"", t.name))
        .collect();
    let held = if names.is_empty() {
        "it has none; `spielleiter contest team add NAME` adds one".to_owned()
    } else {
        format!(
            "it has {}{}",
            names.join(", "),
            if teams.len() > 20 { ", …" } else { "" }
        )
    };
    anyhow::bail!(
        "the contest \"{}\" has no team named \"{name}\" ({held})",
        store.record().name
    )
}

/// The contest's account that signs in as `name`.
async fn account_named(store: &ContestStore<AnyStore>, name: &str) -> anyhow::Result<Account> {
    match store.credentials(&login_key(name.trim())).await? {
        Some(credentials) => Ok(credentials.account),
        None => anyhow::bail!(
            "the contest \"{}\" has nobody named \"{name}\" (members are named as they sign in)",
            store.record().name
        ),
    }
}

/// Stores a new one-time link of `kind` for `team`, made by the
/// administrator; the link and when it expires.
async fn new_link(
    store: &ContestStore<AnyStore>,
    team: &Team,
    kind: InviteKind,
    web_url: &str,
) -> anyhow::Result<(String, Timestamp)> {
    let invite = Invite::new(team.id, kind, None, now(), &store.record().settings);
    let token = secrets::new_token();
    store.add_invite(&secrets::digest(&token), &invite).await?;
    Ok((
        format!("{web_url}/contest/invite/{token}"),
        invite.expires_at,
    ))
}

async fn status(args: &StatusArgs) -> anyhow::Result<()> {
    let store = open(&args.store).await?;
    let contest = store.record();
    println!(
        "contest \"{}\" in {}: game {}, seed {}",
        contest.name,
        store.database().store_name(),
        contest.game.id(),
        contest.seed
    );
    let settings = &contest.settings;
    let friendly = match settings.friendly_challenges_per_hour {
        0 => "no friendly challenges".to_owned(),
        n => format!("at most {n} friendly challenges a team an hour"),
    };
    println!(
        "games: {} an encounter, {} a version's test, {} a friendly encounter ({friendly})",
        settings.games_per_encounter, settings.test_games, settings.games_per_friendly
    );
    let teams = store.teams().await?;
    let disabled = teams.iter().filter(|team| !team.enabled).count();
    println!("{} teams ({disabled} disabled)", teams.len());
    for team in &teams {
        let members = store.members(team.id).await?;
        let group = match team.group {
            Some(group) => store
                .group_name(group)
                .await?
                .map_or_else(String::new, |name| format!(", group {name}")),
            None => String::new(),
        };
        let state = if team.enabled { "" } else { ", disabled" };
        let names: Vec<String> = members
            .iter()
            .map(|member| {
                let role = match member.kind {
                    AccountKind::Member {
                        role: Role::Teacher,
                        ..
                    } => " (teacher)",
                    _ => "",
                };
                let off = if member.enabled { "" } else { " (disabled)" };
                format!("{}{role}{off}", member.display_name)
            })
            .collect();
        let listed = if names.is_empty() {
            "no members yet".to_owned()
        } else {
            format!("{} members: {}", names.len(), names.join(", "))
        };
        println!("  \"{}\"{group}{state}: {listed}", team.name);
    }
    matchdays::status_lines(&store).await
}

async fn add_team(args: &TeamAddArgs) -> anyhow::Result<()> {
    let web_url = args.web.checked()?;
    let name = args.name.trim();
    check_team_name(name).map_err(|error| anyhow::anyhow!("the {error}"))?;
    if let Some(group) = &args.group {
        check_team_name(group.trim()).map_err(|error| {
            anyhow::anyhow!(
                "the group's name is refused: {}",
                error.to_string().replace("team name", "name")
            )
        })?;
    }
    let store = open(&args.store).await?;
    let group = match &args.group {
        Some(group) => Some(store.group(group.trim()).await?),
        None => None,
    };
    let team = match store.add_team(name, group).await {
        Ok(team) => team,
        Err(StoreError::Taken(_)) => anyhow::bail!(
            "the contest \"{}\" has a team named \"{name}\" already (names are compared whatever their case)",
            store.record().name
        ),
        Err(error) => return Err(error.into()),
    };
    let (link, expires) = new_link(&store, &team, InviteKind::Teacher, &web_url).await?;
    println!(
        "team \"{}\" added to the contest \"{}\"; its teacher's one-time link, valid until {}:",
        team.name,
        store.record().name,
        shown(expires)
    );
    println!("{link}");
    Ok(())
}

async fn set_team_enabled(args: &TeamArgs, enabled: bool) -> anyhow::Result<()> {
    let store = open(&args.store).await?;
    let team = team_named(&store, &args.name).await?;
    store.set_team_enabled(team.id, enabled).await?;
    if enabled {
        println!("team \"{}\" enabled: its members sign in again", team.name);
    } else {
        println!(
            "team \"{}\" disabled: its members' sessions ended, and its links work no more",
            team.name
        );
    }
    Ok(())
}

async fn set_member_enabled(args: &MemberArgs, enabled: bool) -> anyhow::Result<()> {
    let store = open(&args.store).await?;
    let account = account_named(&store, &args.name).await?;
    store.set_account_enabled(account.id, enabled).await?;
    if enabled {
        println!("\"{}\" enabled: they sign in again", account.display_name);
    } else {
        println!(
            "\"{}\" disabled: their sessions ended, and they sign in no more",
            account.display_name
        );
    }
    Ok(())
}

async fn invite(args: &InviteArgs) -> anyhow::Result<()> {
    let web_url = args.web.checked()?;
    let store = open(&args.store).await?;
    let team = team_named(&store, &args.team).await?;
    let (link, expires) = new_link(&store, &team, InviteKind::Teacher, &web_url).await?;
    println!(
        "a one-time link for a teacher of \"{}\", valid until {}:",
        team.name,
        shown(expires)
    );
    println!("{link}");
    Ok(())
}

async fn reset(args: &ResetArgs) -> anyhow::Result<()> {
    let web_url = args.web.checked()?;
    let store = open(&args.store).await?;
    let account = account_named(&store, &args.member).await?;
    let AccountKind::Member { team, .. } = account.kind else {
        anyhow::bail!(
            "\"{}\" is an organiser; a password-reset link is for a team's member",
            account.display_name
        );
    };
    let team = store.team(team).await?;
    let kind = InviteKind::PasswordReset { member: account.id };
    let (link, expires) = new_link(&store, &team, kind, &web_url).await?;
    println!(
        "a one-time link for \"{}\" of \"{}\" to set a new password, valid until {}:",
        account.display_name,
        team.name,
        shown(expires)
    );
    println!("{link}");
    Ok(())
}

/// The password on the first line of standard input, which must not be
/// a terminal.
fn password_from_stdin() -> anyhow::Result<String> {
    use std::io::{BufRead, IsTerminal, Read};
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        anyhow::bail!(
            "pipe the password into standard input (e.g. `… < password.txt`): typed here, it would show on the terminal"
        );
    }
    let mut line = String::new();
    stdin
        .lock()
        .take(4096)
        .read_line(&mut line)
        .context("cannot read the password from standard input")?;
    Ok(line.trim_end_matches(['\r', '\n']).to_owned())
}

async fn add_organiser(args: &OrganiserAddArgs) -> anyhow::Result<()> {
    let name = args.name.trim();
    check_display_name(name).map_err(|error| anyhow::anyhow!("the {error}"))?;
    let password = password_from_stdin()?;
    check_password(&password).map_err(|error| anyhow::anyhow!("the {error}"))?;
    let config = crate::serve::environment_config(args.config.as_deref())?;
    let passwords = Passwords::new(PasswordParams {
        memory_kib: config.contest_password_memory_kib,
        iterations: config.contest_password_passes,
        parallelism: config.contest_password_lanes,
    })?;
    let account = NewAccount {
        display_name: name.to_owned(),
        password_hash: passwords.hash(&password).await?,
    };
    let store = open(&args.store).await?;
    match store.add_organiser(&account).await {
        Ok(_) => {}
        Err(StoreError::Taken(_)) => anyhow::bail!(
            "the contest \"{}\" has somebody named \"{name}\" already (names are compared whatever their case)",
            store.record().name
        ),
        Err(error) => return Err(error.into()),
    }
    println!(
        "organiser \"{name}\" added to the contest \"{}\"; they sign in on /contest/login",
        store.record().name
    );
    Ok(())
}
