//! A knockout bracket as an SVG picture (the contest's final, issue 37):
//! one column per round, left to right, each encounter a box of its two
//! sides (name and score, the winner in bold), lines from each pair of
//! encounters to the one their winners meet in, and the match for third
//! place under the last column. What the boxes say comes in whole from the
//! caller ([`BracketPicture`]): the picture knows no contest, no rule and
//! no publication, only text to place — escaped, as every picture here
//! escapes its text, and cut to a length the boxes hold.

use std::fmt::Write;

use crate::svg::escape;

/// One side of an encounter's box.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BracketSide {
    /// Who (a team's name, or a placeholder such as "winner of SF 1").
    pub name: String,
    /// Its score, if shown (games won).
    pub score: String,
    /// Whether it won the encounter (drawn in bold, marked).
    pub winner: bool,
}

/// One encounter's box.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BracketMatch {
    /// Home first.
    pub sides: [BracketSide; 2],
    /// A line under the box ("not yet published", "6 games").
    pub note: String,
    /// Where the box links to (a matchday's page), if anywhere.
    pub link: Option<String>,
}

/// A round's column.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BracketColumn {
    /// Its heading.
    pub title: String,
    /// Its encounters, top to bottom: encounters `2k` and `2k + 1` feed
    /// encounter `k` of the next column.
    pub matches: Vec<BracketMatch>,
}

/// A bracket to draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BracketPicture {
    /// The rounds, first round first.
    pub columns: Vec<BracketColumn>,
    /// A box drawn under the last column with its own heading (the match
    /// for third place).
    pub aside: Option<(String, BracketMatch)>,
}

const BOX_WIDTH: u32 = 220;
const LINE_HEIGHT: u32 = 22;
const BOX_HEIGHT: u32 = 2 * LINE_HEIGHT;
const NOTE_HEIGHT: u32 = 16;
const SLOT_HEIGHT: u32 = BOX_HEIGHT + NOTE_HEIGHT + 20;
const COLUMN_GAP: u32 = 48;
const PAD: u32 = 16;
const HEADING: u32 = 28;
/// Longer names are cut (the picture does not measure text).
const MAX_NAME_CHARS: usize = 22;

const BACKGROUND: &str = "#fbfaf6";
const INK: &str = "#222222";
const MUTED: &str = "#6b6b6b";
const EDGE: &str = "#8a8273";
const WINNER_GROUND: &str = "#f6e7b0";

fn cut(text: &str, most: usize) -> String {
    if text.chars().count() <= most {
        text.to_owned()
    } else {
        let mut short: String = text.chars().take(most.saturating_sub(1)).collect();
        short.push('…');
        short
    }
}

/// The top of each box of each column: the first column's evenly spaced,
/// every later box midway between the two that feed it (or, for a column
/// that does not halve, level with the box of its index).
fn tops(picture: &BracketPicture) -> Vec<Vec<u32>> {
    let mut tops: Vec<Vec<u32>> = Vec::new();
    for (c, column) in picture.columns.iter().enumerate() {
        let column_tops = (0..column.matches.len())
            .map(|m| match tops.get(c.wrapping_sub(1)).filter(|_| c > 0) {
                Some(before) if before.len() >= 2 * m + 2 => {
                    (before[2 * m] + before[2 * m + 1]) / 2
                }
                Some(before) if m < before.len() => before[m],
                _ => PAD + HEADING + m as u32 * SLOT_HEIGHT,
            })
            .collect();
        tops.push(column_tops);
    }
    tops
}

fn draw_match(out: &mut String, x: u32, y: u32, game: &BracketMatch) {
    if let Some(link) = &game.link {
        let _ = write!(out, r#"<a href="{}">"#, escape(link));
    }
    let _ = write!(
        out,
        r#"<g data-match=""><rect x="{x}" y="{y}" width="{BOX_WIDTH}" height="{BOX_HEIGHT}" rx="4" fill="white" stroke="{EDGE}"/>"#
    );
    for (i, side) in game.sides.iter().enumerate() {
        let top = y + i as u32 * LINE_HEIGHT;
        if side.winner {
            let _ = write!(
                out,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{WINNER_GROUND}" data-winner=""/>"#,
                x + 1,
                top + 1,
                BOX_WIDTH - 2,
                LINE_HEIGHT - 2
            );
        }
        let weight = if side.winner { "bold" } else { "normal" };
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-weight="{weight}" fill="{INK}">{}</text><text x="{}" y="{}" text-anchor="end" font-weight="{weight}" fill="{INK}">{}</text>"#,
            x + 8,
            top + 15,
            escape(&cut(&side.name, MAX_NAME_CHARS)),
            x + BOX_WIDTH - 8,
            top + 15,
            escape(&cut(&side.score, 8)),
        );
    }
    let _ = write!(
        out,
        r#"<line x1="{x}" y1="{mid}" x2="{}" y2="{mid}" stroke="{EDGE}" stroke-opacity="0.4"/>"#,
        x + BOX_WIDTH,
        mid = y + LINE_HEIGHT
    );
    if !game.note.is_empty() {
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-size="11" fill="{MUTED}">{}</text>"#,
            x + 2,
            y + BOX_HEIGHT + 13,
            escape(&cut(&game.note, 36))
        );
    }
    out.push_str("</g>");
    if game.link.is_some() {
        out.push_str("</a>");
    }
}

