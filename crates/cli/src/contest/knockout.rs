//! `spielleiter contest final`: the organiser's commands for the final's
//! knockout (`spielleiter_season::knockout_sql`) — make its bracket from
//! the places of the phase before, play a round (freeze, schedule, and
//! wait while the workers play it, a tied encounter going on by itself),
//! publish or unpublish a round, show the bracket.
//!
//! Every refusal is one line, and nothing is changed by it.

use std::{
    collections::BTreeMap,
    time::{Duration, Instant},
};

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use spielleiter_contest::{
    BracketSize, ContestAccounts, DecidedBy, EncounterOutcome, KnockoutRound, Phase, Progress,
    Side, TeamId,
};
use spielleiter_season::{
    AnyStore, ContestStore, FinalReport, GameState, MatchdayReport, SeasonStore,
    knockout_sql::round_arg, sql::Database,
};

use super::{StoreArgs, now, open, shown};

/// A round as the command line names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RoundArg {
    /// The quarter-finals (a bracket of 8).
    Quarter,
    /// The semi-finals.
    Semi,
    /// The match for third place.
    Third,
    /// The final.
    Final,
}

impl RoundArg {
    fn round(self) -> KnockoutRound {
        match self {
            RoundArg::Quarter => KnockoutRound::QuarterFinal,
            RoundArg::Semi => KnockoutRound::SemiFinal,
            RoundArg::Third => KnockoutRound::ThirdPlace,
            RoundArg::Final => KnockoutRound::Final,
        }
    }
}

/// `contest final` subcommands.
#[derive(Debug, Subcommand)]
pub enum FinalCommand {
    /// Make the final's bracket from the places of the champions league
    /// (once it is played) or else of the championship: 1–8, 4–5, 2–7,
    /// 3–6 (of 4: 1–4, 2–3).
    Create(FinalCreateArgs),
    /// Freeze a round now (every team's active version), schedule its
    /// games for the workers and wait until each encounter has a winner: a
    /// tied one goes on two games at a time by itself. Run again, it
    /// resumes waiting.
    Play(FinalPlayArgs),
    /// Publish a round once it is decided: its line-up and results become
    /// everybody's.
    Publish(FinalRoundArgs),
    /// Take a round's publication back.
    Unpublish(FinalRoundArgs),
    /// Play a round's games that were given up as failed again: they wait
    /// for the workers (and `final play`), their encounters for them.
    Retry(FinalRoundArgs),
    /// The bracket: every round's encounters, their games won, the
    /// winners.
    Show(FinalShowArgs),
}

/// `contest final create`.
#[derive(Debug, Args)]
pub struct FinalCreateArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// Teams in the bracket: 4 or 8 [default: the contest's setting].
    #[arg(long, value_name = "K")]
    top: Option<u32>,
}

/// `contest final play`.
#[derive(Debug, Args)]
pub struct FinalPlayArgs {
    /// The round.
    #[arg(value_enum, value_name = "ROUND")]
    round: RoundArg,
    #[command(flatten)]
    store: StoreArgs,
    /// Play its games without the server's clock (no time limit per move).
    #[arg(long)]
    untimed: bool,
    /// Only freeze and schedule; the workers extend a tied encounter
    /// themselves.
    #[arg(long)]
    no_wait: bool,
    /// Seconds to wait for the round at most; then the command ends
    /// (run it again to wait on).
    #[arg(long, default_value_t = 6 * 3600, value_name = "S")]
    wait_s: u64,
    /// Milliseconds between looks at the store while waiting.
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    poll_ms: u64,
}

/// `contest final publish|unpublish`.
#[derive(Debug, Args)]
pub struct FinalRoundArgs {
    /// The round.
    #[arg(value_enum, value_name = "ROUND")]
    round: RoundArg,
    #[command(flatten)]
    store: StoreArgs,
}

/// `contest final show`.
#[derive(Debug, Args)]
pub struct FinalShowArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// Print the bracket as JSON instead.
    #[arg(long)]
    json: bool,
}

/// A store's refusal as the command's one line; anything else as it is.
fn refusal(error: spielleiter_season::SeasonError) -> anyhow::Error {
    match error {
        spielleiter_season::SeasonError::Refused(why) => anyhow::anyhow!(why),
        other => other.into(),
    }
}

