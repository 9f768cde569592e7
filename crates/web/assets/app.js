// Spielleiter's pages: a little plain JavaScript, no build step. Each page
// calls one of the functions returned at the bottom; the data comes from
// the JSON routes under /api/.
"use strict";

const sl = (() => {
  // The hosted games' titles by id, from the server (`/api/games`), which
  // takes them from the rules catalogue; filled before a page starts.
  const gameTitles = {};

  const $ = (id) => document.getElementById(id);

  /** An element with attributes and children (strings become text). */
  function el(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value !== undefined && value !== null) node.setAttribute(name, value);
    }
    for (const child of children) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  /** `text` cut to `limit` characters with an ellipsis, its whole in the
   * element's tooltip: long names do not widen a table. */
  function shortened(tag, text, limit, attributes = {}) {
    const whole = String(text);
    if (whole.length <= limit) return el(tag, attributes, whole);
    return el(tag, { ...attributes, title: whole }, whole.slice(0, limit - 1) + "…");
  }

  function gameName(id) {
    return gameTitles[id] || id || "unknown game";
  }

  function when(seconds) {
    return seconds ? new Date(seconds * 1000).toLocaleString() : "";
  }

  /** A player's points, each part named (`81 points · place 2`). */
  function points(player) {
    return player.score || player.points.join(" · ");
  }

  function fetchJson(url) {
    return fetch(url, { credentials: "same-origin" }).then(async (response) => {
      const body = await response.json().catch(() => ({}));
      if (!response.ok) {
        const error = new Error(body.error || response.statusText);
        error.status = response.status;
        error.login = body.login;
        throw error;
      }
      return body;
    });
  }

  function showError(node, error) {
    node.replaceChildren(error.message);
    if (error.login) node.append(" ", el("a", { href: "/login" }, "Log in"));
    node.hidden = false;
  }

  /** The rows of a room table (running or finished games). */
  function roomRows(rooms, finished) {
    return rooms.map((room) => {
      const players = room.players.map((p) =>
        el("div", { class: p.to_move ? "to-move" : "" }, p.name + (p.seated ? "" : " (open)")));
      const scores = room.players.map((p) => el("div", {}, points(p)));
      const status = finished && room.result ? room.result.summary : room.phase;
      return el("tr", { "data-room": room.id },
        el("td", {}, el("a", { href: "/rooms/" + encodeURIComponent(room.id) }, room.id.slice(0, 8))),
        el("td", {}, gameName(room.game)),
        el("td", {}, ...players),
        el("td", { class: "number" }, room.turn),
        el("td", { class: "number" }, ...scores),
        el("td", {}, status),
        el("td", { class: "muted" }, when(room.opened)));
    });
  }

  /** `/`: the running rooms and the last finished games, every second. */
  function indexPage() {
    const refresh = () => fetchJson("/api/rooms").then((list) => {
      $("error").hidden = true;
      $("rooms").tBodies[0].replaceChildren(...roomRows(list.rooms, false));
      $("no-rooms").hidden = list.rooms.length > 0 || !list.live;
      const note = $("live-note");
      note.hidden = list.live;
      if (list.login) {
        note.replaceChildren("Running games are shown after a login. ", el("a", { href: "/login" }, "Log in"));
      } else {
        note.replaceChildren("Running games are not shown on this address; finished games and replays are.");
      }
      $("finished").tBodies[0].replaceChildren(...roomRows(list.finished, true));
      $("no-finished").hidden = list.finished.length > 0;
    }).catch((error) => showError($("error"), error));
    refresh();
    setInterval(refresh, 1000);
    contestPlaying();
  }

  /** The contest's matchdays being played, on the games page: each one's
   * progress and the running games this viewer may see, every 5 s (its
   * workers play them elsewhere: no moves here). Where no contest is
   * served the section stays hidden and is not asked again. */
  function contestPlaying() {
    const section = $("contest");
    if (!section) return;
    let timer = null;
    const refresh = () => fetchJson("/api/contest/playing").then((list) => {
      const days = list.matchdays.map((day) => {
        const total = day.done + day.running + day.waiting + day.failed;
        const parts = [`${day.done} of ${total} games played`, `${day.running} running`];
        if (day.failed > 0) parts.push(`${day.failed} failed`);
        const rows = day.games.map((game) => el("tr", {},
          el("td", {}, game.encounter),
          el("td", { class: "number" }, game.game),
          el("td", {}, game.worker || ""),
          el("td", { class: "muted" }, when(game.since))));
        const children = [
          el("h3", {}, el("a", { href: day.href }, day.title)),
          el("p", { class: "muted" }, parts.join(" · ")),
        ];
        if (rows.length > 0) {
          children.push(el("table", { class: "playing" },
            el("thead", {}, el("tr", {}, el("th", {}, "Encounter"), el("th", { class: "number" }, "Game"),
              el("th", {}, "Worker"), el("th", {}, "Since"))),
            el("tbody", {}, ...rows)));
        }
        if (day.hidden > 0) {
          children.push(el("p", { class: "muted" },
            `${day.hidden} running game${day.hidden === 1 ? " is" : "s are"} not shown: their line-up is not published yet.`));
        }
        return el("section", { class: "playing-matchday" }, ...children);
      });
      $("contest-matchdays").replaceChildren(...days);
      section.hidden = days.length === 0;
    }).catch((error) => {
      section.hidden = true;
      if (error.status === 404 && timer !== null) clearInterval(timer);
    });
    refresh();
    timer = setInterval(refresh, 5000);
  }

  /** The players of a position: marker, name, points. */
  function playerRows(players) {
    return players.map((p, seat) => el("tr", { "data-seat": seat },
      shortened("td", p.name, 28, { class: p.to_move ? "to-move" : "" }),
      el("td", { class: "number" }, points(p))));
  }

  /** The result: who won, and each player's score and cause (its reason
   * under it), in three columns that fit the page's side column. */
  function resultBlock(result, names) {
    if (!result) return [];
    const rows = result.scores.map((score, seat) => el("tr", {},
      shortened("td", names[seat] || seat, 28),
      el("td", { class: "number" }, score.score || score.parts.join(" · ")),
      el("td", {}, score.cause, ...(score.reason ? [el("div", { class: "muted reason" }, score.reason)] : []))));
    return [
      el("h2", {}, "Result: " + result.summary),
      el("table", { class: "result" },
        el("thead", {}, el("tr", {}, el("th", {}, "Player"),
          el("th", { class: "number" }, "Score"), el("th", {}, "Cause"))),
        el("tbody", {}, ...rows)),
    ];
  }

  /** `/rooms/{id}`: the live board, from the room's event stream. */
  function roomPage() {
    const id = decodeURIComponent(location.pathname.split("/")[2] || "");
    document.title = "Room " + id.slice(0, 8) + " · Spielleiter";
    // Sent here from the play page of someone else's seat.
    $("seat-note").hidden = new URLSearchParams(location.search).get("seat") !== "another";
    let view = null;
    let clock = null;
    const showClock = () => {
      const node = $("clock");
      if (!view || !clock || view.phase !== "running") {
        node.replaceChildren();
        return;
      }
      const elapsed = clock.elapsed_ms + (performance.now() - clock.received);
      const player = view.players[clock.seat];
      let text = (player ? player.name : "") + " to move: " + (elapsed / 1000).toFixed(1) + " s";
      if (clock.soft_ms !== null) text += " of " + (clock.soft_ms / 1000).toFixed(1) + " s";
      node.textContent = text;
      node.classList.toggle("late", clock.soft_ms !== null && elapsed > clock.soft_ms);
    };
    setInterval(showClock, 100);
    const source = new EventSource("/api/rooms/" + encodeURIComponent(id) + "/events");
    source.addEventListener("room", (event) => {
      // The event's first line is the room's view (JSON), the second its
      // board (SVG).
      const lineEnd = event.data.indexOf("\n");
      view = JSON.parse(lineEnd < 0 ? event.data : event.data.slice(0, lineEnd));
      clock = view.clock ? Object.assign({ received: performance.now() }, view.clock) : null;
      const board = $("board");
      board.innerHTML = lineEnd < 0 ? "" : event.data.slice(lineEnd + 1);
      board.dataset.turn = view.turn;
      board.dataset.version = view.version;
      board.dataset.phase = view.phase;
      $("title").textContent = gameName(view.game);
      // The room's short id (its full id is in the address); the phase
      // stays on the line of the turn.
      $("status").textContent = "Room " + view.id.slice(0, 8) + " · turn " + view.turn + " ·\u00a0" + view.phase;
      $("status").title = "Room " + view.id;
      $("players").tBodies[0].replaceChildren(...playerRows(view.players));
      $("result").replaceChildren(...resultBlock(view.result, view.players.map((p) => p.name)));
      showClock();
      if (view.phase === "over") source.close();
    });
    source.onerror = () => {
      if (view && view.phase === "over") return;
      // The stream does not say why it failed: ask the room itself.
      fetchJson("/api/rooms/" + encodeURIComponent(id)).then(() => {
        // The room is there, yet the stream was refused for good (too many
        // live pages from this address): say so instead of going quiet.
        if (source.readyState === EventSource.CLOSED) {
          showError($("error"), new Error(
            "Live updates were refused (too many live pages open from your address?). Close one and reload this page."));
        }
      }).catch((error) => {
        source.close();
        // Without a room there are no players to list.
        $("players").hidden = true;
        showError($("error"), error);
      });
    };
  }

  /** A think time for people, from whole microseconds: `12.3 ms`, `1.24 s`.
   * Rounded in integers, half up, so that the figure does not depend on how
   * a binary fraction of a millisecond happens to round. */
  function thinkText(micros) {
    if (micros === null || micros === undefined) return "";
    const tenthsOfMs = Math.round(micros / 100);
    if (tenthsOfMs < 10000) return (tenthsOfMs / 10).toFixed(1) + "\u00a0ms";
    return (Math.round(micros / 10000) / 100).toFixed(2) + "\u00a0s";
  }

  /** `/replays`: the finished replays, newest first, with players, result
   * and length, filtered by game and player. A list of many new files is
   * read by the server a part at a time: the page asks again until every
   * entry has its summary. */
  function replaysPage() {
    const params = new URLSearchParams(location.search);
    const gameFilter = $("filter-game");
    const playerFilter = $("filter-player");
    gameFilter.append(...Object.entries(gameTitles).map(([id, title]) => el("option", { value: id }, title)));
    gameFilter.value = params.get("game") || "";
    playerFilter.value = params.get("player") || "";
    let timer = null;
    let asked = 0;
    const load = () => {
      clearTimeout(timer);
      const query = new URLSearchParams();
      if (gameFilter.value) query.set("game", gameFilter.value);
      if (playerFilter.value.trim()) query.set("player", playerFilter.value.trim());
      const search = query.toString();
      history.replaceState(null, "", search ? "?" + search : location.pathname);
      const request = ++asked;
      fetchJson("/api/replays" + (search ? "?" + search : "")).then((replays) => {
        if (request !== asked) return;
        $("loading").hidden = true;
        $("error").hidden = true;
        $("replays").tBodies[0].replaceChildren(...replays.map((r) => {
          const summary = r.summary;
          const link = el("a", { href: "/replays/" + encodeURIComponent(r.name) }, "view");
          // Each player on a line of its own, long names shortened (the
          // whole name on hover).
          const players = summary
            ? summary.players.map((name) => shortened("div", name, 28, { class: "player" }))
            : ["…"];
          const outcome = summary ? (summary.error ? "unreadable: " + summary.error : summary.outcome) : "…";
          return el("tr", { "data-name": r.name },
            el("td", {}, gameName(r.game)),
            el("td", { class: "players" }, ...players),
            el("td", { class: "outcome" }, shortened("span", outcome, 60)),
            el("td", { class: "number" }, summary && !summary.error ? summary.turns : ""),
            el("td", { class: "muted" }, when(r.modified)),
            el("td", { class: "replay" }, link, shortened("div", r.name, 48, { class: "muted file" })));
        }));
        $("no-replays").hidden = replays.length > 0;
        if (replays.some((r) => !r.summary)) timer = setTimeout(load, 1000);
      }).catch((error) => {
        $("loading").hidden = true;
        showError($("error"), error);
      });
    };
    gameFilter.onchange = load;
    let typing = null;
    playerFilter.oninput = () => {
      clearTimeout(typing);
      typing = setTimeout(load, 300);
    };
    load();
  }

  /** `/replays/{name}` or `/season/games/{number}` (a season's stored
   * replay): step through a replay by its move list, buttons, slider,
   * arrow keys, or autoplay. Positions are counted by the game's turns, as
   * the move list numbers them (skipped turns listed too, so that the
   * numbers run on); `?turn=N` opens the position of turn N, and the
   * address always names the position shown. Without it the replay opens
   * at the final position with the result. */
  function replayPage() {
    const parts = location.pathname.split("/");
    const fromSeason = parts[1] === "season";
    // A contest encounter's game: /contest/encounters/{e}/games/{n}; a
    // version's test game: /contest/teams/{t}/versions/{v}/test/{n}; a
    // friendly game: /contest/teams/{t}/friendly/{c}/games/{n}.
    const fromContest = parts[1] === "contest";
    const fromTeam = fromContest && parts[2] === "teams";
    const name = decodeURIComponent((fromSeason ? parts[3] : parts[2]) || "");
    // The heading is the game; the file's long name goes under it, small.
    $("file").textContent = fromTeam && parts[4] === "friendly"
      ? "friendly " + parts[5] + ", game " + parts[7]
      : fromTeam
      ? "version " + parts[5] + ", test game " + parts[7]
      : fromContest
      ? "encounter " + parts[3] + ", game " + parts[5]
      : fromSeason ? "season game " + name : name;
    const url = fromContest
      ? location.pathname + "/replay"
      : fromSeason
      ? "/api/season/games/" + encodeURIComponent(name) + "/replay"
      : "/api/replays/" + encodeURIComponent(name);
    fetchJson(url).then((replay) => {
      const frames = replay.frames;
      const slider = $("slider");
      slider.max = Math.max(frames.length - 1, 0);
      let index = 0;
      let playing = null;
      // The turn the address asked for, kept in it when first shown.
      let turnShown = null;
      const moveRows = [];
      const show = (next) => {
        if (frames.length === 0) return;
        index = Math.min(Math.max(next, 0), frames.length - 1);
        const frame = frames[index];
        const board = $("board");
        board.innerHTML = frame.svg;
        board.dataset.turn = frame.turn;
        board.dataset.index = index;
        slider.value = index;
        let position = "turn " + frame.turn + " of " + lastTurn;
        if (index === 0) position += " · the start";
        if (frame.words) position += " · last move: " + frame.words;
        if (frame.think_micros !== null) position += " (" + thinkText(frame.think_micros) + ")";
        $("position").textContent = position;
        // The address names the position shown: copied, it opens here
        // (a turn asked for keeps its number, a skipped turn's too).
        const address = new URL(location.href);
        address.searchParams.set("turn", turnShown === null ? frame.turn : turnShown);
        turnShown = null;
        history.replaceState(null, "", address.pathname + address.search);
        $("link").href = address.pathname + address.search;
        $("players").tBodies[0].replaceChildren(...playerRows(frame.players));
        for (const row of moveRows) row.classList.toggle("current", Number(row.dataset.index) === index);
        // The current rows (a move and the turns skipped after it) in view
        // within the list, without scrolling the page itself.
        const current = moveRows.filter((row) => Number(row.dataset.index) === index);
        const list = $("moves").parentElement;
        if (current.length > 0) {
          const first = current[0].getBoundingClientRect();
          const last = current[current.length - 1].getBoundingClientRect();
          const box = list.getBoundingClientRect();
          if (first.top < box.top + first.height) list.scrollTop -= box.top + first.height - first.top;
          else if (last.bottom > box.bottom) list.scrollTop += last.bottom - box.bottom;
        }
      };
      /** The frame of turn `turn`: the one whose move list rows include it,
       * else the last at or before it. */
      const frameOfTurn = (turn) => {
        const listed = frames.findIndex((frame) => (frame.turns || []).some((t) => t.turn === turn));
        if (listed >= 0) return listed;
        let found = 0;
        frames.forEach((frame, i) => {
          if (frame.turn <= turn) found = i;
        });
        return found;
      };
      const stop = () => {
        clearInterval(playing);
        playing = null;
        $("play").textContent = "Play";
      };
      const play = () => {
        if (index >= frames.length - 1) show(0);
        $("play").textContent = "Pause";
        playing = setInterval(() => {
          if (index >= frames.length - 1) stop();
          else show(index + 1);
        }, 1000 / Number($("speed").value));
      };
      $("title").textContent = gameName(replay.game);
      $("subtitle").textContent = replay.players.join(" vs ") + (replay.result ? " · " + replay.result.summary : "");
      $("result").replaceChildren(...resultBlock(replay.result, replay.players));
      if (replay.errors.length) $("result").append(el("p", { class: "muted" }, replay.errors.join(" ")));
      $("downloads").replaceChildren(...replay.downloads.map((d) =>
        el("a", { href: d.href, download: "", class: "download" }, "Download " + d.label)));
      const lastTurn = frames.length ? frames[frames.length - 1].turn : 0;
      // One row per turn: the move that led to a position, then each turn
      // the rules skipped after it (a colour that could place nothing).
      frames.forEach((frame, i) => {
        (frame.turns || []).forEach((turn) => {
          const who = turn.skipped || frame.mover === null ? "" : replay.players[frame.mover] || "";
          const row = el("tr", { "data-index": i, "data-turn": turn.turn, title: who, class: turn.skipped ? "skipped" : null },
            el("td", { class: "number muted" }, turn.turn),
            el("td", {}, turn.words),
            el("td", { class: "number think" }, turn.skipped ? "" : thinkText(frame.think_micros)));
          row.onclick = () => {
            stop();
            show(i);
          };
          moveRows.push(row);
        });
      });
      $("moves").tBodies[0].replaceChildren(...moveRows);
      $("no-moves").hidden = moveRows.length > 0;
      $("first").onclick = () => { stop(); show(0); };
      $("previous").onclick = () => { stop(); show(index - 1); };
      $("next").onclick = () => { stop(); show(index + 1); };
      $("last").onclick = () => { stop(); show(frames.length - 1); };
      $("play").onclick = () => (playing ? stop() : play());
      $("speed").onchange = () => {
        if (playing) {
          stop();
          play();
        }
      };
      slider.oninput = () => { stop(); show(Number(slider.value)); };
      document.addEventListener("keydown", (event) => {
        const targets = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: frames.length - 1 };
        if (event.key in targets && event.target !== slider) {
          event.preventDefault();
          stop();
          show(targets[event.key]);
        }
      });
      // `?turn=N`: the position of turn N (a skipped turn's is the position
      // its row leads to); otherwise the replay is studied from its end.
      const asked = new URLSearchParams(location.search).get("turn");
      if (asked !== null && Number.isInteger(Number(asked))) {
        turnShown = Number(asked);
        show(frameOfTurn(turnShown));
      } else {
        show(frames.length - 1);
      }
    }).catch((error) => showError($("error"), error));
  }

  /** `/season`: the season's standings, live rating, progress, and its
   * games a page at a time, each with its replay; refreshed every 10 s. */
  function seasonPage() {
    const pageSize = 100;
    let first = 1;
    const fixed = (x) => Number(x).toFixed(2);
    const duration = (secs) => secs < 120 ? secs + " s" : Math.ceil(secs / 60) + " min";
    const showOverview = () => fetchJson("/api/season").then((season) => {
      $("error").hidden = true;
      $("title").textContent = "Season " + season.name;
      $("subtitle").textContent = gameName(season.game) + " · seed " + season.seed + " · ranked by " + season.ranking;
      const p = season.progress;
      let text = p.done + " of " + p.total + " games done, " + p.running + " running, " + p.waiting + " waiting, " + p.failed + " failed";
      if (p.eta_secs !== null && p.running + p.waiting > 0) text += " · about " + duration(p.eta_secs) + " left at the pace so far";
      $("progress").textContent = text;
      $("bar").max = Math.max(p.total, 1);
      $("bar").value = p.done + p.failed;
      $("workers").tBodies[0].replaceChildren(...p.workers.map((w) => el("tr", {},
        el("td", {}, w.worker || "(none)"), el("td", { class: "number" }, w.running), el("td", { class: "number" }, w.done))));
      $("standings").tBodies[0].replaceChildren(...season.standings.map((r) => el("tr", {},
        el("td", { class: "number" }, r.rank), el("td", {}, r.player), el("td", { class: "number" }, r.games),
        el("td", { class: "number" }, r.wins + " / " + r.draws + " / " + r.losses),
        el("td", { class: "number" }, r.win_points),
        el("td", { class: "number" }, fixed(r.rating) + " [" + fixed(r.rating_low) + ", " + fixed(r.rating_high) + "]"))));
      $("ratings").tBodies[0].replaceChildren(...season.ratings.map((r) => el("tr", {},
        el("td", {}, r.player), el("td", { class: "number" }, r.games),
        el("td", { class: "number" }, fixed(r.rating) + " ± " + fixed(r.interval)))));
    });
    const showGames = () => fetchJson("/api/season/games?first=" + first + "&limit=" + pageSize).then((page) => {
      $("games").tBodies[0].replaceChildren(...page.games.map((g) => el("tr", {},
        el("td", { class: "number" }, g.number),
        el("td", {}, g.players.length ? g.players.join(" vs ") : ""),
        el("td", { class: "number" }, g.win_points.join(" : ")),
        el("td", { class: "number" }, g.points.join(" : ")),
        el("td", {}, g.state + (g.error ? " (" + g.error + ")" : "")),
        el("td", {}, g.worker || ""),
        el("td", {}, g.replay ? el("a", { href: "/season/games/" + g.number }, "replay") : ""))));
      const last = Math.min(first + pageSize - 1, page.total);
      $("page").textContent = page.total ? "games " + first + " to " + last + " of " + page.total : "no games";
      $("earlier").disabled = first <= 1;
      $("later").disabled = last >= page.total;
    });
    $("earlier").onclick = () => { first = Math.max(1, first - pageSize); showGames(); };
    $("later").onclick = () => { first += pageSize; showGames(); };
    const refresh = () => Promise.all([showOverview(), showGames()])
      .catch((error) => showError($("error"), error));
    refresh();
    setInterval(refresh, 10000);
  }

  function loginPage() {
    $("failed").hidden = !location.search.includes("failed");
  }

  /** `page`, started once the games' titles are known (without them, if
   * the server does not answer: then the pages show the games' ids). */
  function withTitles(page) {
    return () => fetchJson("/api/games")
      .then((games) => {
        for (const game of games) gameTitles[game.id] = game.title;
      })
      .catch(() => {})
      .then(page);
  }

  return {
    indexPage: withTitles(indexPage),
    roomPage: withTitles(roomPage),
    replaysPage: withTitles(replaysPage),
    replayPage: withTitles(replayPage),
    seasonPage: withTitles(seasonPage),
    loginPage,
    // For the play page's own script (play.js).
    el,
    shortened,
  };
})();
