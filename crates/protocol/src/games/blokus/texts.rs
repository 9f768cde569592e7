//! The official German texts of Blokus: the explanations of the mistakes, as the 2021 server
//! words them (`blokus-2021.md` §11.1). The 2027 server words them the
//! same but for `WRONG_COLOR` (`blokus-2027.md` §3.6), which its own module
//! says.

use spielleiter_rules::blokus::Mistake;

use super::moves::WireMove;

/// The official German explanation of `mistake`, as the 2021 server sends
/// it in error messages and result reasons (`blokus-2021.md` §11.1).
pub const fn mistake_text(mistake: Mistake) -> &'static str {
    match mistake {
        Mistake::WrongColor => "Die Farbe des Zuges ist nicht an der Reihe",
        Mistake::WrongShape => "Der erste Zug muss den festgelegten Spielstein setzen",
        Mistake::DuplicateShape => "Der gewählte Stein wurde bereits gesetzt",
        Mistake::OutOfBounds => "Der Spielstein passt nicht vollständig auf das Spielfeld",
        Mistake::Obstructed => "Der Spielstein würde eine andere Farbe überlagern",
        Mistake::TouchesSameColor => "Der Spielstein berührt ein Feld gleicher Farbe",
        Mistake::NotInCorner => "Der erste Zug muss auf eine freie Ecke gesetzt werden",
        // A 2027 mistake (`blokus-2027.md` §3.6); a 2021 game never reports
        // it, and a 2027 game never reports NOT_IN_CORNER.
        Mistake::NotOnBorder => "Der erste Zug muss an den Rand gesetzt werden",
        Mistake::NoSharedCorner => {
            "Alle Teile müssen ein vorheriges Teil gleicher Farbe über mindestens eine Ecke berühren"
        }
        Mistake::SkipFirstTurn => "Der erste Zug muss einen Stein setzen",
    }
}

/// Whether the official server names the move when it reports `mistake`
/// (`blokus-2021.md` §11.1, the same in 2027): not for `WRONG_SHAPE` and
/// `DUPLICATE_SHAPE`.
pub const fn mistake_names_move(mistake: Mistake) -> bool {
    !matches!(mistake, Mistake::WrongShape | Mistake::DuplicateShape)
}

/// The move description that goes with `mistake` in error texts: the move's
/// description, or `None` where the official server prints `null`.
pub fn mistake_move_description(mistake: Mistake, mv: &WireMove) -> Option<String> {
    mistake_names_move(mistake).then(|| mv.description())
}

#[cfg(test)]
mod tests {
    use spielleiter_rules::blokus::{Color, PieceKind, Placement, Rotation};

    use super::*;
    use crate::room_texts::{rule_violation, rule_violation_reason, rule_violation_room_error};

    fn mono() -> WireMove {
        WireMove::Set(Placement {
            color: Color::Yellow,
            kind: PieceKind::Mono,
            rotation: Rotation::None,
            flipped: false,
            x: 16,
            y: 3,
        })
    }

    #[test]
    fn shape_mistakes_are_reported_without_the_move() {
        let mv = WireMove::Skip(Some(Color::Blue));
        assert_eq!(mistake_move_description(Mistake::WrongShape, &mv), None);
        assert_eq!(mistake_move_description(Mistake::DuplicateShape, &mv), None);
        assert_eq!(
            mistake_move_description(Mistake::SkipFirstTurn, &mv).as_deref(),
            Some("Farbe Blau setzt aus")
        );
    }

    #[test]
    fn rule_violation_texts_match_the_vectors() {
        let mv = mono();
        let mistake = Mistake::NoSharedCorner;
        let description = mistake_move_description(mistake, &mv);
        let m = mistake_text(mistake);
        assert_eq!(
            rule_violation_room_error("bob", m, description.as_deref()),
            format!(
                "Ungueltiger Zug von 'bob'.\nInvalidMoveException(mistake={m}, move=Setze MONO(Farbe Gelb)[16,3])"
            )
        );
        assert_eq!(
            rule_violation_reason(m, description.as_deref()),
            format!("{m} bei Zug 'Setze MONO(Farbe Gelb)[16,3]'")
        );
        let shape = Mistake::DuplicateShape;
        let none = mistake_move_description(shape, &mv);
        assert_eq!(
            rule_violation_reason(mistake_text(shape), none.as_deref()),
            "Der gewählte Stein wurde bereits gesetzt"
        );
        assert_eq!(
            rule_violation(mistake_text(shape), none.as_deref()),
            "sc.api.plugins.exceptions.GameLogicException: InvalidMoveException(mistake=Der gewählte Stein wurde bereits gesetzt, move=null)"
        );
    }
}
