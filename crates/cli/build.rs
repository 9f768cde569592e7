//! Links the `spielleiter` binary with packed relative relocations
//! (`DT_RELR`) where the C library it is linked against can apply them.
//!
//! The binary is position-independent (also the container image's static
//! one), so the loader moves every pointer in its read-only tables at start;
//! in the classic format that is 24 bytes per pointer, about 400 KB of the
//! binary, and the packed format needs about 5 KB for the same pointers.
//! glibc applies packed relocations from 2.36 on (in the dynamic loader and
//! in a static binary's own start code). A binary linked with them needs a
//! loader that knows them, so the option is given only where the glibc being
//! linked against defines the symbol version `GLIBC_ABI_DT_RELR` that says
//! so; elsewhere (an older glibc, another C library, a cross build) the
//! binary is linked as before.

use std::{env, path::PathBuf, process::Command};

/// The version name glibc defines from 2.36 on, where its loader applies
/// `DT_RELR`; the linker makes a binary with packed relocations require it.
const RELR_VERSION: &[u8] = b"GLIBC_ABI_DT_RELR";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC_LINKER");
    if target_links_glibc_that_reads_relr() {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

fn target_links_glibc_that_reads_relr() -> bool {
    let var = |name: &str| env::var(name).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") != "linux" || var("CARGO_CFG_TARGET_ENV") != "gnu" {
        return false;
    }
    // A cross build's C library is not the one the host's compiler finds.
    if var("HOST") != var("TARGET") {
        return false;
    }
    // The C compiler driver rustc links with (`cc` unless configured) says
    // which libc.so.6 it links against; a linker that is not a compiler
    // driver does not answer, and nothing is added.
    let linker = env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".to_owned());
    let Ok(answer) = Command::new(&linker)
        .arg("-print-file-name=libc.so.6")
        .output()
    else {
        return false;
    };
    if !answer.status.success() {
        return false;
    }
    let path = PathBuf::from(String::from_utf8_lossy(&answer.stdout).trim());
    // A bare name back means the driver did not find the library.
    if !path.is_absolute() {
        return false;
    }
    std::fs::read(&path).is_ok_and(|library| {
        library
            .windows(RELR_VERSION.len())
            .any(|window| window == RELR_VERSION)
    })
}
