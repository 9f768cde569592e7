//! [`english`]: the hosted seasons' German wire texts (result reasons,
//! mistakes, move descriptions, score fragments) in English, for what a
//! person reads: web pages, terminal output, logs and pictures. The wire
//! itself keeps each season's official texts.

/// German wire texts (official reasons, mistakes, move descriptions, score
/// fragments) and their English, in the order they are replaced: a text
/// that contains a shorter one (`∅ Punkte`, `Punkte`) comes first.
const ENGLISH: &[(&str, &str)] = &[
    // Reasons (protocol/src/texts.rs and the seasons' texts).
    (
        "Das Spiel wurde beendet, weil der Server herunterfährt",
        "The game was ended because the server shut down",
    ),
    (
        "Das Spiel wurde von einem Administrator abgebrochen",
        "An administrator cancelled the game",
    ),
    (
        "Der Spieler hat das Spiel verlassen",
        "The player left the game",
    ),
    (
        "Der Spieler hat innerhalb von ",
        "The player sent no move within ",
    ),
    (
        " Sekunden nach Aufforderung keinen Zug gesendet",
        " seconds of the request",
    ),
    (" hat innerhalb von ", " sent no move within "),
    (
        " hat fuer die Antwort auf die Zugaufforderung laenger als ",
        " took longer than ",
    ),
    (" Sekunden gebraucht", " seconds to answer the move request"),
    (
        "Der Spieler war nicht am Zug",
        "It was not the player's turn",
    ),
    (
        "Der Zug wurde nicht angefordert",
        "The move was not requested",
    ),
    (" hat am meisten Punkte erzielt", " scored the most points"),
    ("Beide Spieler sind gleichauf", "Both players are level"),
    (
        "Missachtung des Spielablaufs von ",
        "Broke the order of play: ",
    ),
    ("Regelverletzung von ", "Rule violation by "),
    (" hat das Spiel verlassen", " left the game"),
    ("Ungueltiger Zug von ", "Invalid move by "),
    (" bei Zug '", " in move '"),
    (" bei '", " in '"),
    // Mistakes.
    (
        "Die Farbe des Zuges ist nicht an der Reihe",
        "It is not this colour's turn",
    ),
    (
        "Der erste Zug muss den festgelegten Spielstein setzen",
        "The first move must place the start piece",
    ),
    (
        "Der gewählte Stein wurde bereits gesetzt",
        "The piece has been placed already",
    ),
    (
        "Der Spielstein passt nicht vollständig auf das Spielfeld",
        "The piece does not fit on the board",
    ),
    (
        "Der Spielstein würde eine andere Farbe überlagern",
        "The piece would cover another colour",
    ),
    (
        "Der Spielstein berührt ein Feld gleicher Farbe",
        "The piece touches a field of its own colour along an edge",
    ),
    (
        "Der erste Zug muss auf eine freie Ecke gesetzt werden",
        "The first move must cover a free corner",
    ),
    (
        "Der erste Zug muss an den Rand gesetzt werden",
        "The first move must touch the border",
    ),
    (
        "Alle Teile müssen ein vorheriges Teil gleicher Farbe über mindestens eine Ecke berühren",
        "Every piece must touch a piece of its colour at a corner",
    ),
    (
        "Der erste Zug muss einen Stein setzen",
        "The first move must place a piece",
    ),
    (
        "Der erste Stein einer Farbe muss die eigene Ecke der Farbe bedecken",
        "A colour's first piece must cover its own corner",
    ),
    (
        "Aussetzen ist nicht erlaubt, solange ein Stein gesetzt werden kann",
        "Passing is not allowed while a piece can be placed",
    ),
    (
        "Nur eigene Spielfiguren können gezogen werden",
        "Only the player's own pieces can be moved",
    ),
    (
        "Das Startfeld des Zuges ist leer",
        "The move's start field is empty",
    ),
    (
        "Das Zielfeld liegt außerhalb des Spielfelds",
        "The target field is off the board",
    ),
    (" kann sich nicht um ", " cannot move by "),
    (" bewegen", ""),
    (
        "Kann nicht auf ein Feld der eigenen Farbe ziehen",
        "Cannot move onto a field of the own colour",
    ),
    ("Dieser Zug ist nicht möglich", "This move is not possible"),
    (
        "Der Zug konnte nicht erkannt werden",
        "The move could not be read",
    ),
    (
        "Es darf nur um 1, 2 oder 3 gezählt werden",
        "Only 1, 2 or 3 may be counted",
    ),
    ("Das Spiel ist vorbei", "The game is over"),
    // Moves.
    ("Setze ", "Place "),
    (", gedreht um ", ", rotated by "),
    (", gespiegelt", ", flipped"),
    ("Farbe Blau", "BLUE"),
    ("Farbe Gelb", "YELLOW"),
    ("Farbe Rot", "RED"),
    ("Farbe Grün", "GREEN"),
    (" setzt aus", " skips"),
    ("Zug von [", "Move from ["),
    ("] zu [", "] to ["),
    // Score fragments.
    ("Leichtfiguren Vorne", "light piece ahead"),
    ("Siegpunkte", "win points"),
    ("Bernsteine", "ambers"),
    ("Gewinner", "win points"),
    ("∅ Punkte", "mean points"),
    ("∅ Platz", "mean place"),
    ("Punkte", "points"),
    ("Summe", "sum"),
];

