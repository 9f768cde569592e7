//! The contest's results pages under `/contest` (issue 37): the calendar
//! (phases, groups, matchdays), a matchday's encounters with their games
//! (each game's replay in the replay viewer), the standings after each
//! matchday with each team's movement, the final's bracket drawn as an SVG
//! picture (`spielleiter_render::bracket`), and a team's results.
//! Server-rendered as the door's other pages, without JavaScript (but the
//! replay viewer's own).
//!
//! # Publication
//!
//! Every encounter shown is asked of the contest's one rule,
//! [`Resource::Encounter`] with its two teams and whether its matchday (or
//! knockout round) is published: the organisers see it at once, the two
//! teams see their own, everybody else only once published. An encounter
//! the viewer may not see is not shown at all — neither its line-up nor its
//! result (a page says only how many are not published yet), and a sat-out
//! team is line-up too. A game's replay is served under the same rule by
//! the access layer itself ([`Rule::Encounter`](crate::route_access)),
//! which reads the encounter's teams and publication before the handler
//! runs.
//!
//! The standings: the organisers' count every frozen matchday; everybody
//! else's ([`Resource::Standings`] refused) count the published matchdays
//! only. The rule chosen is that one rather than hiding the table until
//! every matchday is published, because the public then sees a table that
//! is true for what it may see — the table of the published results — and
//! it can never be used to work an unpublished result out (which a table
//! counting all matchdays, shown to anyone, would give away). A team's
//! members see the public table: their own unpublished encounter is
//! theirs, the others' of the same matchday are not.

use std::{collections::BTreeMap, fmt, sync::Arc};

use askama::Template;
use axum::{
    Json,
    extract::{Path, Query, State},
    http::StatusCode,
    response::{Html, IntoResponse, Response},
};
use serde::Deserialize;
use spielleiter_archive::{ArchiveFuture, GameArchive};
use spielleiter_contest::{
    Action, ContestResults, Counted, DecidedBy, EncounterId, EncounterOutcome, EncounterResults,
    Entry, KnockoutResults, KnockoutRound, MatchdayEntry, MatchdayResults, Phase, Progress,
    Resource, Side, Standings, TeamId,
};
use spielleiter_render::bracket::{BracketColumn, BracketMatch, BracketPicture, BracketSide};

use super::{
    Door, bounded,
    message::{Nav, render, render_message},
    pages::when,
};
use crate::{app::App, error::ApiError, route_access::Who, viewer};

/// Where the web side finds an encounter's games: the archive of the
/// season that holds them (the season crate, above this one, implements
/// it with the store's seasons).
pub trait EncounterArchives: Send + Sync + fmt::Debug {
    /// The archive of season `season`'s games (a game's key is its
    /// number).
    fn archive<'a>(&'a self, season: &'a str) -> ArchiveFuture<'a, Arc<dyn GameArchive>>;
}

/// What the results pages read: the contest's results and its encounters'
/// games.
#[derive(Clone, Debug)]
pub struct ResultsSource {
    /// The calendar, results, tables and final.
    pub results: Arc<dyn ContestResults>,
    /// The encounters' games, for their replays.
    pub archives: Arc<dyn EncounterArchives>,
}

