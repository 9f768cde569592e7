//! `spielleiter contest version|matchday|standings`: the organiser's
//! commands for a team's versions (add one by its player, list them,
//! activate one) and for the matchdays (make one, freeze and schedule it
//! now, publish it) and the standings computed from the stored results
//! (`spielleiter_season::matchday_sql`). A matchday's encounters are
//! seasons of the store: `spielleiter worker --store URL --name SEASON`
//! plays each, as any season's.
//!
//! Every refusal is one line, and nothing is changed by it.

use std::{collections::BTreeMap, path::PathBuf, str::FromStr};

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use spielleiter_contest::{
    ContestAccounts, EncounterOutcome, Entry, KnockoutRound, Phase, Progress, Side, Standings,
    TeamId, Timestamp, VersionId, VersionNumber,
};
use spielleiter_season::{
    AnyStore, ContestStore, MatchdayReport, MatchdayState, SeasonError, StoredMatchday,
    sql::Database,
};

use super::{StoreArgs, now, open, shown, team_named};

/// A phase as the command line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PhaseArg {
    /// Trial matchdays: played and shown, never counted.
    Trial,
    /// The championship, in groups.
    Championship,
    /// The champions league: one group of the best of each championship
    /// group (`contest create` sets how many), once the championship is
    /// played.
    Champions,
}

impl PhaseArg {
    fn phase(self) -> Phase {
        match self {
            PhaseArg::Trial => Phase::Trial,
            PhaseArg::Championship => Phase::Championship,
            PhaseArg::Champions => Phase::ChampionsLeague,
        }
    }
}

/// `contest version` subcommands.
#[derive(Debug, Subcommand)]
pub enum VersionCommand {
    /// Add a version to a team: how it is started, as `tournament
    /// --player` takes it (`builtin:greedy`, `docker:IMAGE`, a command
    /// line every worker can run).
    Add(VersionAddArgs),
    /// A team's versions, the active one marked, and its activations.
    List(VersionListArgs),
    /// Make a team's version N its active one: frozen into every later
    /// matchday.
    Activate(VersionActivateArgs),
}

/// `contest version add`.
#[derive(Debug, Args)]
pub struct VersionAddArgs {
    /// The team's name.
    #[arg(value_name = "TEAM")]
    team: String,
    #[command(flatten)]
    store: StoreArgs,
    /// How the version is started.
    #[arg(long, value_name = "SPEC")]
    player: String,
    /// A note on the version.
    #[arg(long, value_name = "TEXT", default_value = "")]
    comment: String,
    /// Make it the team's active version at once.
    #[arg(long)]
    activate: bool,
}

/// `contest version list`.
#[derive(Debug, Args)]
pub struct VersionListArgs {
    /// The team's name.
    #[arg(value_name = "TEAM")]
    team: String,
    #[command(flatten)]
    store: StoreArgs,
}

/// `contest version activate`.
#[derive(Debug, Args)]
pub struct VersionActivateArgs {
    /// The team's name.
    #[arg(value_name = "TEAM")]
    team: String,
    /// The version's number in the team.
    #[arg(value_name = "N")]
    number: u32,
    #[command(flatten)]
    store: StoreArgs,
}

/// `contest matchday` subcommands.
#[derive(Debug, Subcommand)]
pub enum MatchdayCommand {
    /// Make the next matchday of a phase.
    Create(MatchdayCreateArgs),
    /// Freeze matchday N now (every team's active version; a team without
    /// one gets the contest's stand-in), pair the teams by the phase's
    /// round-robin plan and schedule the games for the workers.
    Play(MatchdayArgs),
    /// Publish matchday N once every game is played: its line-up and
    /// results become everybody's.
    Publish(MatchdayArgs),
    /// Take matchday N's publication back: its results are the
    /// organisers' and each encounter's two teams' again.
    Unpublish(MatchdayArgs),
    /// Matchday N: its encounters, their games and results.
    Show(MatchdayArgs),
    /// Play matchday N's games that were given up as failed (their
    /// workers crashed or lost the store too often) again: they wait for
    /// the workers, and their encounters for them.
    Retry(MatchdayArgs),
}

