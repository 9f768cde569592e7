//! What a sandboxed player runs: [`SandboxedProgram`], an image with its
//! arguments and limits.

use std::fmt;

use crate::limits::SandboxLimits;

/// A player that runs in the sandbox: `docker:IMAGE [ARGS…]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxedProgram {
    /// The image, `NAME[:TAG]`: built by `spielleiter player build`, or
    /// based on a sandbox base image.
    pub image: String,
    /// Arguments of the image's start program before the contest's.
    pub args: Vec<String>,
    /// What the container may use.
    pub limits: SandboxLimits,
}

impl SandboxedProgram {
    /// `image` with no arguments of its own and the default limits.
    pub fn new(image: impl Into<String>) -> Self {
        SandboxedProgram {
            image: image.into(),
            args: Vec::new(),
            limits: SandboxLimits::default(),
        }
    }
}

impl fmt::Display for SandboxedProgram {
    /// `docker:IMAGE`, without the arguments (the caller quotes those).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "docker:{}", self.image)
    }
}