pub(super) async fn final_round(command: &FinalCommand) -> anyhow::Result<()> {
    match command {
        FinalCommand::Create(args) => create(args).await,
        FinalCommand::Play(args) => play(args).await,
        FinalCommand::Publish(args) => publish(args, true).await,
        FinalCommand::Unpublish(args) => publish(args, false).await,
        FinalCommand::Retry(args) => retry(args).await,
        FinalCommand::Show(args) => show(args).await,
    }
}

/// One encounter as far as its stored games go.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Tally {
    /// Games scheduled.
    scheduled: u32,
    /// Games with a result.
    done: u32,
    /// Wins, home first.
    wins: [u32; 2],
    /// Draws.
    draws: u32,
    /// Game points, home first.
    points: [i64; 2],
}

/// The encounter's games as stored: its season's player 1 is home.
async fn tally(store: &ContestStore<AnyStore>, season: Option<&str>) -> anyhow::Result<Tally> {
    let mut tally = Tally::default();
    let Some(season) = season else {
        return Ok(tally);
    };
    for game in store.database().games(season).await? {
        tally.scheduled += 1;
        let (GameState::Done, Some(record)) = (game.state, &game.record) else {
            continue;
        };
        let (&[home, away], &[home_points, away_points]) =
            (record.win_points.as_slice(), record.points.as_slice())
        else {
            continue;
        };
        tally.done += 1;
        match home.cmp(&away) {
            std::cmp::Ordering::Greater => tally.wins[0] += 1,
            std::cmp::Ordering::Less => tally.wins[1] += 1,
            std::cmp::Ordering::Equal => tally.draws += 1,
        }
        tally.points[0] += i64::from(home_points);
        tally.points[1] += i64::from(away_points);
    }
    Ok(tally)
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

fn decided_by_text(by: DecidedBy) -> &'static str {
    match by {
        DecidedBy::Games => "games",
        DecidedBy::Forfeit => "forfeit",
        DecidedBy::GamePoints => "game points",
        DecidedBy::Lot => "lot",
    }
}

/// One encounter of a round for people and for `--json`.
struct EncounterView {
    line: String,
    json: serde_json::Value,
}

async fn encounter_views(
    store: &ContestStore<AnyStore>,
    report: &MatchdayReport,
    bracket_seeds: &[TeamId],
    teams: &BTreeMap<TeamId, String>,
) -> anyhow::Result<Vec<EncounterView>> {
    let regular = store.record().settings.games_per_encounter;
    let name = |team: TeamId| {
        teams
            .get(&team)
            .cloned()
            .unwrap_or_else(|| team.to_string())
    };
    let seed = |team: TeamId| bracket_seeds.iter().position(|&t| t == team).map(|i| i + 1);
    let mut views = Vec::new();
    for (stored, progress) in &report.encounters {
        let encounter = &stored.encounter;
        let [home, away] = encounter.pairing.teams();
        let tally = tally(store, stored.season.as_deref()).await?;
        let (state, winner, decided_by) = match progress {
            Progress::Decided(result) => {
                let winner = match result.outcome {
                    EncounterOutcome::Won(Side::Home) => Some(home),
                    EncounterOutcome::Won(Side::Away) => Some(away),
                    EncounterOutcome::Drawn | EncounterOutcome::BothForfeited => None,
                };
                let state = winner.map_or_else(
                    || "no winner".to_owned(),
                    |w| {
                        format!(
                            "\"{}\" wins by {}",
                            name(w),
                            decided_by_text(result.decided_by)
                        )
                    },
                );
                (state, winner, Some(decided_by_text(result.decided_by)))
            }
            Progress::Waiting { missing } => (format!("{missing} games to play"), None, None),
            Progress::Play(games) => (
                format!("tied: games {}–{} to add", games.start + 1, games.end),
                None,
                None,
            ),
        };
        let extended = tally.scheduled > regular;
        let line = format!(
            "  encounter {}: \"{}\" (seed {}) vs \"{}\" (seed {}) — {}: games {}:{} ({} drawn), {} of {} played{} — {state}",
            encounter.key.slot,
            name(home),
            seed(home).map_or_else(|| "?".to_owned(), |s| s.to_string()),
            name(away),
            seed(away).map_or_else(|| "?".to_owned(), |s| s.to_string()),
            stored
                .season
                .as_deref()
                .map_or_else(|| "no games".to_owned(), |s| format!("season {s}")),
            tally.wins[0],
            tally.wins[1],
            tally.draws,
            tally.done,
            tally.scheduled,
            if extended { ", extended" } else { "" },
        );
        let json = serde_json::json!({
            "slot": encounter.key.slot,
            "home": home.0,
            "home_name": name(home),
            "home_seed": seed(home),
            "away": away.0,
            "away_name": name(away),
            "away_seed": seed(away),
            "season": stored.season,
            "games_scheduled": tally.scheduled,
            "games_done": tally.done,
            "wins": tally.wins,
            "draws": tally.draws,
            "points": tally.points,
            "extended": extended,
            "decided": winner.is_some(),
            "winner": winner.map(|w| w.0),
            "winner_name": winner.map(name),
            "decided_by": decided_by,
        });
        views.push(EncounterView { line, json });
    }
    Ok(views)
}

