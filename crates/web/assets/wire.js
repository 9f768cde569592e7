// The replay page's wire log: each seat's bytes as the server read and
// wrote them (serve --wire-log), shown below the viewer when the game kept
// one and this browser may see it. Kept apart from app.js, which draws the
// replay itself.
(function () {
  "use strict";
  // The most characters shown in the page; the whole log is a link away.
  var SHOWN = 200000;
  var section = document.getElementById("wire");
  var match = location.pathname.match(/^\/replays\/([^/]+)$/);
  if (!section || !match) return;
  var address = "/api/replays/" + match[1] + "/wire";
  var text = document.getElementById("wire-text");
  var note = document.getElementById("wire-note");
  var link = document.getElementById("wire-link");
  link.href = address;
  fetch(address, { credentials: "same-origin" }).then(function (answer) {
    if (answer.status === 404) return null;
    section.hidden = false;
    if (answer.status === 401) {
      note.textContent = "The wire log of this game is shown to the administrator: ";
      var login = document.createElement("a");
      login.href = "/login";
      login.textContent = "log in";
      note.appendChild(login);
      note.appendChild(document.createTextNode(" to see it."));
      link.hidden = true;
      return null;
    }
    if (!answer.ok) {
      note.textContent = "The wire log cannot be shown (HTTP " + answer.status + ").";
      return null;
    }
    return answer.text();
  }).then(function (log) {
    if (log === null || log === undefined) return;
    if (log.length > SHOWN) {
      note.textContent = "The first " + SHOWN + " characters of " + log.length + "; open the whole log as text.";
      log = log.slice(0, SHOWN);
    } else {
      note.textContent = "Each seat's bytes as the server read them (received) and wrote them (written), in UTC.";
    }
    text.textContent = log;
    text.hidden = false;
  }).catch(function (error) {
    section.hidden = false;
    note.textContent = "The wire log cannot be shown: " + error;
  });
})();
