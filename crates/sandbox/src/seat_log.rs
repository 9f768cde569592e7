//! Notes in a seat's log, each written whole.
//!
//! A seat's log is one file that several writers append to at once: the
//! program's own output, the forwarder's notes on its connections, the
//! runner's notes on how the container ended. `writeln!` on a `File`
//! issues one `write` per piece of its format (the text, each argument, the
//! line end), so a program printing at the same moment lands between the
//! pieces and cuts the note in two (seen in CI: "the player connected"
//! and its time split by the player's first line). Formatted first and
//! written with one call, a note of this size is one append.

use std::{fmt, io::Write};

/// Appends the note `text` and a line end to `log` with one write.
/// Failing to write a note is not an error of the game: it is ignored.
pub fn append_note(mut log: impl Write, text: fmt::Arguments<'_>) {
    let mut line = text.to_string();
    line.push('\n');
    let _ = log.write_all(line.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records every write call it is given.
    #[derive(Default)]
    struct Calls(Vec<Vec<u8>>);

    impl Write for &mut Calls {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.push(bytes.to_vec());
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_note_with_arguments_is_one_write() {
        let mut calls = Calls::default();
        append_note(
            &mut calls,
            format_args!("[x] the player connected {} ms after {}", 1234, "start"),
        );
        assert_eq!(
            calls.0,
            vec![b"[x] the player connected 1234 ms after start\n".to_vec()]
        );
    }
}