/// A wire text in English: every German fragment the hosted seasons send
/// (reasons, mistakes, moves, score fragments) replaced by its English.
/// The wire keeps the official texts; what a person reads on the pages,
/// in the terminal and in pictures is English.
pub fn english(text: &str) -> String {
    let mut out = text.to_owned();
    for (german, english) in ENGLISH {
        if out.contains(german) {
            out = out.replace(german, english);
        }
    }
    out
}

/// Whether `text` still reads as German: an umlaut, or a common German
/// word of the seasons' texts. The check of the tests that what a person
/// reads is English.
pub fn looks_german(text: &str) -> bool {
    text.contains(['ä', 'ö', 'ü', 'ß', 'Ä', 'Ö', 'Ü'])
        || [
            " der ", " die ", " das ", " nicht ", " von ", " hat ", "Punkte", "Zug", "Spiel",
        ]
        .iter()
        .any(|word| text.contains(word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room_texts as texts;

    #[test]
    fn the_seasons_texts_read_in_english() {
        let reasons = [
            texts::SHUTDOWN_REASON.to_owned(),
            texts::CANCELLED_REASON.to_owned(),
            texts::LEFT_REASON.to_owned(),
            texts::soft_timeout_reason(2),
            texts::not_your_turn_reason("Setze PENTO_L(Farbe Gelb, gedreht um 90°, gespiegelt)[15,3]"),
            texts::move_not_requested_reason("Farbe Grün setzt aus"),
            texts::rule_violation_reason(
                "Der Spielstein würde eine andere Farbe überlagern",
                Some("Zug von [7|3] zu [6|3]"),
            ),
            "Regelverletzung von bob: Der erste Zug muss an den Rand gesetzt werden bei 'Setze PENTO_V(Farbe Gelb)[8,8]'".to_owned(),
            "bob hat fuer die Antwort auf die Zugaufforderung laenger als 2 Sekunden gebraucht.".to_owned(),
            "TWO hat innerhalb von 2 Sekunden nach Aufforderung keinen Zug gesendet.".to_owned(),
            "alice hat am meisten Punkte erzielt.".to_owned(),
            "bob hat das Spiel verlassen: LOST_CONNECTION".to_owned(),
        ];
        for reason in reasons {
            let english = english(&reason);
            assert!(!looks_german(&english), "{reason} → {english}");
        }
        assert_eq!(
            english(texts::SHUTDOWN_REASON),
            "The game was ended because the server shut down"
        );
    }
}
