//! Errors in `SPIELLEITER_*` environment variables that clap refuses,
//! reported under the variable's name: clap names the flag even when the
//! bad value came from the flag's variable, and someone who set a variable
//! (in a container's environment, say) would look for the wrong thing.
//! (A value clap takes but the configuration refuses is named by `serve`'s
//! settings, which know where each came from.)

use std::error::Error as _;

use clap::{
    Arg, Command,
    error::{ContextKind, ContextValue, ErrorKind},
};

/// If clap rejected a value that the environment supplied, the message
/// naming the variable; `None` for every other error.
pub fn explain_parse_error(mut command: Command, error: &clap::Error) -> Option<String> {
    if !matches!(
        error.kind(),
        ErrorKind::InvalidValue | ErrorKind::ValueValidation
    ) {
        return None;
    }
    let Some(ContextValue::String(shown)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    let Some(ContextValue::String(value)) = error.get(ContextKind::InvalidValue) else {
        return None;
    };
    // Built, an argument displays as clap shows it in errors.
    command.build();
    let arg = all_args(&command).find(|arg| arg.to_string() == *shown)?;
    let variable = arg.get_env()?;
    // A flag given with the same bad value is reported as the flag.
    if std::env::var_os(variable) != Some(value.into()) || flag_given(arg) {
        return None;
    }
    let reason = match (error.source(), error.get(ContextKind::ValidValue)) {
        (Some(source), _) => source.to_string(),
        (None, Some(ContextValue::Strings(valid))) => {
            format!("expected one of {}", valid.join(", "))
        }
        _ => "not accepted".to_owned(),
    };
    Some(format!(
        "invalid value `{value}` in the environment variable {} (the setting of {}): {reason}",
        variable.to_string_lossy(),
        flag(arg),
    ))
}

fn all_args(command: &Command) -> Box<dyn Iterator<Item = &Arg> + '_> {
    Box::new(
        command
            .get_arguments()
            .chain(command.get_subcommands().flat_map(all_args)),
    )
}

fn flag(arg: &Arg) -> String {
    match arg.get_long() {
        Some(long) => format!("--{long}"),
        None => arg.get_id().to_string(),
    }
}

/// Whether the command line gives `arg` (as `--long`, `--long=…` or `-s…`).
fn flag_given(arg: &Arg) -> bool {
    std::env::args_os().skip(1).any(|given| {
        let given = given.to_string_lossy();
        let long = arg.get_long().is_some_and(|long| {
            given
                .strip_prefix("--")
                .and_then(|rest| rest.strip_prefix(long))
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('='))
        });
        let short = arg.get_short().is_some_and(|short| {
            given.strip_prefix('-').and_then(|rest| rest.chars().next()) == Some(short)
                && !given.starts_with("--")
        });
        long || short
    })
}