fn round_line(round: KnockoutRound, report: &MatchdayReport) -> String {
    let (done, all) = report.games;
    format!(
        "{round}: {}, {} encounters, {done} of {all} games done",
        report.matchday.state.as_str(),
        report.encounters.len()
    )
}

async fn print_round(
    store: &ContestStore<AnyStore>,
    round: KnockoutRound,
    report: &MatchdayReport,
    seeds: &[TeamId],
) -> anyhow::Result<()> {
    let teams = team_names(store).await?;
    println!("{}", round_line(round, report));
    for view in encounter_views(store, report, seeds, &teams).await? {
        println!("{}", view.line);
    }
    Ok(())
}

async fn create(args: &FinalCreateArgs) -> anyhow::Result<()> {
    let store = open(&args.store).await?;
    let size = match args.top {
        None => store.record().settings.bracket,
        Some(4) => BracketSize::Four,
        Some(8) => BracketSize::Eight,
        Some(other) => anyhow::bail!("--top {other}: a bracket has 4 or 8 teams"),
    };
    let made = store.create_final(size, now()).await.map_err(refusal)?;
    let teams = team_names(&store).await?;
    println!(
        "final of {} made from the places of the {}; its rounds: {}",
        made.bracket.seeds.len(),
        made.seeded_from,
        made.bracket
            .rounds()
            .iter()
            .map(|r| round_arg(*r))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for (seed, team) in (1..).zip(&made.bracket.seeds) {
        println!(
            "  seed {seed}: \"{}\"",
            teams.get(team).map_or("?", String::as_str)
        );
    }
    let first = made.bracket.rounds()[0];
    println!(
        "`contest final play {}` freezes and plays the {first}",
        round_arg(first)
    );
    Ok(())
}

/// Whether every encounter of the round is decided.
fn decided(report: &MatchdayReport) -> bool {
    report
        .encounters
        .iter()
        .all(|(_, p)| matches!(p, Progress::Decided(_)))
}

async fn play(args: &FinalPlayArgs) -> anyhow::Result<()> {
    let round = args.round.round();
    let store = open(&args.store).await?;
    let played = store
        .play_round(round, !args.untimed, now())
        .await
        .map_err(refusal)?;
    let seeds = store.final_report().await.map_err(refusal)?.bracket.seeds;
    if played.scheduled_now {
        println!("the {round} is frozen and scheduled");
    } else {
        println!("the {round} was scheduled before; waiting on");
    }
    print_round(&store, round, &played.report, &seeds).await?;
    let seasons: Vec<&str> = played
        .report
        .encounters
        .iter()
        .filter_map(|(e, _)| e.season.as_deref())
        .collect();
    if !seasons.is_empty() && !decided(&played.report) {
        println!(
            "its games wait for the workers: `spielleiter worker --store … --name SEASON` for each of {}",
            seasons.join(", ")
        );
    }
    if args.no_wait {
        return Ok(());
    }
    let started = Instant::now();
    let patience = Duration::from_secs(args.wait_s);
    let mut last = String::new();
    loop {
        let (report, extended) = store.advance_round(round).await.map_err(refusal)?;
        for (slot, games) in &extended {
            println!(
                "  encounter {slot} is tied: games {}–{} added",
                games.start + 1,
                games.end
            );
        }
        let line = round_line(round, &report);
        if line != last {
            println!("{line}");
            last = line;
        }
        if decided(&report) {
            print_round(&store, round, &report, &seeds).await?;
            let next = store.final_report().await.map_err(refusal)?;
            if let Some(placings) = next.bracket.placings() {
                let teams = team_names(&store).await?;
                let name = |t: &TeamId| teams.get(t).map_or("?", String::as_str).to_owned();
                println!(
                    "placings: 1. \"{}\", 2. \"{}\", 3. \"{}\", 4. \"{}\"",
                    name(&placings[0]),
                    name(&placings[1]),
                    name(&placings[2]),
                    name(&placings[3])
                );
            }
            return Ok(());
        }
        if started.elapsed() >= patience {
            anyhow::bail!(
                "the {round} is still being played after {} s; `contest final play {}` waits on",
                args.wait_s,
                round_arg(round)
            );
        }
        tokio::time::sleep(Duration::from_millis(args.poll_ms.max(10))).await;
    }
}

async fn publish(args: &FinalRoundArgs, publish: bool) -> anyhow::Result<()> {
    let round = args.round.round();
    let store = open(&args.store).await?;
    if publish {
        store.publish_round(round, now()).await.map_err(refusal)?;
        println!("the {round} is published");
    } else {
        store.unpublish_round(round).await.map_err(refusal)?;
        println!("the {round} is no longer published");
    }
    Ok(())
}

async fn retry(args: &FinalRoundArgs) -> anyhow::Result<()> {
    let round = args.round.round();
    let store = open(&args.store).await?;
    let retried = store
        .retry_failed_games(Phase::Final, round.number())
        .await
        .map_err(refusal)?;
    let games = if retried == 1 { "game" } else { "games" };
    println!("{retried} failed {games} of the {round} wait for the workers again");
    Ok(())
}

async fn show(args: &FinalShowArgs) -> anyhow::Result<()> {
    let store = open(&args.store).await?;
    let report: FinalReport = store.final_report().await.map_err(refusal)?;
    let teams = team_names(&store).await?;
    let seeds = &report.bracket.seeds;
    let name = |t: &TeamId| teams.get(t).cloned().unwrap_or_else(|| t.to_string());
    if !args.json {
        println!(
            "final of {} seeded from the {}, made {}",
            seeds.len(),
            report.seeded_from,
            shown(report.created_at)
        );
        for (seed, team) in (1..).zip(seeds) {
            println!("  seed {seed}: \"{}\"", name(team));
        }
    }
    let mut rounds = Vec::new();
    for round in &report.rounds {
        let Some(played) = &round.report else {
            if !args.json {
                println!("{}: not played yet", round.round);
            }
            rounds.push(serde_json::json!({
                "round": round_arg(round.round),
                "title": round.round.title(),
                "state": "not played",
                "encounters": [],
            }));
            continue;
        };
        let views = encounter_views(&store, played, seeds, &teams).await?;
        if !args.json {
            println!("{}", round_line(round.round, played));
            for view in &views {
                println!("{}", view.line);
            }
        }
        let (done, all) = played.games;
        rounds.push(serde_json::json!({
            "round": round_arg(round.round),
            "title": round.round.title(),
            "state": played.matchday.state.as_str(),
            "games_done": done,
            "games": all,
            "encounters": views.into_iter().map(|v| v.json).collect::<Vec<_>>(),
        }));
    }
    let placings = report.bracket.placings();
    if args.json {
        let json = serde_json::json!({
            "contest": store.record().name,
            "store": store.database().store_name(),
            "seeded_from": report.seeded_from.title(),
            "seeds": seeds.iter().map(|t| serde_json::json!({"team": t.0, "team_name": name(t)})).collect::<Vec<_>>(),
            "rounds": rounds,
            "placings": placings.map(|p| p.iter().map(|t| serde_json::json!({"team": t.0, "team_name": name(t)})).collect::<Vec<_>>()),
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&json).context("cannot write the bracket")?
        );
    } else if let Some(p) = placings {
        println!(
            "placings: 1. \"{}\", 2. \"{}\", 3. \"{}\", 4. \"{}\"",
            name(&p[0]),
            name(&p[1]),
            name(&p[2]),
            name(&p[3])
        );
    }
    Ok(())
}
