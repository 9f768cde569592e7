//! One line of counters, as `bench`'s child processes (players, web
//! observers) report to it on their standard output: a word saying what
//! is counted, then the numbers.

use std::sync::atomic::{AtomicU64, Ordering};

/// `word` and the values of `counters`, separated by spaces.
pub fn write(word: &str, counters: &[&AtomicU64]) -> String {
    let mut line = word.to_owned();
    for counter in counters {
        line.push(' ');
        line.push_str(&counter.load(Ordering::Relaxed).to_string());
    }
    line
}

/// The `N` numbers of a line made by `write` with `word`; `None` for any
/// other line (another word, more or fewer numbers, a number that is not
/// one).
pub fn read<const N: usize>(word: &str, line: &str) -> Option<[AtomicU64; N]> {
    let mut numbers = line.strip_prefix(word)?.strip_prefix(' ')?.split(' ');
    let mut counts = [0; N];
    for count in &mut counts {
        *count = numbers.next()?.parse().ok()?;
    }
    numbers.next().is_none().then(|| counts.map(AtomicU64::new))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_back_only_with_its_word_and_all_its_numbers() {
        let (a, b) = (AtomicU64::new(3), AtomicU64::new(u64::MAX));
        let line = write("tally", &[&a, &b]);
        assert_eq!(line, format!("tally 3 {}", u64::MAX));
        let [x, y] = read::<2>("tally", &line).expect("read back");
        assert_eq!((x.into_inner(), y.into_inner()), (3, u64::MAX));
        assert!(read::<2>("observed", &line).is_none());
        assert!(read::<3>("tally", &line).is_none());
        assert!(read::<1>("tally", &line).is_none());
        assert!(read::<2>("tally", "tally 3 x").is_none());
        assert!(read::<2>("tally", "tallyx 3 4").is_none());
    }
}
