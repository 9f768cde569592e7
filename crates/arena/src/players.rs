//! Starting a player for a reserved slot, waiting for it to end, and ending
//! it by force: a program in its own process group (so whatever it starts
//! goes with it) with its output in a log file, a sandboxed program's
//! container (`spielleiter-sandbox`), or a built-in bot as a task of this
//! process.

use std::{
    fs::OpenOptions,
    path::{Path, PathBuf},
    process::Stdio,
};

use spielleiter_bots::{AnyBot, Bot};
use spielleiter_client::{ClientError, Connection, GameReport, PlayOptions, play};
use spielleiter_rules::GameType;
use spielleiter_sandbox::{JoinTurn, SandboxedPlayer, Seat};
use tokio::{process::Child, task::JoinHandle};

use crate::settings::Program;

/// Where and as whom a player joins.
#[derive(Clone, Debug)]
pub(crate) struct Invitation<'a> {
    pub host: &'a str,
    pub port: u16,
    /// The game the reserved seat is in.
    pub game: GameType,
    pub reservation: &'a str,
    /// `<log_dir>/<name>_game<N>.log`.
    pub log_path: PathBuf,
    /// N, for the log.
    pub game_number: u32,
    /// Seed for a random built-in bot.
    pub seed: u64,
    /// When a sandboxed player may join (its container may start before).
    pub turn: JoinTurn,
}

/// A started player.
#[derive(Debug)]
pub(crate) enum Launched {
    // Two per game: the size difference to a task handle does not matter.
    Program {
        child: Box<Child>,
        log_path: PathBuf,
    },
    Builtin(JoinHandle<Result<GameReport, ClientError>>),
    Sandboxed(Box<SandboxedPlayer>),
}

/// Starts `program` for the slot described by `invitation`.
///
/// # Errors
///
/// Why the program could not be started (missing file, not executable,
/// log file not writable), as text for the game record.
pub(crate) fn launch(program: &Program, invitation: &Invitation<'_>) -> Result<Launched, String> {
    match program {
        Program::Builtin(kind) => {
            let bot = kind
                .build(invitation.game, invitation.seed)
                .map_err(|e| e.to_string())?;
            Ok(Launched::Builtin(tokio::spawn(builtin(
                bot,
                invitation.host.to_owned(),
                invitation.port,
                invitation.reservation.to_owned(),
            ))))
        }
        Program::Docker(sandboxed) => {
            let player = SandboxedPlayer::start(
                sandboxed,
                Seat {
                    host: invitation.host,
                    port: invitation.port,
                    reservation: invitation.reservation,
                    log: open_log(program, invitation)?,
                    turn: invitation.turn.clone(),
                },
            )
            .map_err(|e| e.to_string())?;
            Ok(Launched::Sandboxed(Box::new(player)))
        }
        Program::Executable { path, args } => {
            let log = open_log(program, invitation)?;
            let log_err = log.try_clone().map_err(|e| e.to_string())?;
            let port = invitation.port.to_string();
            let mut command = if is_jar(path) {
                let mut java = tokio::process::Command::new("java");
                java.arg("-jar").arg(path).args(args).args([
                    "-r",
                    invitation.reservation,
                    "-h",
                    invitation.host,
                    "-p",
                    &port,
                ]);
                java
            } else {
                let mut exe = tokio::process::Command::new(path);
                exe.args(args).args([
                    "--reservation",
                    invitation.reservation,
                    "--host",
                    invitation.host,
                    "--port",
                    &port,
                ]);
                exe
            };
            command
                .stdin(Stdio::null())
                .stdout(log)
                .stderr(log_err)
                .kill_on_drop(true);
            #[cfg(unix)]
            command.process_group(0);
            let child = command
                .spawn()
                .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
            Ok(Launched::Program {
                child: Box::new(child),
                log_path: invitation.log_path.clone(),
            })
        }
    }
}

/// Opens the player's log for this game and notes what is started.
/// Appended: the logs of earlier runs (a resumed match, another match with
/// the same names) stay.
fn open_log(program: &Program, invitation: &Invitation<'_>) -> Result<std::fs::File, String> {
    let log = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&invitation.log_path)
        .map_err(|e| format!("cannot open {}: {e}", invitation.log_path.display()))?;
    spielleiter_sandbox::append_note(
        &log,
        format_args!(
            "[spielleiter] {} game {}: {program}",
            jiff::Zoned::now().strftime("%Y-%m-%d %H:%M:%S"),
            invitation.game_number
        ),
    );
    Ok(log)
}

fn is_jar(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "jar")
}

async fn builtin(
    mut bot: AnyBot,
    host: String,
    port: u16,
    reservation: String,
) -> Result<GameReport, ClientError> {
    let mut connection = Connection::connect((host.as_str(), port)).await?;
    let room = connection
        .join_prepared(&reservation, bot.game_type())
        .await?;
    play(&mut connection, &room, PlayOptions::default(), |game| {
        bot.choose_move(game)
    })
    .await
}

impl Launched {
    /// Waits until the player has ended; describes how. Must not be called
    /// again once it has returned.
    pub(crate) async fn wait(&mut self) -> String {
        match self {
            Launched::Program { child, .. } => match child.wait().await {
                Ok(status) => status.to_string(),
                Err(error) => format!("cannot wait for the program: {error}"),
            },
            Launched::Builtin(task) => match task.await {
                Ok(Ok(_)) => "the bot finished".to_owned(),
                Ok(Err(error)) => format!("the bot failed: {error}"),
                Err(error) => format!("the bot task failed: {error}"),
            },
            Launched::Sandboxed(player) => player.wait().await,
        }
    }

    /// Ends the player by force, with everything its program started, and
    /// notes why in its log.
    pub(crate) async fn kill(&mut self, why: &str) {
        match self {
            Launched::Program { child, log_path } => {
                if let Ok(log) = OpenOptions::new().append(true).open(&*log_path) {
                    // The program may be printing: the note is one write.
                    spielleiter_sandbox::append_note(
                        &log,
                        format_args!("\n[spielleiter] killed: {why}"),
                    );
                }
                #[cfg(unix)]
                if let Some(pid) = child.id().and_then(|id| i32::try_from(id).ok()) {
                    // The program leads its own group (process_group(0)).
                    let _ = nix::sys::signal::killpg(
                        nix::unistd::Pid::from_raw(pid),
                        nix::sys::signal::Signal::SIGKILL,
                    );
                }
                let _ = child.start_kill();
                let _ = child.wait().await;
            }
            Launched::Builtin(task) => {
                task.abort();
                let _ = task.await;
            }
            Launched::Sandboxed(player) => player.kill(why).await,
        }
    }
}
