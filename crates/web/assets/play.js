// The page where a person plays (play.html): at /play the form that opens
// a seat, at /play/{id} the seat's board. The board is the watch pages'
// picture (an SVG from the server's renderer, with each colour's pieces
// beside it); over its fields lies a grid of clear cells for the clicks and
// the page's marks. The legal moves come from the server (each a list of
// fields, from the rules); this script only draws them and matches clicks
// against them, so it holds no rules of a game. A click that matches none
// is sent to the server to say why (from the rules' mistake), never played.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const POLL_MS = 300;
  // An element with attributes and children, as every page makes them
  // (app.js, loaded before this script).
  const el = sl.el;

  async function request(url, options = {}) {
    const response = await fetch(url, { credentials: "same-origin", ...options });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = new Error(body.error || response.statusText);
      error.status = response.status;
      error.login = body.login;
      error.room = body.room;
      throw error;
    }
    return body;
  }

  function showError(error) {
    const node = $("error");
    // The server's errors are lower-case clauses (as its logs have them);
    // on the page they open a sentence.
    const text = error.message;
    node.replaceChildren(text.charAt(0).toUpperCase() + text.slice(1));
    if (error.login) node.append(" ", el("a", { href: "/login" }, "Log in"));
    node.hidden = false;
  }

  const seatLabels = ["ONE", "TWO", "THREE", "FOUR"];

  // ---- The form ------------------------------------------------------

  async function setupPage() {
    $("setup").hidden = false;
    let info;
    try {
      info = await request("/api/play");
    } catch (error) {
      showError(error);
      return;
    }
    if (!info.on) {
      showError(new Error("Playing in the browser is off on this server (http.play_seats = 0)."));
      return;
    }
    const games = info.games;
    const gameSelect = $("game");
    for (const game of games) {
      gameSelect.append(el("option", { value: game.id }, game.title));
    }
    const preferred = games.find((g) => g.id === "swc_2027_blokus");
    if (preferred) gameSelect.value = preferred.id;
    const fill = () => {
      const game = games.find((g) => g.id === gameSelect.value);
      const seat = $("seat");
      const chosen = Number(seat.value || 0);
      seat.replaceChildren(...Array.from({ length: game.players }, (_, i) =>
        el("option", { value: i }, `${seatLabels[i]}${i === 0 ? " (moves first)" : ""}`)));
      seat.value = String(Math.min(chosen, game.players - 1));
      const others = $("others");
      others.replaceChildren();
      for (let i = 0; i < game.players; i++) {
        if (i === Number(seat.value)) continue;
        const select = el("select", { "data-seat": i, name: `other-${i}` });
        for (const bot of game.bots) select.append(el("option", { value: bot }, `built-in ${bot} bot`));
        select.append(el("option", { value: "code" }, "my own client (reservation code)"));
        others.append(el("label", {}, `Seat ${seatLabels[i]}`, select));
      }
    };
    gameSelect.addEventListener("change", fill);
    $("seat").addEventListener("change", fill);
    fill();
    $("seat-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      $("start").disabled = true;
      $("error").hidden = true;
      const others = Array.from($("others").querySelectorAll("select")).map((s) => s.value);
      try {
        const opened = await request("/api/play", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            game: gameSelect.value,
            seat: Number($("seat").value),
            others,
            timed: $("timed").checked,
            wire_log: $("wire-log").checked,
            name: $("name").value,
          }),
        });
        window.location.assign(opened.url);
      } catch (error) {
        showError(error);
        $("start").disabled = false;
      }
    });
  }

  // ---- Shapes (geometry only: turning and mirroring a set of fields) ---

  function normalize(cells) {
    const minX = Math.min(...cells.map((c) => c[0]));
    const minY = Math.min(...cells.map((c) => c[1]));
    return cells.map(([x, y]) => [x - minX, y - minY]);
  }

  function keyOf(cells) {
    return normalize(cells).map(([x, y]) => `${x},${y}`).sort().join(" ");
  }

  /** The piece's fields turned `turns` quarter turns clockwise, then
   *  mirrored left-right if `flipped`, with the top-left at 0,0. */
  function orient(cells, turns, flipped) {
    let out = cells.map(([x, y]) => [x, y]);
    for (let i = 0; i < turns; i++) out = out.map(([x, y]) => [-y, x]);
    if (flipped) out = out.map(([x, y]) => [-x, y]);
    return normalize(out);
  }

  /** The field of a shape the mouse holds: the one nearest its middle. */
  function handleOf(shape) {
    const w = Math.max(...shape.map((c) => c[0]));
    const h = Math.max(...shape.map((c) => c[1]));
    let best = shape[0];
    let bestDistance = Infinity;
    for (const c of shape) {
      const d = (c[0] - w / 2) ** 2 + (c[1] - h / 2) ** 2;
      if (d < bestDistance - 1e-9) { best = c; bestDistance = d; }
    }
    return best;
  }

  // ---- The seat ------------------------------------------------------

  function seatPage(id) {
    $("play").hidden = false;
    const state = {
      view: null,
      shown: "",
      piece: null,
      turns: 0,
      flipped: false,
      from: null,
      hover: null,
      sending: false,
      // Each colour's last placement the page saw (fields "x,y"), marked
      // on the board: the others' moves since the person's last turn.
      recent: new Map(),
      // The picture shown (its SVG), drawn again only when it changes.
      picture: "",
      // When this page saw the open move request (for a timed person).
      askedAt: 0,
    };

    const cellNode = (x, y) => $("grid").querySelector(`[data-x="${x}"][data-y="${y}"]`);

    /** Shows `text` in the message's own place (empty: nothing), which
     *  keeps its height so that nothing under it moves. */
    function say(text) {
      const node = $("message");
      node.textContent = text || "";
      node.classList.toggle("shown", Boolean(text));
    }

    function choices() {
      const view = state.view;
      return view && view.your_turn ? view.choices : [];
    }

    function placements() {
      return choices().map((c, index) => ({ ...c, index })).filter((c) => c.piece);
    }

    function steps() {
      return choices().map((c, index) => ({ ...c, index })).filter((c) => c.from);
    }

    function fieldMoves() {
      return choices().map((c, index) => ({ ...c, index }))
        .filter((c) => !c.piece && !c.from && c.cells.length > 0);
    }

    function currentShape() {
      if (!state.piece || !state.view) return null;
      const piece = state.view.board.pieces.find((p) => p.name === state.piece);
      return piece ? orient(piece.cells, state.turns, state.flipped) : null;
    }

    /** The placements of the chosen piece in the chosen orientation, each
     *  with the field the mouse would hold it by. */
    function targets() {
      const shape = currentShape();
      if (!shape) return [];
      const key = keyOf(shape);
      const handle = handleOf(shape);
      return placements()
        .filter((c) => c.piece === state.piece && keyOf(c.cells) === key)
        .map((c) => {
          const minX = Math.min(...c.cells.map((f) => f[0]));
          const minY = Math.min(...c.cells.map((f) => f[1]));
          return { choice: c, at: [minX + handle[0], minY + handle[1]] };
        });
    }

    async function send(choice) {
      if (state.sending) return;
      state.sending = true;
      say("");
      try {
        await request(`/api/play/${id}/move`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ request: state.view.request, choice: choice.index }),
        });
        state.piece = null;
        state.from = null;
        state.view.your_turn = false;
        state.view.choices = [];
        render();
      } catch (error) {
        say(error.message);
      } finally {
        state.sending = false;
      }
      poll();
    }

    /** Asks the server why `attempt` (what was clicked) is no legal move,
     *  and shows its answer while the same request is open. */
    async function explain(attempt) {
      const asked = state.view.request;
      try {
        const answer = await request(`/api/play/${id}/why`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ request: asked, ...attempt }),
        });
        if (state.view && state.view.request === asked && state.view.your_turn) say(answer.reason);
      } catch (error) {
        say(error.message);
      }
    }

    function click(x, y) {
      const view = state.view;
      if (!view) return;
      if (view.phase === "over" || view.phase === "left") {
        say("The game is over.");
        return;
      }
      if (!view.your_turn) {
        say("Wait for your turn.");
        return;
      }
      if (placements().length > 0) {
        if (!state.piece) {
          say("Choose a piece first.");
          return;
        }
        const found = targets().find((t) => t.at[0] === x && t.at[1] === y);
        if (found) {
          send(found.choice);
          return;
        }
        // The fields the piece would cover, held by its handle at the click.
        const shape = currentShape();
        if (!shape) {
          say("Choose a piece first.");
          return;
        }
        const handle = handleOf(shape);
        const cells = shape.map(([sx, sy]) => [sx - handle[0] + x, sy - handle[1] + y]);
        explain({ piece: state.piece, cells });
        return;
      }
      const stepMoves = steps();
      if (stepMoves.length > 0) {
        if (state.from) {
          const target = stepMoves.find((c) => c.from[0] === state.from[0] && c.from[1] === state.from[1]
            && c.cells[0][0] === x && c.cells[0][1] === y);
          if (target) {
            send(target);
            return;
          }
        }
        if (stepMoves.some((c) => c.from[0] === x && c.from[1] === y)) {
          state.from = [x, y];
          say("");
          render();
          return;
        }
        // A step of the chosen piece, or else the clicked piece itself (a
        // piece of the colour to move is one to choose, not a target).
        const cell = view.board.cells[y * view.board.width + x];
        const own = cell && cell.fill && cell.fill === view.board.color;
        explain(state.from && !own ? { from: state.from, cells: [[x, y]] } : { from: [x, y] });
        return;
      }
      const field = fieldMoves().find((c) => c.cells.some((f) => f[0] === x && f[1] === y));
      if (field) {
        send(field);
      } else {
        explain({ cells: [[x, y]] });
      }
    }

    function choosePiece(name) {
      const view = state.view;
      if (!view || !view.your_turn) {
        say("Wait for your turn.");
        return;
      }
      const piece = view.board.pieces.find((p) => p.name === name);
      if (!piece || piece.left === 0) {
        say(`You have placed your ${piece ? piece.words : name} already.`);
        return;
      }
      const first = firstPiece(view);
      if (first && first.name !== name) {
        say(`Every colour's first piece is the ${first.words}: choose it.`);
        return;
      }
      if (!placements().some((c) => c.piece === name)) {
        say(`The ${piece.words} fits nowhere on the board now: choose another piece.`);
        return;
      }
      state.piece = name;
      say("");
      render();
      // If the piece fits nowhere in this orientation, turn to one where it fits.
      if (targets().length === 0) {
        outer: for (const flipped of [false, true]) {
          for (let turns = 0; turns < 4; turns++) {
            state.turns = turns;
            state.flipped = flipped;
            if (targets().length > 0) break outer;
          }
        }
        render();
      }
    }

    /** The piece the colour to move must place first, if the game asks
     *  for one now. */
    function firstPiece(view) {
      const name = view.board.first_piece;
      return name ? view.board.pieces.find((p) => p.name === name) || null : null;
    }

    function rotate() {
      state.turns = (state.turns + 1) % 4;
      render();
    }

    function flip() {
      state.flipped = !state.flipped;
      render();
    }

    /** The picture, and the clear grid over its fields (where the
     *  picture's `data-board` says they lie), with the page's marks. */
    function renderGrid(view) {
      const board = view.board;
      const grid = $("grid");
      if (state.picture !== board.svg) {
        $("picture").innerHTML = board.svg;
        state.picture = board.svg;
        const svg = $("picture").querySelector("svg");
        const [left, top, field] = ((svg && svg.dataset.board) || "0 0 0").split(" ").map(Number);
        grid.style.left = `${left + 1}px`;
        grid.style.top = `${top + 1}px`;
        grid.style.gridTemplateColumns = `repeat(${board.width}, ${field}px)`;
        grid.style.gridTemplateRows = `repeat(${board.height}, ${field}px)`;
      }
      if (grid.childElementCount !== board.width * board.height) {
        grid.replaceChildren();
        for (let y = 0; y < board.height; y++) {
          for (let x = 0; x < board.width; x++) {
            grid.append(el("div", { class: "cell", "data-x": x, "data-y": y }));
          }
        }
      }
      const marks = new Set();
      const movable = new Set();
      let preview = [];
      let previewOk = false;
      if (view.your_turn) {
        if (state.piece) {
          const found = targets();
          for (const t of found) marks.add(`${t.at[0]},${t.at[1]}`);
          const shape = currentShape();
          if (state.hover && shape) {
            const handle = handleOf(shape);
            preview = shape.map(([x, y]) => [x - handle[0] + state.hover[0], y - handle[1] + state.hover[1]]);
            previewOk = marks.has(`${state.hover[0]},${state.hover[1]}`);
          }
        }
        for (const c of steps()) {
          movable.add(`${c.from[0]},${c.from[1]}`);
          if (state.from && c.from[0] === state.from[0] && c.from[1] === state.from[1]) {
            marks.add(`${c.cells[0][0]},${c.cells[0][1]}`);
          }
        }
        for (const c of fieldMoves()) for (const f of c.cells) marks.add(`${f[0]},${f[1]}`);
      }
      const previewKeys = new Set(preview.map(([x, y]) => `${x},${y}`));
      const recent = new Set();
      for (const fields of state.recent.values()) for (const key of fields) recent.add(key);
      for (const node of grid.children) {
        const x = Number(node.dataset.x);
        const y = Number(node.dataset.y);
        const cell = board.cells[y * board.width + x];
        const key = `${x},${y}`;
        const classes = ["cell"];
        if (cell.fill) node.dataset.fill = cell.fill;
        else delete node.dataset.fill;
        if (previewKeys.has(key)) {
          classes.push("preview");
          if (!previewOk) classes.push("bad");
          node.dataset.preview = board.color || "";
        } else {
          delete node.dataset.preview;
        }
        if (marks.has(key)) classes.push("target");
        else if (recent.has(key) && !previewKeys.has(key)) classes.push("recent");
        const isFrom = state.from && state.from[0] === x && state.from[1] === y;
        if (isFrom) classes.push("from");
        else if (movable.has(key)) classes.push("movable");
        node.className = classes.join(" ");
      }
    }

    function renderPieces(view) {
      const panel = $("pieces-panel");
      const pieces = view.board.pieces;
      panel.hidden = pieces.length === 0 || view.phase !== "playing";
      if (panel.hidden) return;
      const fitting = new Set(placements().map((c) => c.piece));
      const first = firstPiece(view);
      const list = $("pieces");
      list.replaceChildren();
      for (const piece of pieces) {
        const selected = piece.name === state.piece;
        const shape = selected ? currentShape() : piece.cells;
        const w = Math.max(...shape.map((c) => c[0])) + 1;
        const h = Math.max(...shape.map((c) => c[1])) + 1;
        const classes = ["piece"];
        let title = piece.words;
        if (selected) classes.push("selected");
        if (piece.left === 0) {
          classes.push("used");
          title += " (placed already)";
        } else if (first && first.name !== piece.name) {
          classes.push("stuck");
          title += ` (the first piece is the ${first.words})`;
        } else if (view.your_turn && !fitting.has(piece.name)) {
          classes.push("stuck");
          title += " (fits nowhere now)";
        }
        const node = el("button", {
          type: "button",
          class: classes.join(" "),
          title,
          "data-piece": piece.name,
          style: `grid-template-columns: repeat(${w}, 9px); grid-template-rows: repeat(${h}, 9px);`,
        });
        for (const [x, y] of shape) {
          node.append(el("span", {
            class: `bit fill-${view.board.color}`,
            style: `grid-column: ${x + 1}; grid-row: ${y + 1};`,
          }));
        }
        node.addEventListener("click", () => choosePiece(piece.name));
        list.append(node);
      }
      const turned = state.turns ? `, turned ${state.turns * 90}°` : "";
      const chosen = pieces.find((piece) => piece.name === state.piece);
      $("selected").dataset.piece = chosen ? chosen.name : "";
      $("selected").textContent = chosen
        ? `The ${chosen.words}${turned}${state.flipped ? ", flipped" : ""}`
        : "Choose a piece";
    }

    function renderButtons(view) {
      const box = $("buttons");
      box.replaceChildren();
      choices().forEach((c, index) => {
        if (c.piece || c.from || c.cells.length > 0) return;
        const button = el("button", { type: "button", "data-choice": index }, c.label);
        button.addEventListener("click", () => send({ ...c, index }));
        box.append(button);
      });
    }

    function renderSide(view) {
      $("title").textContent = `${view.title}: you are ${seatLabels[view.seat]}`;
      document.title = `${view.title} · Play · Spielleiter`;
      const status = $("status");
      const you = view.players[view.seat];
      let text;
      if (view.phase === "waiting") {
        text = view.codes.length > 0
          ? "Waiting for your client to join with its reservation code."
          : "Waiting for the other players.";
      } else if (view.phase === "left" || view.phase === "over") {
        text = view.result ? `Game over: ${view.result.summary}.` : "The game has ended.";
      } else if (view.your_turn) {
        text = `Your turn${view.board.color ? ` (${view.board.color})` : ""}: ${view.choices.length} legal moves.`;
      } else {
        text = "The others are moving…";
      }
      status.textContent = text;
      status.className = view.your_turn ? "status yours" : "status";
      document.body.dataset.phase = view.phase;
      document.body.dataset.yourTurn = view.your_turn ? "true" : "false";
      document.body.dataset.request = String(view.request);
      // Before the first state there is no board to draw or explain.
      document.querySelector(".play-board").hidden = view.board.width === 0;
      $("note").textContent = view.board.note || "";
      $("key").textContent = `${view.board.key || ""}${view.soft_ms ? ` · your moves are timed (${view.soft_ms / 1000} s)` : " · your moves are untimed"}`;
      const body = $("players").querySelector("tbody");
      const seatColors = view.board.seat_colors || [];
      body.replaceChildren(...view.players.map((p, seat) => el("tr", { "data-seat": seat },
        el("td", { class: p.to_move && view.phase === "playing" ? "to-move" : null },
          sl.shortened("span", p.name, 24), seat === view.seat ? " (you)" : ""),
        el("td", { class: "colors" }, ...(seatColors[seat] || []).map((color) =>
          el("span", { class: "color", "data-color": color }, el("span", { class: `swatch fill-${color}` }), color, " "))),
        el("td", { class: "number" }, p.score || p.points.join(" · ")))));
      const result = $("result");
      result.replaceChildren();
      if (view.result) {
        result.append(el("h2", {}, "Result"), el("p", { id: "summary" }, view.result.summary));
        const table = el("table", { class: "result" });
        view.result.scores.forEach((score, seat) => {
          const name = view.players[seat] ? view.players[seat].name : seatLabels[seat];
          table.append(el("tr", {}, el("td", {}, name), el("td", {}, score.score),
            el("td", { class: "muted" }, score.cause === "REGULAR" ? "" : `${score.cause} ${score.reason}`)));
        });
        result.append(table);
      }
      const codes = $("codes");
      codes.replaceChildren();
      if (view.codes.length > 0 && view.phase === "waiting") {
        codes.className = "codes";
        codes.append(el("h2", {}, "Your client's seats"));
        const [host, port] = splitAddress(view.server);
        for (const code of view.codes) {
          codes.append(el("p", {}, `Seat ${seatLabels[code.seat]}: reservation code `, el("code", {}, code.code)),
            el("p", {}, "Start your client with ",
              el("code", {}, `./your-client --host ${host} --port ${port} --reservation ${code.code}`),
              " (or a built-in bot: ",
              el("code", {}, `spielleiter play --host ${host} --port ${port} --reservation ${code.code}`), ")."));
        }
      }
      $("watch").href = `/rooms/${encodeURIComponent(view.room_id)}`;
      const ended = view.phase === "over" || view.phase === "left";
      $("leave-box").hidden = ended;
      // The finished game heads the replay list of its game and player
      // (newest first).
      const study = new URLSearchParams({ game: view.game });
      if (you && you.name) study.set("player", you.name);
      $("study").href = `/replays?${study}`;
      $("study-box").hidden = !ended;
      if (view.message && !state.sending) say(view.message);
    }

    /** The game port's host and port for a client: the host this page
     *  came from (the web side runs in the game server's process) and the
     *  game port. */
    function splitAddress(address) {
      const at = address.lastIndexOf(":");
      return [window.location.hostname, address.slice(at + 1)];
    }

    function render() {
      const view = state.view;
      if (!view) return;
      if (state.piece && !placements().some((c) => c.piece === state.piece)) state.piece = null;
      if (state.from && !steps().some((c) => c.from[0] === state.from[0] && c.from[1] === state.from[1])) state.from = null;
      renderGrid(view);
      renderPieces(view);
      renderButtons(view);
      renderSide(view);
    }

    let timer = null;
    async function poll() {
      clearTimeout(timer);
      try {
        const since = state.view ? `?since=${state.view.version}` : "";
        const answer = await request(`/api/play/${id}${since}`);
        $("error").hidden = true;
        const view = answer.unchanged ? state.view : answer;
        const shown = JSON.stringify([view.phase, view.request, view.your_turn, view.turn, view.message, view.result, view.board]);
        if (shown !== state.shown) {
          const newRequest = !state.view || state.view.request !== view.request;
          // The fields each colour newly covers are its latest placement
          // (a colour places once a round, so a poll that missed a state
          // still tells the colours apart).
          if (view.board.pieces.length > 0 && state.view
            && state.view.board.cells.length === view.board.cells.length) {
            const before = state.view.board.cells;
            const placed = new Map();
            view.board.cells.forEach((cell, i) => {
              if (cell.fill && cell.fill !== before[i].fill) {
                const key = `${i % view.board.width},${Math.floor(i / view.board.width)}`;
                if (!placed.has(cell.fill)) placed.set(cell.fill, []);
                placed.get(cell.fill).push(key);
              }
            });
            for (const [color, fields] of placed) state.recent.set(color, fields);
          }
          state.view = view;
          state.shown = shown;
          if (newRequest) {
            state.from = null;
            state.askedAt = Date.now();
          }
          render();
        }
        if (view.phase === "over" || view.phase === "left") return;
      } catch (error) {
        // Someone else's seat: its room, to watch.
        if (error.status === 403 && error.room) {
          window.location.replace(`/rooms/${encodeURIComponent(error.room)}?seat=another`);
          return;
        }
        showError(error);
        if (error.status === 403 || error.status === 404) return;
      }
      timer = setTimeout(poll, POLL_MS);
    }

    // A timed person's clock, counted from when the page saw the request
    // (a little after the server asked).
    setInterval(() => {
      const view = state.view;
      const clock = $("clock");
      const running = view && view.soft_ms && view.your_turn && view.phase === "playing";
      // A timed person's clock keeps its line, so that the panel stays put.
      clock.hidden = !(view && view.soft_ms && view.phase === "playing");
      clock.style.visibility = running ? "visible" : "hidden";
      if (!running) return;
      const elapsed = (Date.now() - state.askedAt) / 1000;
      const soft = view.soft_ms / 1000;
      const hard = view.hard_ms / 1000;
      clock.textContent = `${elapsed.toFixed(1)} s of ${soft} s (a move after ${soft} s loses, as does none by ${hard} s)`;
      clock.className = elapsed > soft * 0.75 ? "clock late" : "clock";
    }, 200);

    const grid = $("grid");
    grid.addEventListener("click", (event) => {
      const node = event.target.closest(".cell");
      if (node) click(Number(node.dataset.x), Number(node.dataset.y));
    });
    grid.addEventListener("mouseover", (event) => {
      const node = event.target.closest(".cell");
      if (!node || !state.piece) return;
      state.hover = [Number(node.dataset.x), Number(node.dataset.y)];
      renderGrid(state.view);
    });
    grid.addEventListener("mouseleave", () => {
      state.hover = null;
      if (state.view) renderGrid(state.view);
    });
    $("rotate").addEventListener("click", rotate);
    $("flip").addEventListener("click", flip);
    document.addEventListener("keydown", (event) => {
      if (event.target.closest("input, select, textarea")) return;
      if (event.key === "r" || event.key === "R") rotate();
      if (event.key === "f" || event.key === "F") flip();
    });
    $("leave").addEventListener("click", async () => {
      try {
        await request(`/api/play/${id}/leave`, { method: "POST" });
      } catch (error) {
        showError(error);
      }
      poll();
    });
    poll();
  }

  const match = window.location.pathname.match(/^\/play\/([0-9a-f]+)$/);
  if (match) seatPage(match[1]);
  else setupPage();
})();