/// The bracket as an SVG document.
pub fn bracket_svg(picture: &BracketPicture) -> String {
    let tops = tops(picture);
    let columns = picture.columns.len().max(1) as u32;
    let width = 2 * PAD + columns * BOX_WIDTH + (columns - 1) * COLUMN_GAP;
    let lowest = tops
        .iter()
        .flatten()
        .copied()
        .max()
        .unwrap_or(PAD + HEADING);
    let aside_top = lowest + SLOT_HEIGHT + HEADING;
    let height = if picture.aside.is_some() {
        aside_top + SLOT_HEIGHT + PAD
    } else {
        lowest + SLOT_HEIGHT + PAD
    };
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-family="system-ui, sans-serif" font-size="14" data-bracket="" role="img" aria-label="the final's bracket"><rect width="{width}" height="{height}" fill="{BACKGROUND}"/>"#
    );
    let x_of = |c: usize| PAD + c as u32 * (BOX_WIDTH + COLUMN_GAP);
    for (c, column) in picture.columns.iter().enumerate() {
        let x = x_of(c);
        let _ = write!(
            out,
            r#"<text x="{x}" y="{}" font-weight="bold" fill="{INK}">{}</text>"#,
            PAD + 14,
            escape(&cut(&column.title, 30))
        );
        for (m, game) in column.matches.iter().enumerate() {
            let y = tops[c][m];
            // The line to the box this one's winner goes on to.
            if let Some(next) = tops.get(c + 1).and_then(|next| next.get(m / 2))
                && tops
                    .get(c + 1)
                    .is_some_and(|next| 2 * next.len() == tops[c].len())
            {
                let (from_y, to_y) = (y + LINE_HEIGHT, next + LINE_HEIGHT);
                let (from_x, to_x) = (x + BOX_WIDTH, x_of(c + 1));
                let bend = from_x + COLUMN_GAP / 2;
                let _ = write!(
                    out,
                    r#"<path d="M{from_x} {from_y}H{bend}V{to_y}H{to_x}" fill="none" stroke="{EDGE}"/>"#
                );
            }
            draw_match(&mut out, x, y, game);
        }
    }
    if let Some((title, game)) = &picture.aside {
        let x = x_of(picture.columns.len().saturating_sub(1));
        let _ = write!(
            out,
            r#"<text x="{x}" y="{}" font-weight="bold" fill="{INK}">{}</text>"#,
            aside_top - 10,
            escape(&cut(title, 30))
        );
        draw_match(&mut out, x, aside_top, game);
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(name: &str, score: &str, winner: bool) -> BracketSide {
        BracketSide {
            name: name.to_owned(),
            score: score.to_owned(),
            winner,
        }
    }

    fn four() -> BracketPicture {
        let semi = |a: &str, b: &str| BracketMatch {
            sides: [side(a, "4", true), side(b, "2", false)],
            note: "6 games".to_owned(),
            link: Some("/contest/matchdays/final/2".to_owned()),
        };
        BracketPicture {
            columns: vec![
                BracketColumn {
                    title: "Semi-finals".to_owned(),
                    matches: vec![semi("Owls", "Foxes"), semi("<script>", "B&B")],
                },
                BracketColumn {
                    title: "Final".to_owned(),
                    matches: vec![BracketMatch::default()],
                },
            ],
            aside: Some(("Third place".to_owned(), BracketMatch::default())),
        }
    }

    #[test]
    fn names_are_escaped_and_every_box_drawn() {
        let svg = bracket_svg(&four());
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(svg.contains("&lt;script&gt;") && svg.contains("B&amp;B"));
        assert!(!svg.contains("<script>"));
        assert_eq!(svg.matches("data-match=").count(), 4);
        assert_eq!(svg.matches("data-winner=").count(), 2);
        // Two lines from the semi-finals to the final.
        assert_eq!(svg.matches("<path d=").count(), 2);
    }

    #[test]
    fn a_later_box_sits_between_the_two_that_feed_it() {
        let tops = tops(&four());
        assert_eq!(tops[1][0], (tops[0][0] + tops[0][1]) / 2);
        assert!(tops[0][1] > tops[0][0]);
    }

    #[test]
    fn long_names_are_cut() {
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abc", 4), "abc");
    }
}