/// A results page's answer: the page, or a message page.
pub(crate) struct Page(Result<Response, (StatusCode, &'static str, String)>, Nav);

impl IntoResponse for Page {
    fn into_response(self) -> Response {
        match self.0 {
            Ok(response) => response,
            Err((status, title, text)) => render_message(&self.1, status, title, &text, None),
        }
    }
}

type Failure = (StatusCode, &'static str, String);

fn nav(who: &Who) -> Nav {
    Nav::new(who.viewer, who.account.as_ref(), who.csrf.as_deref())
}

fn not_found(what: &str) -> Failure {
    (
        StatusCode::NOT_FOUND,
        "Not found",
        format!("No such {what}."),
    )
}

fn failed(error: spielleiter_contest::StoreError) -> Failure {
    match error {
        spielleiter_contest::StoreError::NotFound(what) => not_found(what),
        other => {
            tracing::warn!(error = %other, "the contest's store failed");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something failed",
                "The contest's store failed; please try again later.".to_owned(),
            )
        }
    }
}

/// The door and its results, or why there are none.
fn source(app: &App) -> Result<(&Arc<Door>, &ResultsSource), Failure> {
    let door = app.contest.as_ref().ok_or_else(|| not_found("contest"))?;
    let results = door
        .results
        .as_ref()
        .ok_or_else(|| not_found("contest results"))?;
    Ok((door, results))
}

/// The phase of an address (`championship`, `champions-league`, …).
pub(crate) fn phase_of_path(text: &str) -> Option<Phase> {
    Phase::ALL.into_iter().find(|p| phase_path(*p) == text)
}

/// The phase's part of an address.
pub(crate) fn phase_path(phase: Phase) -> &'static str {
    match phase {
        Phase::Trial => "trial",
        Phase::Championship => "championship",
        Phase::ChampionsLeague => "champions-league",
        Phase::Final => "final",
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A matchday's title (a knockout round's by its name).
pub(crate) fn matchday_title(phase: Phase, number: u32) -> String {
    if phase == Phase::Final
        && let Some(round) = KnockoutRound::of_number(number)
    {
        return format!("The final: {}", round.title());
    }
    format!("{}, matchday {number}", capitalised(phase.title()))
}

/// The teams' names by id.
async fn team_names(door: &Door) -> Result<BTreeMap<TeamId, String>, Failure> {
    Ok(bounded(door.store.teams())
        .await
        .map_err(failed)?
        .into_iter()
        .map(|team| (team.id, team.name))
        .collect())
}

fn name(names: &BTreeMap<TeamId, String>, team: TeamId) -> String {
    names
        .get(&team)
        .cloned()
        .unwrap_or_else(|| format!("team {team}"))
}

/// Whether the viewer may see `encounter` of `matchday`.
fn may_see(who: &Who, matchday: &MatchdayEntry, encounter: &EncounterResults) -> bool {
    who.may(
        Action::View,
        &Resource::Encounter {
            teams: encounter.encounter.pairing.teams(),
            published: matchday.published(),
        },
    )
}

// ----- The calendar -----

#[derive(Template)]
#[template(path = "contest/matchdays.html")]
struct CalendarPage {
    nav: Nav,
    contest: String,
    phases: Vec<CalendarPhase>,
    groups: Vec<CalendarGroup>,
    has_final: bool,
}

struct CalendarPhase {
    title: String,
    matchdays: Vec<CalendarDay>,
}

struct CalendarDay {
    title: String,
    href: String,
    stage: &'static str,
    deadline: String,
    published: String,
}

struct CalendarGroup {
    name: String,
    teams: Vec<String>,
}

/// `GET /contest/matchdays`: the contest's phases, groups and matchdays.
pub(crate) async fn calendar(State(app): State<Arc<App>>, who: Who) -> Page {
    let result = async {
        let (door, source) = source(&app)?;
        let contest = bounded(door.store.contest()).await.map_err(failed)?;
        let names = team_names(door).await?;
        let matchdays = bounded(source.results.matchdays()).await.map_err(failed)?;
        let groups = bounded(source.results.groups()).await.map_err(failed)?;
        let mut phases: Vec<CalendarPhase> = Vec::new();
        for phase in Phase::ALL {
            let days: Vec<CalendarDay> = matchdays
                .iter()
                .filter(|m| m.phase == phase)
                .map(|m| CalendarDay {
                    title: matchday_title(m.phase, m.number),
                    href: format!("/contest/matchdays/{}/{}", phase_path(m.phase), m.number),
                    stage: m.stage.title(),
                    deadline: m.deadline.map(when).unwrap_or_default(),
                    published: m.published_at.map(when).unwrap_or_default(),
                })
                .collect();
            if !days.is_empty() {
                phases.push(CalendarPhase {
                    title: capitalised(phase.title()),
                    matchdays: days,
                });
            }
        }
        let groups = groups
            .into_iter()
            .map(|group| CalendarGroup {
                name: if group.name.is_empty() {
                    format!("Group {}", group.number)
                } else {
                    group.name
                },
                teams: group.teams.iter().map(|&t| name(&names, t)).collect(),
            })
            .collect();
        Ok(render(&CalendarPage {
            nav: nav(&who),
            contest: contest.name,
            has_final: matchdays.iter().any(|m| m.phase == Phase::Final),
            phases,
            groups,
        }))
    }
    .await;
    Page(result, nav(&who))
}

// ----- A matchday -----

#[derive(Template)]
#[template(path = "contest/matchday.html")]
struct MatchdayPage {
    nav: Nav,
    title: String,
    stage: &'static str,
    deadline: String,
    encounters: Vec<EncounterView>,
    hidden: usize,
    byes: Vec<String>,
    byes_shown: bool,
}

/// An encounter as a page shows it.
struct EncounterView {
    heading: String,
    home: String,
    away: String,
    entries: [String; 2],
    score: String,
    result: String,
    games: Vec<GameView>,
}

struct GameView {
    number: u32,
    first: String,
    result: String,
    points: String,
    href: Option<String>,
}

fn entry_text(entry: Entry) -> String {
    match entry {
        Entry::Version(version) => format!("version id {version}, frozen"),
        Entry::StandIn => "stand-in (the random bot)".to_owned(),
        Entry::Forfeit => "forfeits".to_owned(),
    }
}

fn result_text(encounter: &EncounterResults, home: &str, away: &str) -> (String, String) {
    match &encounter.progress {
        Progress::Decided(result) => {
            let score = format!("{} : {}", result.wins[0], result.wins[1]);
            let how = match result.decided_by {
                DecidedBy::Games => "",
                DecidedBy::Forfeit => " (forfeit)",
                DecidedBy::GamePoints => " (on game points)",
                DecidedBy::Lot => " (by lot)",
            };
            let text = match result.outcome {
                EncounterOutcome::Won(Side::Home) => format!("{home} won{how}"),
                EncounterOutcome::Won(Side::Away) => format!("{away} won{how}"),
                EncounterOutcome::Drawn => "drawn".to_owned(),
                EncounterOutcome::BothForfeited => "both forfeited".to_owned(),
            };
            (
                score,
                format!(
                    "{text}; ranking points {} : {}",
                    result.ranking_points[0], result.ranking_points[1]
                ),
            )
        }
        Progress::Waiting { missing } => (String::new(), format!("{missing} games to play")),
        Progress::Play(_) => (String::new(), "more games to schedule".to_owned()),
    }
}

fn encounter_view(
    encounter: &EncounterResults,
    names: &BTreeMap<TeamId, String>,
    group_heading: bool,
) -> EncounterView {
    let pairing = encounter.encounter.pairing;
    let (home, away) = (name(names, pairing.home), name(names, pairing.away));
    let (score, result) = result_text(encounter, &home, &away);
    let key = encounter.encounter.key;
    let games = encounter
        .games
        .iter()
        .map(|game| {
            let first = Side::first_in(game.number - 1);
            let first = if first == Side::Home { &home } else { &away };
            let (result, points) = match game.result {
                Some(result) => (
                    match result.winner {
                        Some(Side::Home) => format!("{home} won"),
                        Some(Side::Away) => format!("{away} won"),
                        None => "drawn".to_owned(),
                    },
                    format!("{} : {}", result.points[0], result.points[1]),
                ),
                None => ("not played yet".to_owned(), String::new()),
            };
            GameView {
                number: game.number,
                first: first.clone(),
                href: game
                    .result
                    .map(|_| format!("/contest/encounters/{}/games/{}", encounter.id, game.number)),
                result,
                points,
            }
        })
        .collect();
    EncounterView {
        heading: if group_heading {
            format!("Group {}, encounter {}", key.group, key.slot)
        } else {
            format!("Encounter {}", key.slot)
        },
        entries: encounter.encounter.entries.map(entry_text),
        home,
        away,
        score,
        result,
        games,
    }
}

/// `GET /contest/matchdays/{phase}/{number}`: a matchday's encounters
/// and games, each as the viewer may see it.
pub(crate) async fn matchday(
    State(app): State<Arc<App>>,
    who: Who,
    Path((phase, number)): Path<(String, u32)>,
) -> Page {
    let result = async {
        let (door, source) = source(&app)?;
        let phase = phase_of_path(&phase).ok_or_else(|| not_found("phase"))?;
        let names = team_names(door).await?;
        let day: MatchdayResults = bounded(source.results.matchday(phase, number))
            .await
            .map_err(failed)?;
        let several_groups = day.encounters.iter().any(|e| e.encounter.key.group != 1);
        let (shown, hidden): (Vec<&EncounterResults>, Vec<&EncounterResults>) = day
            .encounters
            .iter()
            .partition(|e| may_see(&who, &day.matchday, e));
        // Who sat out is line-up: everybody's once published, else the
        // organisers' (a team knows whether it played).
        let byes_shown =
            day.matchday.published() || who.may(Action::View, &Resource::OrganiserPages);
        Ok(render(&MatchdayPage {
            nav: nav(&who),
            title: matchday_title(phase, number),
            stage: day.matchday.stage.title(),
            deadline: day.matchday.deadline.map(when).unwrap_or_default(),
            encounters: shown
                .into_iter()
                .map(|e| encounter_view(e, &names, several_groups))
                .collect(),
            hidden: hidden.len(),
            byes: if byes_shown {
                day.byes.iter().map(|b| name(&names, b.team)).collect()
            } else {
                Vec::new()
            },
            byes_shown,
        }))
    }
    .await;
    Page(result, nav(&who))
}

// ----- The standings -----

#[derive(Template)]
#[template(path = "contest/standings.html")]
struct StandingsPage {
    nav: Nav,
    all_counted: bool,
    phases: Vec<PhaseTables>,
}

struct PhaseTables {
    title: String,
    /// The matchdays a table is shown after, with the address.
    afters: Vec<(u32, String, bool)>,
    tables: Vec<TableView>,
}

struct TableView {
    heading: String,
    rows: Vec<RowView>,
}

struct RowView {
    rank: u32,
    team: String,
    movement: String,
    movement_class: &'static str,
    ranking_points: u32,
    encounters: String,
    games: String,
    mean_points: String,
}

/// `?after=N`: the tables after matchday N (default: the last counted).
#[derive(Debug, Deserialize)]
pub(crate) struct AfterQuery {
    after: Option<u32>,
}

fn row_view(row: &spielleiter_contest::StandingRow, names: &BTreeMap<TeamId, String>) -> RowView {
    let (movement, movement_class) = match row.movement() {
        None => (String::new(), ""),
        Some(0) => ("=".to_owned(), "same"),
        Some(up) if up > 0 => (format!("▲ {up}"), "up"),
        Some(down) => (format!("▼ {}", -down), "down"),
    };
    RowView {
        rank: row.rank,
        team: name(names, row.team),
        movement,
        movement_class,
        ranking_points: row.ranking_points,
        encounters: format!(
            "{} ({} / {} / {})",
            row.encounters, row.encounters_won, row.encounters_drawn, row.encounters_lost
        ),
        games: format!("{} ({} won)", row.games, row.games_won),
        mean_points: format!("{:.2}", row.mean_points()),
    }
}

/// `GET /contest/standings`: each phase's tables per group after a
/// matchday, with each team's movement since the matchday before.
pub(crate) async fn standings(
    State(app): State<Arc<App>>,
    who: Who,
    Query(query): Query<AfterQuery>,
) -> Page {
    let result = async {
        let (door, source) = source(&app)?;
        let names = team_names(door).await?;
        // The organisers' tables count every matchday; everybody else's
        // the published ones (the module's documentation says why).
        let all_counted = who.may(Action::View, &Resource::Standings { published: false });
        let counted = if all_counted {
            Counted::All
        } else {
            Counted::Published
        };
        let mut phases = Vec::new();
        for phase in Phase::ALL.into_iter().filter(|p| p.has_standings()) {
            let tables: Vec<Standings> = bounded(source.results.standings(phase, counted))
                .await
                .map_err(failed)?;
            let mut afters: Vec<u32> = tables.iter().map(|t| t.through).collect();
            afters.dedup();
            let Some(&last) = afters.last() else {
                continue;
            };
            let after = query.after.filter(|a| afters.contains(a)).unwrap_or(last);
            let several = tables.iter().any(|t| t.group != 1);
            phases.push(PhaseTables {
                title: capitalised(phase.title()),
                afters: afters
                    .iter()
                    .map(|&a| (a, format!("/contest/standings?after={a}"), a == after))
                    .collect(),
                tables: tables
                    .iter()
                    .filter(|t| t.through == after)
                    .map(|t| TableView {
                        heading: if several {
                            format!("Group {} after matchday {after}", t.group)
                        } else {
                            format!("After matchday {after}")
                        },
                        rows: t.rows.iter().map(|r| row_view(r, &names)).collect(),
                    })
                    .collect(),
            });
        }
        Ok(render(&StandingsPage {
            nav: nav(&who),
            all_counted,
            phases,
        }))
    }
    .await;
    Page(result, nav(&who))
}

// ----- The final -----

#[derive(Template)]
#[template(path = "contest/final.html")]
struct FinalPage {
    nav: Nav,
    made: bool,
    seeded_from: String,
    svg: String,
    rounds: Vec<(String, String)>,
}

fn round_short(round: KnockoutRound) -> &'static str {
    match round {
        KnockoutRound::QuarterFinal => "QF",
        KnockoutRound::SemiFinal => "SF",
        KnockoutRound::ThirdPlace => "third place",
        KnockoutRound::Final => "final",
    }
}

/// The bracket's picture as the viewer may see it: the seeds' first round
/// (the bracket's shape), and each encounter's teams and score only where
/// the rule shows the encounter.
fn bracket_picture(
    who: &Who,
    knockout: &KnockoutResults,
    names: &BTreeMap<TeamId, String>,
) -> BracketPicture {
    let rounds = knockout.bracket.rounds();
    let size = knockout.bracket.seeds.len();
    let mut picture = BracketPicture::default();
    for &round in rounds {
        let slots = match round {
            KnockoutRound::QuarterFinal => 4,
            KnockoutRound::SemiFinal => 2,
            KnockoutRound::ThirdPlace | KnockoutRound::Final => 1,
        };
        let stored = knockout
            .rounds
            .iter()
            .find(|r| r.round == round)
            .and_then(|r| r.results.as_ref());
        let mut matches = Vec::new();
        for slot in 1..=slots {
            let shown = stored.and_then(|day| {
                day.encounters
                    .iter()
                    .find(|e| e.encounter.key.slot == slot)
                    .filter(|e| may_see(who, &day.matchday, e))
                    .map(|e| (day, e))
            });
            let game = match shown {
                Some((day, encounter)) => {
                    let pairing = encounter.encounter.pairing;
                    let result = encounter.result();
                    let won = |side: Side| {
                        result.is_some_and(|r| r.outcome == EncounterOutcome::Won(side))
                    };
                    let score = |side: Side| result.map(|r| r.wins[side.index()].to_string());
                    BracketMatch {
                        sides: [
                            BracketSide {
                                name: name(names, pairing.home),
                                score: score(Side::Home).unwrap_or_default(),
                                winner: won(Side::Home),
                            },
                            BracketSide {
                                name: name(names, pairing.away),
                                score: score(Side::Away).unwrap_or_default(),
                                winner: won(Side::Away),
                            },
                        ],
                        note: match (&encounter.progress, day.matchday.published()) {
                            (Progress::Decided(r), true) => format!("{} games", r.games),
                            (Progress::Decided(r), false) => {
                                format!("{} games · not yet published", r.games)
                            }
                            _ => "being played".to_owned(),
                        },
                        link: Some(format!("/contest/matchdays/final/{}", round.number())),
                    }
                }
                None => {
                    // The first round's teams follow from the seeds, which
                    // are the bracket's shape: 1–8, 4–5, 2–7, 3–6 (1–4, 2–3).
                    let first = rounds.first() == Some(&round);
                    let seeds = first.then(|| seed_pair(size, slot)).flatten();
                    let side = |seed: Option<usize>, placeholder: String| BracketSide {
                        name: seed.and_then(|s| knockout.bracket.seeds.get(s - 1)).map_or(
                            placeholder,
                            |&team| {
                                format!("{} ({seed})", name(names, team), seed = seed.unwrap_or(0))
                            },
                        ),
                        ..BracketSide::default()
                    };
                    // A side not yet shown is the winner (for third
                    // place: the loser) of an encounter of the round
                    // before: named once that encounter may be seen.
                    let before = rounds
                        .iter()
                        .take_while(|r| **r != round)
                        .filter(|r| **r != KnockoutRound::ThirdPlace)
                        .last()
                        .copied();
                    let feeder = |k: u32| {
                        let loser = round == KnockoutRound::ThirdPlace;
                        let known =
                            before.and_then(|before| visible_outcome(who, knockout, before, k));
                        match (known, before) {
                            (Some((winner, beaten)), _) => {
                                name(names, if loser { beaten } else { winner })
                            }
                            (None, Some(before)) => format!(
                                "{} of {} {k}",
                                if loser { "loser" } else { "winner" },
                                round_short(before)
                            ),
                            (None, None) => String::new(),
                        }
                    };
                    let (a, b) = match round {
                        KnockoutRound::ThirdPlace | KnockoutRound::Final => (1, 2),
                        _ => (2 * slot - 1, 2 * slot),
                    };
                    BracketMatch {
                        sides: [
                            side(seeds.map(|p| p.0), feeder(a)),
                            side(seeds.map(|p| p.1), feeder(b)),
                        ],
                        note: if stored.is_some() {
                            "not yet published".to_owned()
                        } else {
                            "not yet played".to_owned()
                        },
                        link: None,
                    }
                }
            };
            matches.push(game);
        }
        let title = match round {
            KnockoutRound::QuarterFinal => "Quarter-finals".to_owned(),
            KnockoutRound::SemiFinal => "Semi-finals".to_owned(),
            other => capitalised(other.title()),
        };
        if round == KnockoutRound::ThirdPlace {
            if let Some(game) = matches.into_iter().next() {
                picture.aside = Some((title, game));
            }
        } else {
            picture.columns.push(BracketColumn { title, matches });
        }
    }
    picture
}

/// The winner and the loser of encounter `slot` of `round`, if it is
/// decided and the viewer may see it.
fn visible_outcome(
    who: &Who,
    knockout: &KnockoutResults,
    round: KnockoutRound,
    slot: u32,
) -> Option<(TeamId, TeamId)> {
    let day = knockout
        .rounds
        .iter()
        .find(|r| r.round == round)?
        .results
        .as_ref()?;
    let encounter = day
        .encounters
        .iter()
        .find(|e| e.encounter.key.slot == slot)
        .filter(|e| may_see(who, &day.matchday, e))?;
    let pairing = encounter.encounter.pairing;
    match encounter.result()?.outcome {
        EncounterOutcome::Won(Side::Home) => Some((pairing.home, pairing.away)),
        EncounterOutcome::Won(Side::Away) => Some((pairing.away, pairing.home)),
        _ => None,
    }
}

/// The seeds (from 1) of the first round's encounter `slot` in a bracket
/// of `size`: 1–8, 4–5, 2–7, 3–6 of eight; 1–4, 2–3 of four.
fn seed_pair(size: usize, slot: u32) -> Option<(usize, usize)> {
    let pairs: &[(usize, usize)] = match size {
        8 => &[(1, 8), (4, 5), (2, 7), (3, 6)],
        4 => &[(1, 4), (2, 3)],
        _ => return None,
    };
    pairs.get(slot as usize - 1).copied()
}

/// `GET /contest/final`: the final's bracket as a picture, each round's
/// encounters as the viewer may see them.
pub(crate) async fn final_page(State(app): State<Arc<App>>, who: Who) -> Page {
    let result = async {
        let (door, source) = source(&app)?;
        let names = team_names(door).await?;
        let knockout = bounded(source.results.knockout()).await.map_err(failed)?;
        let page = match knockout {
            None => FinalPage {
                nav: nav(&who),
                made: false,
                seeded_from: String::new(),
                svg: String::new(),
                rounds: Vec::new(),
            },
            Some(knockout) => FinalPage {
                nav: nav(&who),
                made: true,
                seeded_from: knockout.seeded_from.title().to_owned(),
                svg: spielleiter_render::bracket::bracket_svg(&bracket_picture(
                    &who, &knockout, &names,
                )),
                rounds: knockout
                    .rounds
                    .iter()
                    .filter(|r| r.results.is_some())
                    .map(|r| {
                        (
                            capitalised(r.round.title()),
                            format!("/contest/matchdays/final/{}", r.round.number()),
                        )
                    })
                    .collect(),
            },
        };
        Ok(render(&page))
    }
    .await;
    Page(result, nav(&who))
}

// ----- A team's results -----

#[derive(Template)]
#[template(path = "contest/team_results.html")]
struct TeamResultsPage {
    nav: Nav,
    team: String,
    encounters: Vec<(String, String, EncounterView)>,
}

/// `GET /contest/teams/{team}/results`: the team's encounters the viewer
/// may see (everybody: the published ones), matchday by matchday.
pub(crate) async fn team_results(
    State(app): State<Arc<App>>,
    who: Who,
    Path(team): Path<i64>,
) -> Page {
    let result = async {
        let (door, source) = source(&app)?;
        let team = TeamId(team);
        let names = team_names(door).await?;
        if !names.contains_key(&team) {
            return Err(not_found("team"));
        }
        let matchdays = bounded(source.results.matchdays()).await.map_err(failed)?;
        let mut encounters = Vec::new();
        for entry in matchdays
            .iter()
            .filter(|m| m.stage != spielleiter_contest::MatchdayStage::Planned)
        {
            let day = bounded(source.results.matchday(entry.phase, entry.number))
                .await
                .map_err(failed)?;
            for encounter in &day.encounters {
                if encounter.encounter.pairing.teams().contains(&team)
                    && may_see(&who, &day.matchday, encounter)
                {
                    encounters.push((
                        matchday_title(entry.phase, entry.number),
                        format!(
                            "/contest/matchdays/{}/{}",
                            phase_path(entry.phase),
                            entry.number
                        ),
                        encounter_view(encounter, &names, false),
                    ));
                }
            }
        }
        Ok(render(&TeamResultsPage {
            nav: nav(&who),
            team: name(&names, team),
            encounters,
        }))
    }
    .await;
    Page(result, nav(&who))
}

// ----- An encounter's game in the replay viewer -----

/// `GET /contest/encounters/{encounter}/games/{number}`: the replay
/// viewer's page (it reads the replay below). Decided by the access layer
/// with the encounter's rule.
pub(crate) async fn game_page() -> Html<&'static str> {
    crate::pages::replay().await
}