/// `contest matchday create`.
#[derive(Debug, Args)]
pub struct MatchdayCreateArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// The phase.
    #[arg(long, value_enum)]
    phase: PhaseArg,
    /// When the active versions are to be frozen (RFC 3339 with its
    /// offset: `2026-12-05T18:00:00Z`); shown to the teams.
    #[arg(long, value_name = "TIME")]
    deadline: Option<String>,
    /// Play its games without the server's clock (no time limit per move).
    #[arg(long)]
    untimed: bool,
}

/// `contest matchday play|publish|show`.
#[derive(Debug, Args)]
pub struct MatchdayArgs {
    /// The matchday's number in its phase.
    #[arg(value_name = "N")]
    number: u32,
    #[command(flatten)]
    store: StoreArgs,
    /// The matchday's phase [default: the only phase with a matchday N].
    #[arg(long, value_enum)]
    phase: Option<PhaseArg>,
}

/// `contest standings`.
#[derive(Debug, Args)]
pub struct StandingsArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// The phase.
    #[arg(long, value_enum, default_value = "championship")]
    phase: PhaseArg,
    /// Also write the tables to FILE as JSON.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Also write the tables to FILE as CSV (a header line, then a line
    /// per team and group, best first), for a spreadsheet.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

/// `n` things, in the singular for one.
fn counted(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// A store's refusal as the command's one line; anything else as it is.
fn refusal(error: SeasonError) -> anyhow::Error {
    match error {
        SeasonError::Refused(why) => anyhow::anyhow!(why),
        other => other.into(),
    }
}

pub(super) async fn version(command: &VersionCommand) -> anyhow::Result<()> {
    match command {
        VersionCommand::Add(args) => add_version(args).await,
        VersionCommand::List(args) => list_versions(args).await,
        VersionCommand::Activate(args) => activate_version(args).await,
    }
}

/// Who activates on the command line: the administrator, without an
/// account.
const ADMINISTRATOR: &str = "administrator (command line)";

async fn add_version(args: &VersionAddArgs) -> anyhow::Result<()> {
    let store = open(&args.store).await?;
    let team = team_named(&store, &args.team).await?;
    let version = store
        .add_version(team.id, &args.player, &args.comment, now())
        .await
        .map_err(refusal)?;
    println!(
        "{} of team \"{}\" added: {}",
        version.number, team.name, version.player
    );
    if args.activate {
        store
            .activate_version(team.id, version.number, None, ADMINISTRATOR, now())
            .await
            .map_err(refusal)?;
        println!("it is the team's active version now");
    }
    Ok(())
}

async fn list_versions(args: &VersionListArgs) -> anyhow::Result<()> {
    let store = open(&args.store).await?;
    let team = team_named(&store, &args.team).await?;
    let versions = store.versions(team.id).await.map_err(refusal)?;
    if versions.is_empty() {
        println!(
            "team \"{}\" has no versions; `contest version add \"{}\" --player …` adds one",
            team.name, team.name
        );
        return Ok(());
    }
    println!(
        "team \"{}\": {}",
        team.name,
        counted(versions.len(), "version")
    );
    for version in &versions {
        let active = if version.active { " (active)" } else { "" };
        let comment = if version.comment.is_empty() {
            String::new()
        } else {
            format!(" — {}", version.comment)
        };
        println!(
            "  {}{active}: {} [{:?}], added {}{comment}",
            version.number,
            version.player,
            version.state,
            shown(version.created_at)
        );
    }
    let number_of = |id: VersionId| {
        versions
            .iter()
            .find(|v| v.id == id)
            .map_or_else(|| id.to_string(), |v| v.number.0.to_string())
    };
    for activation in store.activations(team.id).await.map_err(refusal)? {
        println!(
            "  activated: version {} by {} at {}",
            number_of(activation.version),
            activation.by_name,
            shown(activation.at)
        );
    }
    Ok(())
}

async fn activate_version(args: &VersionActivateArgs) -> anyhow::Result<()> {
    let store = open(&args.store).await?;
    let team = team_named(&store, &args.team).await?;
    let number = VersionNumber(args.number);
    store
        .activate_version(team.id, number, None, ADMINISTRATOR, now())
        .await
        .map_err(refusal)?;
    println!(
        "{number} is the active version of team \"{}\" now",
        team.name
    );
    Ok(())
}

pub(super) async fn matchday(command: &MatchdayCommand) -> anyhow::Result<()> {
    match command {
        MatchdayCommand::Create(args) => create_matchday(args).await,
        MatchdayCommand::Play(args) => play_matchday(args).await,
        MatchdayCommand::Publish(args) => publish_matchday(args).await,
        MatchdayCommand::Unpublish(args) => unpublish_matchday(args).await,
        MatchdayCommand::Show(args) => show_matchday(args).await,
        MatchdayCommand::Retry(args) => retry_matchday(args).await,
    }
}

async fn create_matchday(args: &MatchdayCreateArgs) -> anyhow::Result<()> {
    let deadline = match &args.deadline {
        Some(text) => {
            let at = jiff::Timestamp::from_str(text.trim()).map_err(|_| {
                anyhow::anyhow!(
                    "--deadline `{text}` is no time; write it with its offset, e.g. 2026-12-05T18:00:00Z"
                )
            })?;
            Some(Timestamp(at.as_second()))
        }
        None => None,
    };
    let store = open(&args.store).await?;
    let made = store
        .create_matchday(args.phase.phase(), deadline, !args.untimed)
        .await
        .map_err(refusal)?;
    let deadline = made
        .deadline
        .map_or_else(String::new, |at| format!(", deadline {}", shown(at)));
    let when = if made.deadline.is_some() {
        "at its deadline a contest worker (`spielleiter worker --store … --contest`) freezes and schedules it, or"
    } else {
        ""
    };
    println!(
        "matchday {} of the {} made{deadline}; {when} `contest matchday play {}` does it now",
        made.number, made.phase, made.number
    );
    Ok(())
}

/// The phase of matchday `number`: the one given, or the only phase that
/// has a matchday of that number.
async fn phase_of(
    store: &ContestStore<AnyStore>,
    number: u32,
    given: Option<PhaseArg>,
) -> anyhow::Result<Phase> {
    if let Some(phase) = given {
        return Ok(phase.phase());
    }
    let phases: Vec<Phase> = store
        .matchdays()
        .await?
        .into_iter()
        .filter(|m| m.number == number)
        .map(|m| m.phase)
        .collect();
    match phases.as_slice() {
        [phase] => Ok(*phase),
        [] => anyhow::bail!(
            "the contest has no matchday {number}; `contest matchday create --phase …` makes one"
        ),
        several => anyhow::bail!(
            "matchday {number} is in {} phases ({}); name one with --phase",
            several.len(),
            several
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The contest's team names by id.
async fn team_names(store: &ContestStore<AnyStore>) -> anyhow::Result<BTreeMap<TeamId, String>> {
    Ok(store
        .teams()
        .await?
        .into_iter()
        .map(|t| (t.id, t.name))
        .collect())
}

fn entry_text(entry: Entry, versions: &BTreeMap<VersionId, u32>) -> String {
    match entry {
        Entry::Version(id) => versions
            .get(&id)
            .map_or_else(|| format!("version id {id}"), |n| format!("version {n}")),
        Entry::StandIn => "stand-in random".to_owned(),
        Entry::Forfeit => "forfeit".to_owned(),
    }
}

/// Every version's number in its team, by id.
async fn version_numbers(
    store: &ContestStore<AnyStore>,
    teams: &BTreeMap<TeamId, String>,
) -> anyhow::Result<BTreeMap<VersionId, u32>> {
    let mut numbers = BTreeMap::new();
    for team in teams.keys() {
        for version in store.versions(*team).await.map_err(refusal)? {
            numbers.insert(version.id, version.number.0);
        }
    }
    Ok(numbers)
}

fn matchday_title(matchday: &StoredMatchday) -> String {
    // The final's matchdays are its rounds.
    match KnockoutRound::of_number(matchday.number) {
        Some(round) if matchday.phase == Phase::Final => format!("the {round} of the final"),
        _ => format!("matchday {} of the {}", matchday.number, matchday.phase),
    }
}

/// What a report says of its failed games: nothing without any, else how
/// many and the command that plays them again.
pub(super) fn failed_note(report: &MatchdayReport) -> String {
    if report.failed == 0 {
        return String::new();
    }
    let again = match KnockoutRound::of_number(report.matchday.number) {
        Some(round) if report.matchday.phase == Phase::Final => {
            format!(
                "contest final retry {}",
                spielleiter_season::knockout_sql::round_arg(round)
            )
        }
        _ => format!("contest matchday retry {}", report.matchday.number),
    };
    format!(
        "; {} given up as failed, waiting for `{again}`",
        counted(report.failed as usize, "game")
    )
}

/// Prints a matchday's encounters, byes and how far each is.
async fn print_report(
    store: &ContestStore<AnyStore>,
    report: &MatchdayReport,
) -> anyhow::Result<()> {
    let teams = team_names(store).await?;
    let versions = version_numbers(store, &teams).await?;
    let name = |team: TeamId| {
        teams
            .get(&team)
            .map_or_else(|| team.to_string(), |n| format!("\"{n}\""))
    };
    let (done, all) = report.games;
    println!(
        "{}: {}, {}, {done} of {all} games done{}",
        matchday_title(&report.matchday),
        report.matchday.state.as_str(),
        counted(report.encounters.len(), "encounter"),
        failed_note(report)
    );
    for (stored, progress) in &report.encounters {
        let encounter = &stored.encounter;
        let [home, away] = encounter.pairing.teams();
        let state = match progress {
            Progress::Decided(result) => {
                let outcome = match result.outcome {
                    EncounterOutcome::Won(Side::Home) => format!("{} wins", name(home)),
                    EncounterOutcome::Won(Side::Away) => format!("{} wins", name(away)),
                    EncounterOutcome::Drawn => "drawn".to_owned(),
                    EncounterOutcome::BothForfeited => "both forfeit".to_owned(),
                };
                format!(
                    "{outcome}, games {}:{} ({} drawn)",
                    result.wins[0], result.wins[1], result.draws
                )
            }
            Progress::Waiting { missing } => format!("{missing} games to play"),
            Progress::Play(games) => format!("games {games:?} to schedule"),
        };
        let season = stored
            .season
            .as_deref()
            .map_or_else(|| "no games".to_owned(), |s| format!("season {s}"));
        println!(
            "  group {} encounter {}: {} ({}) vs {} ({}) — {season}: {state}",
            encounter.key.group,
            encounter.key.slot,
            name(home),
            entry_text(encounter.entries[0], &versions),
            name(away),
            entry_text(encounter.entries[1], &versions),
        );
    }
    for bye in &report.byes {
        println!("  group {}: {} sits out", bye.group_number, name(bye.team));
    }
    Ok(())
}

async fn play_matchday(args: &MatchdayArgs) -> anyhow::Result<()> {
    let store = open(&args.store).await?;
    let phase = phase_of(&store, args.number, args.phase).await?;
    let report = store
        .play_matchday(phase, args.number, now())
        .await
        .map_err(refusal)?;
    print_report(&store, &report).await?;
    let seasons: Vec<&str> = report
        .encounters
        .iter()
        .filter_map(|(e, _)| e.season.as_deref())
        .collect();
    if !seasons.is_empty() {
        println!(
            "its games wait for the workers: `spielleiter worker --store … --contest` plays every encounter"
        );
    }
    Ok(())
}

async fn publish_matchday(args: &MatchdayArgs) -> anyhow::Result<()> {
    let store = open(&args.store).await?;
    let phase = phase_of(&store, args.number, args.phase).await?;
    let report = store
        .publish_matchday(phase, args.number, now())
        .await
        .map_err(refusal)?;
    println!("{} published", matchday_title(&report.matchday));
    Ok(())
}

async fn unpublish_matchday(args: &MatchdayArgs) -> anyhow::Result<()> {
    let store = open(&args.store).await?;
    let phase = phase_of(&store, args.number, args.phase).await?;
    let report = store
        .unpublish_matchday(phase, args.number)
        .await
        .map_err(refusal)?;
    println!(
        "{} is no longer published: its results are the organisers' and each encounter's two teams' again",
        matchday_title(&report.matchday)
    );
    Ok(())
}

async fn retry_matchday(args: &MatchdayArgs) -> anyhow::Result<()> {
    let store = open(&args.store).await?;
    let phase = phase_of(&store, args.number, args.phase).await?;
    let retried = store
        .retry_failed_games(phase, args.number)
        .await
        .map_err(refusal)?;
    println!(
        "{} of matchday {} of the {phase} wait for the workers again",
        counted(retried as usize, "failed game"),
        args.number
    );
    Ok(())
}

async fn show_matchday(args: &MatchdayArgs) -> anyhow::Result<()> {
    let store = open(&args.store).await?;
    let phase = phase_of(&store, args.number, args.phase).await?;
    let report = store
        .matchday_report(phase, args.number)
        .await
        .map_err(refusal)?;
    print_report(&store, &report).await
}

/// One line per matchday, for `contest status`.
pub(super) async fn status_lines(store: &ContestStore<AnyStore>) -> anyhow::Result<()> {
    let matchdays = store.matchdays().await?;
    if matchdays.is_empty() {
        println!("no matchdays yet; `contest matchday create --phase …` makes one");
        return Ok(());
    }
    println!("{}", counted(matchdays.len(), "matchday"));
    for matchday in matchdays {
        let line = if matchday.state == MatchdayState::Planned {
            let deadline = matchday
                .deadline
                .map_or_else(String::new, |at| format!(", deadline {}", shown(at)));
            format!("planned{deadline}")
        } else {
            let report = store
                .matchday_report(matchday.phase, matchday.number)
                .await
                .map_err(refusal)?;
            let (done, all) = report.games;
            format!(
                "{}, {}, {done} of {all} games done{}",
                report.matchday.state.as_str(),
                counted(report.encounters.len(), "encounter"),
                failed_note(&report)
            )
        };
        println!("  {}: {line}", matchday_title(&matchday));
    }
    Ok(())
}

pub(super) async fn standings(args: &StandingsArgs) -> anyhow::Result<()> {
    let store = open(&args.store).await?;
    let phase = args.phase.phase();
    let tables = store.standings(phase).await.map_err(refusal)?;
    let teams = team_names(&store).await?;
    let name = |team: TeamId| {
        teams
            .get(&team)
            .cloned()
            .unwrap_or_else(|| team.to_string())
    };
    if tables.is_empty() {
        println!("the {phase} has no matchday played yet");
    }
    for table in &tables {
        print_table(table, &name);
    }
    if let Some(path) = &args.json {
        let json = standings_json(&store, phase, &tables, &name);
        let text = serde_json::to_string_pretty(&json).context("cannot write the standings")?;
        std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("standings written to {}", path.display());
    }
    if let Some(path) = &args.csv {
        std::fs::write(path, standings_csv(&tables, &name))
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("standings written to {}", path.display());
    }
    Ok(())
}

/// The columns of `contest standings --csv`, as the JSON names them.
const CSV_HEADER: &str = "group,through,rank,previous_rank,team,team_name,ranking_points,\
     encounters,encounters_won,encounters_drawn,encounters_lost,games,games_won,games_drawn,\
     win_points,played,points,mean_points";

/// The tables as CSV (RFC 4180 quoting). A team's name is the one text
/// a team chose: it is always quoted, and one that a spreadsheet would
/// read as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return
/// first) is written with a `'` before it.
fn standings_csv(tables: &[Standings], name: &impl Fn(TeamId) -> String) -> String {
    let mut csv = String::from(CSV_HEADER);
    csv.push_str("\r\n");
    for table in tables {
        for row in &table.rows {
            let previous = row.previous_rank.map(|r| r.to_string()).unwrap_or_default();
            csv.push_str(&format!(
                "{},{},{},{previous},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.4}\r\n",
                table.group,
                table.through,
                row.rank,
                row.team.0,
                csv_text(&name(row.team)),
                row.ranking_points,
                row.encounters,
                row.encounters_won,
                row.encounters_drawn,
                row.encounters_lost,
                row.games,
                row.games_won,
                row.games_drawn,
                row.win_points,
                row.played,
                row.points,
                row.mean_points(),
            ));
        }
    }
    csv
}

/// `text` as one quoted CSV field, defused for spreadsheets.
fn csv_text(text: &str) -> String {
    let defused = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_owned()
    };
    format!("\"{}\"", defused.replace('"', "\"\""))
}

fn print_table(table: &Standings, name: &impl Fn(TeamId) -> String) {
    println!(
        "{}, group {}, after matchday {}:",
        table.phase, table.group, table.through
    );
    for row in &table.rows {
        let movement = match row.movement() {
            Some(0) | None => String::new(),
            Some(up) if up > 0 => format!(" (+{up})"),
            Some(down) => format!(" ({down})"),
        };
        println!(
            "  {:>2}. \"{}\": {} ranking points, encounters {}-{}-{}, games {}-{}-{}, mean points {:.2}{movement}",
            row.rank,
            name(row.team),
            row.ranking_points,
            row.encounters_won,
            row.encounters_drawn,
            row.encounters_lost,
            row.games_won,
            row.games_drawn,
            row.games - row.games_won - row.games_drawn,
            row.mean_points()
        );
    }
}

fn standings_json(
    store: &ContestStore<AnyStore>,
    phase: Phase,
    tables: &[Standings],
    name: &impl Fn(TeamId) -> String,
) -> serde_json::Value {
    let groups: Vec<serde_json::Value> = tables
        .iter()
        .map(|table| {
            let rows: Vec<serde_json::Value> = table
                .rows
                .iter()
                .map(|row| {
                    serde_json::json!({
                        "rank": row.rank,
                        "previous_rank": row.previous_rank,
                        "team": row.team.0,
                        "team_name": name(row.team),
                        "ranking_points": row.ranking_points,
                        "encounters": row.encounters,
                        "encounters_won": row.encounters_won,
                        "encounters_drawn": row.encounters_drawn,
                        "encounters_lost": row.encounters_lost,
                        "games": row.games,
                        "games_won": row.games_won,
                        "games_drawn": row.games_drawn,
                        "win_points": row.win_points,
                        "played": row.played,
                        "points": row.points,
                    })
                })
                .collect();
            serde_json::json!({
                "group": table.group,
                "through": table.through,
                "rows": rows,
            })
        })
        .collect();
    serde_json::json!({
        "contest": store.record().name,
        "store": store.database().store_name(),
        "phase": phase.title(),
        "groups": groups,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(rank: u32, team: i64, previous_rank: Option<u32>) -> spielleiter_contest::StandingRow {
        spielleiter_contest::StandingRow {
            rank,
            team: TeamId(team),
            previous_rank,
            ranking_points: 4,
            encounters: 2,
            encounters_won: 2,
            encounters_drawn: 0,
            encounters_lost: 0,
            games: 12,
            games_won: 9,
            games_drawn: 1,
            win_points: 19,
            played: 12,
            points: 50,
        }
    }

    #[test]
    fn csv_has_a_header_and_a_line_per_row_with_every_column() {
        let tables = [Standings {
            phase: Phase::Championship,
            group: 2,
            through: 3,
            rows: vec![row(1, 7, Some(2)), row(2, 8, None)],
        }];
        let names = |team: TeamId| format!("team {}", team.0);
        let csv = standings_csv(&tables, &names);
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(lines.len(), 4, "{csv:?}");
        assert_eq!(lines[3], "", "ends with a line break");
        let columns = lines[0].split(',').count();
        assert_eq!(columns, 18);
        assert_eq!(
            lines[1],
            "2,3,1,2,7,\"team 7\",4,2,2,0,0,12,9,1,19,12,50,4.1667"
        );
        assert_eq!(
            lines[2],
            "2,3,2,,8,\"team 8\",4,2,2,0,0,12,9,1,19,12,50,4.1667"
        );
        for line in &lines[1..3] {
            assert_eq!(line.split(',').count(), columns, "{line}");
        }
    }

    #[test]
    fn a_name_is_quoted_and_never_read_as_a_formula() {
        assert_eq!(csv_text("Die Eulen"), "\"Die Eulen\"");
        assert_eq!(csv_text("a, \"b\""), "\"a, \"\"b\"\"\"");
        assert_eq!(csv_text("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        for first in ['+', '-', '@', '\t', '\r'] {
            assert!(
                csv_text(&format!("{first}1")).starts_with("\"'"),
                "{first:?}"
            );
        }
        assert_eq!(csv_text("1+1"), "\"1+1\"");
    }
}