/// `GET /contest/encounters/{encounter}/games/{number}/replay`: game
/// `number` of the encounter's season as the replay viewer reads it.
/// Decided by the access layer with the encounter's rule; its players'
/// logs are the teams' and are not offered here.
pub(crate) async fn game_replay(
    State(app): State<Arc<App>>,
    Path((encounter, number)): Path<(i64, u32)>,
) -> Result<Json<viewer::ReplayView>, ApiError> {
    let missing = |what: &str| ApiError::NotFound(format!("no such {what}"));
    let (_, source) = source(&app).map_err(|_| missing("contest results"))?;
    let season = bounded(source.results.encounter_season(EncounterId(encounter)))
        .await
        .map_err(|error| match error {
            spielleiter_contest::StoreError::NotFound(what) => missing(what),
            other => ApiError::Internal(other.to_string()),
        })?
        .ok_or_else(|| missing("game (the encounter was forfeited)"))?;
    season_game_replay(
        source,
        &season,
        number,
        format!("encounter {encounter}, game {number}"),
    )
    .await
}

/// Game `number` of `season` (an encounter's, a friendly's) as the replay
/// viewer reads it, named `name`, without downloads: its players' logs
/// are their teams' own.
pub(crate) async fn season_game_replay(
    source: &ResultsSource,
    season: &str,
    number: u32,
    name: String,
) -> Result<Json<viewer::ReplayView>, ApiError> {
    let archive = super::archive_within(source.archives.archive(season)).await?;
    let stored = super::archive_within(archive.replay(&number.to_string())).await?;
    let loaded = viewer::load(stored).await?;
    Ok(Json(viewer::view(name, loaded, Vec::new())))
}

/// The results pages' routes.
pub(crate) fn routes() -> axum::Router<Arc<App>> {
    use axum::routing::get;
    axum::Router::new()
        .route("/contest/matchdays", get(calendar))
        .route("/contest/matchdays/{phase}/{number}", get(matchday))
        .route("/contest/standings", get(standings))
        .route("/contest/final", get(final_page))
        .route("/contest/teams/{team}/results", get(team_results))
        .route(
            "/contest/encounters/{encounter}/games/{number}",
            get(game_page),
        )
        .route(
            "/contest/encounters/{encounter}/games/{number}/replay",
            get(game_replay),
        )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use spielleiter_contest::{
        Bracket, ContestSettings, Encounter, EncounterGame, EncounterKey, EncounterKind,
        GameResult, KnockoutRoundResults, KnockoutWinner, MatchdayId, MatchdayStage, MemberId,
        Pairing, Role, Viewer,
    };

    use super::*;

    /// A knockout round's matchday with `pairs` (home wins each game).
    fn round(round: KnockoutRound, published: bool, pairs: &[(i64, i64)]) -> MatchdayResults {
        let settings = ContestSettings::default();
        let encounters = pairs
            .iter()
            .zip(1..)
            .map(|(&(home, away), slot)| {
                let encounter = Encounter {
                    key: EncounterKey {
                        phase: Phase::Final,
                        matchday: round.number(),
                        group: 1,
                        slot,
                    },
                    pairing: Pairing {
                        home: TeamId(home),
                        away: TeamId(away),
                    },
                    entries: [Entry::StandIn; 2],
                    kind: EncounterKind::Knockout,
                };
                let games = vec![
                    Some(GameResult {
                        winner: Some(Side::Home),
                        points: [20, 10],
                    });
                    settings.games_per_encounter as usize
                ];
                EncounterResults {
                    id: EncounterId(i64::from(round.number()) * 10 + i64::from(slot)),
                    progress: encounter.progress(&settings, 1, &games).unwrap(),
                    encounter,
                    games: (1..)
                        .zip(&games)
                        .map(|(number, &result)| EncounterGame { number, result })
                        .collect(),
                }
            })
            .collect();
        MatchdayResults {
            matchday: MatchdayEntry {
                id: MatchdayId(i64::from(round.number())),
                phase: Phase::Final,
                number: round.number(),
                stage: if published {
                    MatchdayStage::Published
                } else {
                    MatchdayStage::Played
                },
                deadline: None,
                published_at: None,
            },
            encounters,
            byes: Vec::new(),
        }
    }

    fn who(viewer: Viewer) -> Who {
        Who {
            viewer,
            ..Who::ANONYMOUS
        }
    }

    /// Teams 1–4 seeded so; the semi-finals published (1 and 2 win), the
    /// final (1 against 2) played but not.
    fn knockout() -> KnockoutResults {
        let winner = |round, slot, team| KnockoutWinner {
            round,
            slot,
            winner: TeamId(team),
        };
        KnockoutResults {
            seeded_from: Phase::Championship,
            bracket: Bracket {
                seeds: (1..=4).map(TeamId).collect(),
                decided: vec![
                    winner(KnockoutRound::SemiFinal, 1, 1),
                    winner(KnockoutRound::SemiFinal, 2, 2),
                    winner(KnockoutRound::Final, 1, 1),
                ],
            },
            rounds: vec![
                KnockoutRoundResults {
                    round: KnockoutRound::SemiFinal,
                    results: Some(round(KnockoutRound::SemiFinal, true, &[(1, 4), (2, 3)])),
                },
                KnockoutRoundResults {
                    round: KnockoutRound::ThirdPlace,
                    results: None,
                },
                KnockoutRoundResults {
                    round: KnockoutRound::Final,
                    results: Some(round(KnockoutRound::Final, false, &[(1, 2)])),
                },
            ],
        }
    }

    /// The final's box of the picture as `viewer` sees it: its sides'
    /// names and whether a winner is marked.
    fn final_box(viewer: Viewer) -> (Vec<String>, bool, String) {
        let names = (1..=4)
            .map(|t| (TeamId(t), format!("Team{t}")))
            .collect::<BTreeMap<_, _>>();
        let picture = bracket_picture(&who(viewer), &knockout(), &names);
        let last = picture.columns.last().unwrap();
        assert_eq!(last.title, "Final");
        let game = &last.matches[0];
        (
            game.sides.iter().map(|s| s.name.clone()).collect(),
            game.sides.iter().any(|s| s.winner) || game.sides.iter().any(|s| !s.score.is_empty()),
            game.note.clone(),
        )
    }

    #[test]
    fn an_unpublished_rounds_result_is_drawn_for_its_teams_and_the_organisers_only() {
        let member = |team| Viewer::Member {
            member: MemberId(9),
            team: TeamId(team),
            role: Role::Student,
        };
        let organiser = Viewer::Organiser { account: None };
        // Everybody knows who is in the final: the semi-finals are
        // published; the final's result only whom it may.
        for (viewer, sees) in [
            (Viewer::Anonymous, false),
            (member(3), false),
            (member(1), true),
            (member(2), true),
            (organiser, true),
        ] {
            let (sides, result_shown, note) = final_box(viewer);
            assert_eq!(sides, ["Team1", "Team2"], "{viewer:?}");
            assert_eq!(result_shown, sees, "{viewer:?}");
            assert!(note.contains("not yet published"), "{viewer:?}: {note}");
        }
        // The semi-finals' winners are drawn for all.
        let picture = bracket_picture(&who(Viewer::Anonymous), &knockout(), &BTreeMap::new());
        let semis = &picture.columns[0].matches;
        assert!(
            semis
                .iter()
                .all(|m| m.sides[0].winner && !m.sides[1].winner)
        );
        // The third place is not played: its sides are the semi-finals'
        // losers, named.
        let (_, third) = picture.aside.unwrap();
        assert_eq!(third.sides.map(|s| s.name), ["team 4", "team 3"]);
    }
}
