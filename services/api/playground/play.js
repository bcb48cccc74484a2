// The Skyport playground: create a game against bots (or watch one), see the board
// picture, play the legal moves, follow the game live over SSE. Plain script, no build
// step; it talks to the same REST API as any client.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const HUMAN = "human";
  const OPEN = "open"; // a seat left to anyone in the lobby
  const RECONNECT_MS = 2000;
  const BACKOFF_MAX_S = 30; // a failed refresh is tried again after 1, 2, 4 … up to this
  const STALE_NOTE_MS = 8000;
  const FILTER_FROM = 12;
  const MAX_SEED = 2n ** 63n - 1n; // moves: show a filter box from this many on

  const table = {
    catalog: [],
    gameId: null,
    title: "",
    tokens: {}, // seat -> token, for the seats this page may play
    viewer: null, // seat whose token reads the game, or null for a spectator
    document: null,
    seen: new Set(), // log versions shown
    labels: new Map(), // version -> label of a move this page made
    refocus: false, // a move was clicked: focus the next choice when it comes
    stream: null, // AbortController of the live stream
    refreshing: false,
    again: false,
    ended: false,
    known: -1, // the newest version this page has heard of
    drawn: -1, // the version the page shows (board, moves, status all loaded)
    fetching: -1, // the version the refresh under way is sure to bring, or -1
    failures: 0, // refreshes failed in a row (network, server), for the back-off
    retry: null, // timer of the next try after a failed refresh
    limitedUntil: 0, // Date.now() until which a 429's Retry-After asks us to wait
    rematchAsked: null, // the open game, once its rematch has been looked up
    lobbyShown: null, // { game, tag }: the lobby page on show and its ETag
  };

  // --- the API ---------------------------------------------------------------------

  class ApiError extends Error {
    constructor(status, problem) {
      super(problem.detail || problem.title || `HTTP ${status}`);
      this.status = status;
      this.code = problem.code || "http_error";
    }
  }

  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

  // One line of news under the moves (rate limited, offline, a stale click), polite to
  // screen readers. Each kind of news clears only itself.
  const notice = { kind: null, timer: null };

  function say(kind, text, forMs = 0) {
    const box = $("notice");
    clearTimeout(notice.timer);
    notice.kind = kind;
    box.textContent = text;
    box.hidden = false;
    if (forMs) notice.timer = setTimeout(() => unsay(kind), forMs);
  }

  function unsay(kind) {
    if (notice.kind !== kind) return;
    clearTimeout(notice.timer);
    notice.kind = null;
    $("notice").hidden = true;
    $("notice").textContent = "";
  }

  // While a 429's Retry-After runs, every request waits for it (no point asking sooner)
  // and the page says so, counting down.
  async function waitOutTheLimit() {
    for (;;) {
      const left = Math.ceil((table.limitedUntil - Date.now()) / 1000);
      if (left <= 0) break;
      say("limited", `Rate limited, retrying in ${left} s…`);
      await sleep(Math.min(1000, table.limitedUntil - Date.now()));
    }
    unsay("limited");
  }

  const LIMITED_TRIES = 8;

  const NOT_MODIFIED = Symbol("not modified");

  // `ifNoneMatch`: an ETag held; the answer is then NOT_MODIFIED while it still matches.
  // `onTag` is given the answer's ETag.
  async function api(
    path,
    { method = "GET", body, token, accept = "application/json", idempotencyKey, ifNoneMatch, onTag } = {},
  ) {
    const headers = { Accept: accept };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    if (ifNoneMatch) headers["If-None-Match"] = ifNoneMatch;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    for (let attempt = 0; ; attempt += 1) {
      await waitOutTheLimit();
      const response = await fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
        cache: "no-store",
      });
      // A request refused for the rate limit did nothing (not even a move): send it again.
      if (response.status === 429 && attempt < LIMITED_TRIES) {
        const wait = Math.max(1, Math.ceil(Number(response.headers.get("Retry-After")) || 1));
        table.limitedUntil = Math.max(table.limitedUntil, Date.now() + wait * 1000);
        continue;
      }
      if (response.status === 304) return NOT_MODIFIED;
      if (!response.ok) {
        let problem = {};
        try {
          problem = await response.json();
        } catch (error) {
          problem = { detail: `HTTP ${response.status}` };
        }
        throw new ApiError(response.status, problem);
      }
      if (onTag) onTag(response.headers.get("ETag"));
      return accept === "application/json" ? response.json() : response.text();
    }
  }

  const gamePath = (suffix = "") => `/v1/games/${table.gameId}${suffix}`;
  const viewerToken = () => (table.viewer === null ? null : table.tokens[table.viewer]);

  function showError(where, error) {
    const box = $(where);
    if (!error) {
      box.hidden = true;
      box.textContent = "";
      return;
    }
    box.textContent = error instanceof ApiError ? `${error.message} (${error.code})` : String(error);
    box.hidden = false;
  }

  // --- the start page ----------------------------------------------------------------

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function option(value, text, selected = false) {
    const node = element("option", text);
    node.value = value;
    node.selected = selected;
    return node;
  }

  async function loadCatalog() {
    try {
      table.catalog = (await api("/v1/catalog")).games;
    } catch (error) {
      showError("start-error", error);
      return;
    }
    const select = $("game-select");
    select.replaceChildren(...table.catalog.map((game) => option(game.id, game.title)));
    select.addEventListener("change", pickedGame);
    $("players-select").addEventListener("change", () => seatRows());
    pickedGame();
    $("lobby-game").replaceChildren(...table.catalog.map((game) => option(game.id, game.title)));
  }

  const chosenGame = () => table.catalog.find((game) => game.id === $("game-select").value);

  function pickedGame() {
    const game = chosenGame();
    if (!game) return;
    const counts = [];
    for (let n = game.min_players; n <= game.max_players; n += 1) counts.push(n);
    const preferred = counts.includes(2) ? 2 : counts[0];
    $("players-select").replaceChildren(...counts.map((n) => option(n, `${n}`, n === preferred)));
    seatRows();
    optionControls(game);
  }

  // --- game options, from the catalog's options_schema (JSON Schema from pydantic) ------

  const alternatives = (schema) => (schema.anyOf || [schema]).filter((alt) => alt.type !== "null");

  // A control per option the form can offer: booleans as checkboxes, enums as selects,
  // integers as number inputs, strings and lists of strings as text (lists comma-separated).
  // Left at its default, an option is not sent, so the game's own default applies.
  function optionControl(key, schema) {
    const alts = alternatives(schema);
    const choices = alts.find((alt) => Array.isArray(alt.enum));
    const title = schema.title || key.replace(/_/g, " ");
    let control;
    let kind;
    if (alts.length === 1 && alts[0].type === "boolean") {
      kind = "boolean";
      control = element("input");
      control.type = "checkbox";
      control.defaultChecked = schema.default === true;
    } else if (choices) {
      kind = "enum";
      control = element("select");
      if (schema.default === null || schema.default === undefined) control.append(option("", "(default)", true));
      for (const value of choices.enum) control.append(option(value, String(value), value === schema.default));
    } else if (alts.some((alt) => alt.type === "integer")) {
      kind = "integer";
      const range = alts.find((alt) => alt.type === "integer");
      control = element("input");
      control.type = "number";
      control.step = "1";
      if (range.minimum !== undefined) control.min = String(range.minimum);
      if (range.maximum !== undefined) control.max = String(range.maximum);
      control.placeholder = schema.default === null || schema.default === undefined ? "default" : String(schema.default);
    } else if (alts.some((alt) => alt.type === "string" || (alt.type === "array" && alt.items && alt.items.type === "string"))) {
      const list = alts.some((alt) => alt.type === "array");
      kind = list ? (alts.some((alt) => alt.type === "string") ? "text-or-list" : "list") : "text";
      control = element("input");
      control.placeholder = list ? "default (a list: comma-separated)" : "default";
      control.autocomplete = "off";
      control.spellcheck = false;
    } else {
      return null; // nothing this form can ask for: the game's default applies
    }
    control.dataset.option = key;
    control.dataset.kind = kind;
    control.name = `option-${key}`;
    const label = element("label", kind === "boolean" ? undefined : title, kind === "boolean" ? "check" : undefined);
    if (kind === "boolean") label.append(control, document.createTextNode(title));
    else label.append(control);
    if (schema.description) {
      const hint = element("small", schema.description, "hint");
      hint.id = `option-${key}-hint`;
      control.setAttribute("aria-describedby", hint.id);
      label.append(hint);
    }
    return label;
  }

  function optionControls(game) {
    const properties = (game.options_schema && game.options_schema.properties) || {};
    const rows = Object.entries(properties)
      .map(([key, schema]) => optionControl(key, schema))
      .filter(Boolean);
    $("option-rows").replaceChildren(...rows);
    $("options").hidden = rows.length === 0;
  }

  function chosenOptions() {
    const options = {};
    for (const control of $("option-rows").querySelectorAll("[data-option]")) {
      const key = control.dataset.option;
      const value = control.value.trim();
      const items = () => value.split(",").map((item) => item.trim()).filter(Boolean);
      switch (control.dataset.kind) {
        case "boolean":
          if (control.checked !== control.defaultChecked) options[key] = control.checked;
          break;
        case "integer":
          if (value !== "") options[key] = Number(value);
          break;
        case "list":
          if (value !== "") options[key] = items();
          break;
        case "text-or-list":
          if (value !== "") options[key] = value.includes(",") ? items() : value;
          break;
        default:
          if (value !== "") options[key] = value;
      }
    }
    return options;
  }

  function seatRows() {
    const game = chosenGame();
    const players = Number($("players-select").value);
    const rows = [];
    for (let seat = 0; seat < players; seat += 1) {
      const row = element("div", undefined, "seat-row");
      const name = element("input");
      name.name = `seat-${seat}-name`;
      name.required = true;
      name.maxLength = 64;
      name.value = seat === 0 ? "Player 1" : `Bot ${seat}`;
      name.setAttribute("aria-label", `Seat ${seat + 1} name`);
      const who = element("select");
      who.name = `seat-${seat}-who`;
      who.setAttribute("aria-label", `Seat ${seat + 1} played by`);
      who.append(option(HUMAN, "Human (this page)", seat === 0));
      game.bot_levels.forEach((level, i) => who.append(option(level, `Bot: ${level}`, seat > 0 && i === 0)));
      who.append(option(OPEN, "Open: anyone in the lobby"));
      // An open seat is named by the player who takes it.
      who.addEventListener("change", () => {
        name.disabled = who.value === OPEN;
      });
      row.append(element("span", `${seat + 1}`, "seat-number"), name, who);
      rows.push(row);
    }
    $("seat-rows").replaceChildren(...rows);
  }

  async function createGame(event) {
    event.preventDefault();
    showError("start-error", null);
    const seats = [...$("seat-rows").children].map((row) => {
      const [name, who] = row.querySelectorAll("input, select");
      if (who.value === OPEN) return { open: true };
      return who.value === HUMAN ? { name: name.value } : { name: name.value, bot: who.value };
    });
    const body = { game: $("game-select").value, seats };
    if (seats.some((seat) => seat.open)) body.lobby = true;
    const options = chosenOptions();
    if (Object.keys(options).length) body.options = options;
    const seed = $("seed-input").value.trim();
    let text = JSON.stringify(body);
    if (seed) {
      // Sent as typed: Number() would round a seed past 2^53 to another game.
      if (!/^[0-9]{1,19}$/.test(seed) || BigInt(seed) > MAX_SEED) {
        showError("start-error", `The seed is a whole number from 0 to ${MAX_SEED}.`);
        return;
      }
      text = `${text.slice(0, -1)},"seed":${BigInt(seed)}}`;
    }
    const button = $("create-button");
    button.disabled = true;
    try {
      const created = await api("/v1/games", { method: "POST", body: text });
      const tokens = {};
      for (const seat of created.seats) if (seat.token) tokens[seat.seat] = seat.token;
      remember(created.id, tokens);
      location.hash = `game=${created.id}`;
    } catch (error) {
      showError("start-error", error);
    } finally {
      button.disabled = false;
    }
  }

  async function watchGame(event) {
    event.preventDefault();
    showError("start-error", null);
    const id = $("watch-id").value.trim();
    const token = $("watch-token").value.trim();
    const tokens = recall(id);
    if (token) {
      try {
        const seen = await api(`/v1/games/${id}`, { token });
        if (seen.you !== null) tokens[seen.you] = token;
      } catch (error) {
        showError("start-error", error);
        return;
      }
    }
    remember(id, tokens);
    $("watch-token").value = "";
    location.hash = `game=${id}`;
  }

  // --- the lobby: games waiting for players, listed by their creators -------------------

  // `polled`: a look of its own while the start page is in view. It sends the shown
  // page's ETag, so an unchanged lobby costs a 304, and it leaves the status line alone.
  async function loadLobby(polled) {
    const game = $("lobby-game").value;
    if (!game) return;
    const background = polled === POLLED;
    const status = $("lobby-status");
    if (!background) status.textContent = "Looking…";
    const shown = table.lobbyShown;
    let page;
    let tag = null;
    try {
      page = await api(`/v1/lobby/${encodeURIComponent(game)}?limit=20`, {
        ifNoneMatch: background && shown && shown.game === game ? shown.tag : undefined,
        onTag: (received) => {
          tag = received;
        },
      });
    } catch (error) {
      if (!background) {
        status.textContent = error instanceof ApiError ? `${error.message} (${error.code})` : String(error);
      }
      return;
    }
    if (page === NOT_MODIFIED) return;
    if (game !== $("lobby-game").value) return; // another game was picked meanwhile
    table.lobbyShown = { game, tag };
    $("lobby-list").replaceChildren(...page.games.map(lobbyEntry));
    const count = page.games.length;
    status.textContent = count
      ? `${count} game${count === 1 ? "" : "s"} waiting for players.`
      : "No game is waiting: create one with an open seat.";
  }

  const POLLED = "polled";
  const LOBBY_POLL_MS = 5000;

  function pollLobby() {
    if (!$("start").hidden && document.visibilityState === "visible") loadLobby(POLLED);
  }

  function lobbyEntry(listed) {
    const item = element("li");
    const seats = listed.seats.map((seat) => (seat.open ? "(open)" : isolate(seat.name)));
    const open = `${listed.open_seats} open seat${listed.open_seats === 1 ? "" : "s"}`;
    const who = element("span", `${seats.join(", ")} · ${open}`, "who");
    const settings = lobbySettings(listed);
    if (settings) who.append(element("small", settings, "hint"));
    const button = element("button", "Join");
    button.type = "button";
    button.setAttribute("aria-label", `Join ${seats.join(", ")}`);
    button.addEventListener("click", () => joinListed(listed, button));
    item.append(who, button);
    return item;
  }

  // What a player may want to know before joining: the clock and the options chosen.
  function lobbySettings(listed) {
    const parts = [];
    const clock = listed.clock;
    if (clock) parts.push(`clock ${clock.initial_seconds / 60} min + ${clock.increment_seconds} s`);
    for (const [key, value] of Object.entries(listed.options)) {
      const shown = Array.isArray(value) ? value.join(", ") : String(value);
      parts.push(`${key.replace(/_/g, " ")}: ${shown.length > 80 ? `${shown.slice(0, 79)}…` : shown}`);
    }
    return parts.join(" · ");
  }

  // Takes the first open seat the lobby shows a code for. Another player may take it
  // first (409) or its invite may have run out (410): the list is then shown afresh.
  async function joinListed(listed, button) {
    const name = lobbyName();
    if (!name) return;
    const seat = listed.seats.find((candidate) => candidate.invite_code);
    if (!seat) return;
    button.disabled = true;
    try {
      const taken = await api(`/v1/games/${listed.id}/seats/${seat.seat}/claim`, {
        method: "POST",
        body: { code: seat.invite_code, name },
      });
      remember(listed.id, { ...recall(listed.id), [taken.seat]: taken.token });
      location.hash = `game=${listed.id}`;
    } catch (error) {
      button.disabled = false;
      await loadLobby();
      $("lobby-status").textContent = `${error.message} (${error.code || "error"}). Pick another game.`;
    }
  }

  // One call takes the first open seat of the longest waiting game. Its random key makes
  // the retry after a lost answer (a network error) give back the seat it took, if any.
  async function joinFirstOpen() {
    const name = lobbyName();
    if (!name) return;
    const game = $("lobby-game").value;
    const button = $("lobby-quick");
    const key = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    button.disabled = true;
    $("lobby-status").textContent = "Joining…";
    try {
      let taken;
      for (let attempt = 0; ; attempt += 1) {
        try {
          taken = await api(`/v1/lobby/${encodeURIComponent(game)}/join`, {
            method: "POST",
            body: { name },
            idempotencyKey: key,
          });
          break;
        } catch (error) {
          if (error instanceof ApiError || attempt >= 1) throw error;
        }
      }
      remember(taken.id, { ...recall(taken.id), [taken.seat]: taken.token });
      location.hash = `game=${taken.id}`;
    } catch (error) {
      await loadLobby();
      $("lobby-status").textContent = error instanceof ApiError ? `${error.message} (${error.code})` : String(error);
    } finally {
      button.disabled = false;
    }
  }

  function lobbyName() {
    const name = $("lobby-name").value.trim();
    if (!name) {
      $("lobby-status").textContent = "Give your name first.";
      $("lobby-name").focus();
    }
    return name;
  }

  // Tokens live in this tab only (sessionStorage), so a reload keeps your seat.
  function remember(id, tokens) {
    sessionStorage.setItem(`skyport:${id}`, JSON.stringify(tokens));
  }

  function recall(id) {
    try {
      return JSON.parse(sessionStorage.getItem(`skyport:${id}`) || "{}");
    } catch (error) {
      return {};
    }
  }

  // --- the table -----------------------------------------------------------------------

  // #game=<id>, or a resume link #game=<id>&token=<seat token>: the token rides in the
  // fragment, which the browser never sends, and leaves the address bar once read.
  async function route() {
    const match = /^#game=([a-z2-7]{24})(?:&token=([A-Za-z0-9_~.%-]{1,200}))?$/.exec(location.hash);
    closeStream();
    if (!match) {
      table.gameId = null;
      $("table").hidden = true;
      $("start").hidden = false;
      loadLobby();
      return;
    }
    const id = match[1];
    if (match[2]) {
      history.replaceState(null, "", `${location.pathname}#game=${id}`);
      try {
        const token = decodeURIComponent(match[2]);
        const seen = await api(`/v1/games/${id}`, { token });
        if (seen.you !== null) remember(id, { ...recall(id), [seen.you]: token });
      } catch (error) {
        openGame(id);
        showError("table-error", error);
        return;
      }
    }
    openGame(id);
  }

  function showResume() {
    const token = viewerToken();
    $("resume").hidden = !token;
    if (!token) return;
    const link = `${location.origin}${location.pathname}#game=${table.gameId}&token=${encodeURIComponent(token)}`;
    $("resume-link").value = link;
    $("resume-token").textContent = token;
  }

  async function copyResume() {
    const field = $("resume-link");
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
      say("copied", "Resume link copied.", 3000);
    } catch (error) {
      say("copied", "Select the link and copy it (the browser did not let the page do it).", 6000);
    }
  }

  function openGame(id) {
    table.gameId = id;
    table.tokens = recall(id);
    const seats = Object.keys(table.tokens).map(Number).sort((a, b) => a - b);
    table.viewer = seats.length ? seats[0] : null;
    table.document = null;
    table.rematchAsked = null;
    $("start").hidden = true;
    $("table").hidden = false;
    $("game-id").textContent = id;
    $("result-panel").hidden = true;
    $("board").replaceChildren();
    $("moves").replaceChildren();
    showError("table-error", null);
    viewerOptions();
    restart();
  }

  function viewerOptions() {
    const select = $("viewer-select");
    const seats = Object.keys(table.tokens).map(Number).sort((a, b) => a - b);
    const names = table.document ? table.document.seats : [];
    const cut = (name) => (name.length > 24 ? `${name.slice(0, 23)}…` : name);
    const label = (seat) => (names[seat] ? `${isolate(cut(names[seat].name))} (seat ${seat + 1})` : `Seat ${seat + 1}`);
    select.replaceChildren(
      option("", "Spectator", table.viewer === null),
      ...seats.map((seat) => option(String(seat), label(seat), seat === table.viewer)),
    );
  }

  function restart() {
    closeStream();
    table.seen = new Set();
    table.labels = new Map();
    table.ended = false;
    table.known = -1;
    table.drawn = -1;
    table.fetching = -1;
    table.failures = 0;
    clearTimeout(table.retry);
    showResume();
    $("log").replaceChildren();
    follow();
    refresh();
  }

  // A move's version is heard of twice (the POST's answer and the live stream's event):
  // only the first that is newer than what is shown or being fetched costs a refresh.
  function refreshFor(version) {
    if (version <= Math.max(table.drawn, table.fetching)) return;
    refresh();
  }

  // Several updates may arrive while one refresh runs: they fold into one more.
  async function refresh() {
    if (table.refreshing) {
      table.again = true;
      return;
    }
    clearTimeout(table.retry);
    table.refreshing = true;
    $("moves").setAttribute("aria-busy", "true");
    try {
      do {
        table.again = false;
        table.fetching = table.known;
        const id = table.gameId;
        const results = await Promise.allSettled([loadDocument(), loadBoard(), loadMoves()]);
        if (id !== table.gameId) return;
        const failed = results.find((result) => result.status === "rejected");
        if (failed) {
          table.fetching = -1;
          refreshFailed(failed.reason);
          return;
        }
        table.drawn = Math.max(table.drawn, table.document.version);
        table.failures = 0;
        unsay("offline");
        showError("table-error", null);
      } while (table.again);
    } finally {
      table.fetching = -1;
      table.refreshing = false;
      $("moves").setAttribute("aria-busy", "false");
    }
  }

  // The network or the server failing will pass: say so kindly and try again, waiting a
  // little longer each time. Anything else (an unknown game, a bad token) is shown as is.
  const passing = (error) => !(error instanceof ApiError) || error.status >= 500 || error.status === 429;

  function refreshFailed(error) {
    if (!passing(error)) {
      showError("table-error", error);
      return;
    }
    showError("table-error", null);
    const wait = Math.min(BACKOFF_MAX_S, 2 ** table.failures);
    table.failures += 1;
    const why = navigator.onLine === false ? "You seem to be offline." : "The server could not be reached.";
    say("offline", `${why} Trying again in ${wait} s…`);
    table.retry = setTimeout(refresh, wait * 1000);
  }

  // Move buttons are only live for the newest version the page knows: a move made on an
  // older one would be refused (409), so they wait for the next refresh.
  function heardOf(version) {
    if (version <= table.known) return;
    table.known = version;
    const box = $("moves");
    if (Number(box.dataset.version) < version) {
      for (const button of box.children) button.disabled = true;
    }
  }

  async function loadDocument() {
    const document_ = await api(gamePath(), { token: viewerToken() });
    const firstLook = table.document === null;
    table.document = document_;
    heardOf(document_.version);
    const game = table.catalog.find((g) => g.id === document_.game);
    table.title = game ? game.title : document_.game;
    $("game-title").textContent = table.title;
    $("game-status").textContent = statusText(document_);
    if (firstLook) viewerOptions();
    if (document_.result) showResult(document_.result);
    showRematch(document_);
    $("board-summary").textContent = boardSummary(document_);
    followTheTurn(document_);
  }

  // Playing several seats from one page (hot seat): read as the seat that must act.
  function followTheTurn(document_) {
    if (document_.status !== "active" || table.viewer === null) return;
    if (document_.turn.includes(table.viewer)) return;
    const next = document_.turn.find((seat) => seat in table.tokens);
    if (next === undefined) return;
    table.viewer = next;
    viewerOptions();
    restart();
  }

  // The board in words, for those who cannot see the picture: whose turn, each player's
  // score and hand size, your own hand (as the reader's view shows them).
  function boardSummary(document_) {
    const view = document_.view || {};
    const parts = [`${table.title}, version ${document_.version}, ${document_.status}.`];
    if (document_.status === "active" && document_.turn.length) {
      parts.push(`To act: ${document_.turn.map(seatName).join(", ")}.`);
    }
    const first = (object, keys) => keys.map((key) => object[key]).find((value) => value !== undefined && value !== null);
    for (const player of Array.isArray(view.players) ? view.players : []) {
      const facts = [];
      const score = first(player, ["score_now", "victory_points"]);
      if (typeof score === "number") facts.push(`${score} points`);
      const hand = first(player, ["hand_size", "hand_count"]);
      const size = typeof hand === "number" ? hand : Array.isArray(player.hand) ? player.hand.length : undefined;
      if (size !== undefined) facts.push(`${size} in hand`);
      if (facts.length) parts.push(`${seatName(player.seat)}: ${facts.join(", ")}.`);
    }
    const mine = Array.isArray(view.hand) ? view.hand : undefined;
    const own = table.viewer !== null && Array.isArray(view.players)
      ? (view.players.find((player) => player.seat === table.viewer) || {}).hand
      : undefined;
    const hand = Array.isArray(own) ? own : mine;
    if (table.viewer !== null && hand && hand.length) {
      const names = hand.map((card) => (typeof card === "object" ? card.name || card.id || JSON.stringify(card) : String(card)));
      parts.push(`Your hand: ${names.join(", ")}.`);
    }
    return parts.join(" ");
  }

  function standingNote(standing) {
    if (standing.abandoned) return " (left; a bot played on)";
    return standing.resigned ? " (resigned)" : "";
  }

  // A name between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE (what <bdi> does, for
  // places that hold text only, like an <option>): right-to-left names cannot reorder the
  // text around them.
  const isolate = (name) => `\u2068${name}\u2069`;

  function seatName(seat) {
    const seats = table.document ? table.document.seats : [];
    if (!seats[seat]) return `Seat ${seat + 1}`;
    const info = seats[seat];
    const tag = seat === table.viewer ? " (you)" : info.bot ? ` (${info.bot} bot)` : "";
    return isolate(info.name) + tag;
  }

  function statusText(document_) {
    const parts = [document_.status, `version ${document_.version}`];
    if (document_.status === "active" && document_.turn.length) {
      parts.push(`to act: ${document_.turn.map(seatName).join(", ")}`);
    }
    return parts.join(" · ");
  }

  async function loadBoard() {
    const board = $("board");
    let text;
    try {
      text = await api(gamePath("/board.svg"), { token: viewerToken(), accept: "image/svg+xml" });
    } catch (error) {
      if (error.code === "no_picture") {
        board.replaceChildren(element("p", error.message, "note"));
        return;
      }
      throw error;
    }
    const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
    const root = parsed.documentElement;
    if (root.namespaceURI !== "http://www.w3.org/2000/svg" || parsed.querySelector("parsererror")) {
      throw new Error("The board picture could not be read.");
    }
    board.replaceChildren(document.importNode(root, true));
  }

  async function loadMoves() {
    const note = $("moves-note");
    const box = $("moves");
    const filter = $("moves-filter");
    if (table.viewer === null) {
      note.textContent = "Spectating: pick a seat you hold under “View as” to play.";
      box.replaceChildren();
      filter.hidden = true;
      return;
    }
    const legal = await api(gamePath("/legal-moves"), { token: viewerToken() });
    if (legal.version < table.known) {
      table.again = true; // stale already: ask again rather than offer refused moves
      return;
    }
    box.dataset.version = String(legal.version);
    const active = table.document === null || table.document.status === "active";
    const waiting = table.document !== null && table.document.status === "waiting";
    if (!legal.moves.length) {
      note.textContent = waiting
        ? "Waiting for players to take the open seats…"
        : active
          ? "Waiting for the other players…"
          : "No more moves: the game is over.";
      const inMoves = box.contains(document.activeElement);
      box.replaceChildren();
      filter.hidden = true;
      if (inMoves || (table.refocus && document.activeElement === document.body)) note.focus();
      if (!active) table.refocus = false;
      return;
    }
    const count = `${legal.moves.length} legal move${legal.moves.length === 1 ? "" : "s"}`;
    const prompt = table.document && table.document.prompts.find((p) => p.seat === table.viewer);
    note.textContent = prompt && prompt.text ? `${prompt.text} (${count})` : count;
    const refocus = table.refocus && [box, note, document.body].some((n) => n === document.activeElement || n.contains(document.activeElement));
    box.replaceChildren(
      ...legal.moves.map((move) => {
        const button = element("button", move.label, "move");
        button.type = "button";
        button.addEventListener("click", () => play(move, legal.version));
        return button;
      }),
    );
    filter.hidden = legal.moves.length < FILTER_FROM;
    applyFilter();
    // After a click the focus goes to the first move of the new choice (the button it was
    // on is gone), unless the reader has moved it elsewhere meanwhile.
    if (refocus) {
      table.refocus = false;
      const next = [...box.children].find((button) => !button.hidden);
      if (next) next.focus();
    }
  }

  function applyFilter() {
    const words = $("moves-filter").value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const button of $("moves").children) {
      const label = button.textContent.toLowerCase();
      button.hidden = !words.every((word) => label.includes(word));
    }
  }

  async function play(move, version) {
    const buttons = [...$("moves").children];
    buttons.forEach((button) => {
      button.disabled = true;
    });
    unsay("stale");
    table.refocus = true;
    table.labels.set(version + 1, move.label); // the usual next version, until the answer says
    try {
      const accepted = await api(gamePath("/moves"), {
        method: "POST",
        token: viewerToken(),
        body: { move, expected_version: version },
      });
      heardOf(accepted.version);
      if (accepted.version !== version + 1) table.labels.delete(version + 1);
      labelEntry(accepted.version, move.label);
      showError("table-error", null);
      refreshFor(accepted.version);
      return;
    } catch (error) {
      table.labels.delete(version + 1);
      if (error.code === "version_conflict") {
        say("stale", "The game moved on; your click was not played.", STALE_NOTE_MS);
      } else if (!passing(error)) {
        showError("table-error", error);
      }
    }
    refresh(); // a refused or unsent click: show the game as it is (backing off if offline)
  }

  // --- the live stream (SSE over fetch, so the seat's token goes in a header) ------------

  function closeStream() {
    if (table.stream) table.stream.abort();
    table.stream = null;
  }

  async function follow() {
    const controller = new AbortController();
    table.stream = controller;
    let last = null;
    let opened = 0;
    // Events missed while the stream was down are replayed from Last-Event-ID, but a
    // refresh that failed meanwhile is not: a reconnection refreshes too.
    const onOpen = () => {
      opened += 1;
      if (opened > 1) refresh();
    };
    while (!controller.signal.aborted && !table.ended) {
      try {
        last = await readStream(controller.signal, last, onOpen);
      } catch (error) {
        if (controller.signal.aborted) return;
      }
      if (!table.ended) await sleep(RECONNECT_MS);
    }
  }

  async function readStream(signal, lastEventId, onOpen) {
    const headers = { Accept: "text/event-stream" };
    const token = viewerToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (lastEventId !== null) headers["Last-Event-ID"] = lastEventId;
    const response = await fetch(gamePath("/events"), { headers, signal, cache: "no-store" });
    if (response.status === 204) {
      table.ended = true;
      return lastEventId;
    }
    if (!response.ok) {
      // A refused stream (unknown game, bad token) will not get better by retrying.
      if (response.status < 500 && response.status !== 429) table.ended = true;
      throw new Error(`The live stream answered ${response.status}.`);
    }
    onOpen();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let last = lastEventId;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return last;
      buffer += value.replace(/\r\n?/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const frame = parseFrame(buffer.slice(0, cut));
        buffer = buffer.slice(cut + 2);
        if (frame.id !== null) last = frame.id;
        if (frame.data !== null) handleFrame(frame);
      }
    }
  }

  function parseFrame(text) {
    const frame = { id: null, event: "message", data: null };
    for (const line of text.split("\n")) {
      if (!line || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "id") frame.id = value;
      else if (field === "event") frame.event = value;
      else if (field === "data") frame.data = frame.data === null ? value : `${frame.data}\n${value}`;
    }
    return frame;
  }

  function handleFrame(frame) {
    const data = JSON.parse(frame.data);
    if (frame.event === "end") {
      table.ended = true;
      if (data.result) showResult(data.result);
      refresh();
      return;
    }
    if (frame.event === "start" || frame.event === "seat" || frame.event === "lobby") {
      // A game that waited for players started or had a seat claimed, or a seat left or
      // went on or off autopilot: not a log entry, but the game (its seats) changed.
      refresh();
      return;
    }
    if (table.seen.has(data.version)) return;
    table.seen.add(data.version);
    heardOf(data.version);
    logEntry(data);
    refreshFor(data.version);
  }

  // --- the event log and the result ------------------------------------------------------

  const isEmpty = (value) => value === null || (Array.isArray(value) && value.length === 0);

  const cardList = (cards) => (cards && cards.length ? cards.join(", ") : "");
  const hidden = (value) => value === null || value === undefined;
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  // The commonest events in words; the rest fall back to their fields.
  const FORMATS = {
    turn_started: (e) => `turn ${e.turn} begins`,
    turn_ended: (e) => `turn ${e.turn} ends`,
    card_played: (e) => `plays ${e.card}`,
    card_bought: (e) => `buys ${e.card}`,
    event_bought: (e) => `buys the Event ${e.event}`,
    card_gained: (e) => `gains ${e.card}${e.to && e.to !== "discard" ? ` (to ${e.to.replace(/_/g, " ")})` : ""}`,
    cards_drawn: (e) => `draws ${plural(e.count, "card")}${hidden(e.cards) ? "" : `: ${cardList(e.cards)}`}`,
    cards_trashed: (e) => `trashes ${cardList(e.cards)}`,
    cards_discarded: (e) => `discards ${cardList(e.cards)}`,
    cards_revealed: (e) => `reveals ${cardList(e.cards)}`,
    shuffled: (e) => `shuffles (${plural(e.count, "card")})`,
    tile_placed: (e) => `places tile ${e.tile} at (${e.x}, ${e.y})`,
    tile_drawn: () => "draws a tile",
    built: (e) => `builds a ${e.building.replace(/_/g, " ")} at (${e.x}, ${e.y})${e.vp ? ` (+${e.vp} VP)` : ""}`,
    move_made: (e) => e.text,
    opponent_acted: (e) => `the opponent: ${e.text}`,
    round_began: (e) => `round ${e.round} begins`,
    game_ended: (e) => {
      const parts = ["game over"];
      if (Array.isArray(e.scores)) parts.push(e.scores.map((n, seat) => `${seatName(seat)} ${n}`).join(", "));
      if (Array.isArray(e.winners)) parts.push(`won: ${e.winners.map(seatName).join(", ") || "nobody"}`);
      return parts.join(" · ");
    },
  };

  // Fields that hold seats read as names, not 0-based indices.
  const SEAT_FIELD = /^(seat|seats|player|players|winner|winners|target|targets|to_seat|from_seat|owner)$/;

  function fieldText(key, value) {
    if (SEAT_FIELD.test(key)) {
      if (Number.isInteger(value)) return seatName(value);
      if (Array.isArray(value) && value.every(Number.isInteger)) return value.map(seatName).join(", ");
    }
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  }

  function describeEvent(event) {
    let text;
    const format = FORMATS[event.kind];
    try {
      text = format ? format(event) : undefined;
    } catch (error) {
      text = undefined; // a field this formatter expects is missing: fall back
    }
    if (text === undefined || text.includes("undefined")) {
      const fields = Object.entries(event)
        .filter(([key, value]) => !["kind", "seat", "private_to"].includes(key) && !isEmpty(value))
        .map(([key, value]) => `${key.replace(/_/g, " ")} ${fieldText(key, value)}`);
      text = event.kind.replace(/_/g, " ") + (fields.length ? `: ${fields.join(", ")}` : "");
    }
    const who = event.seat === null || event.seat === undefined ? "" : `${seatName(event.seat)}: `;
    return who + (text.length > 200 ? `${text.slice(0, 199)}…` : text);
  }

  // Your own moves are logged by their button's label.
  function entryHead(entry) {
    if (entry.action === "resign") return `${seatName(entry.seat)} resigned`;
    const label = table.labels.get(entry.version);
    return label && entry.seat === table.viewer ? `${seatName(entry.seat)}: ${label}` : `${seatName(entry.seat)} moved`;
  }

  function logEntry(entry) {
    const item = element("li");
    item.append(element("span", `v${entry.version}`, "version"), element("strong", ` ${entryHead(entry)}`, "head"));
    const list = element("ul");
    for (const event of entry.events) list.append(element("li", describeEvent(event)));
    item.append(list);
    item.value = entry.version;
    item.dataset.seat = String(entry.seat);
    $("log").prepend(item);
  }

  function labelEntry(version, label) {
    table.labels.set(version, label);
    const item = $("log").querySelector(`:scope > li[value="${version}"]`);
    if (item && Number(item.dataset.seat) === table.viewer) {
      item.querySelector(".head").textContent = ` ${seatName(table.viewer)}: ${label}`;
    }
  }

  // Every standing in rank order, with a solo game's virtual opponent ranked among them
  // (a solo player who lost is 2nd to it), then why the game ended so.
  function showResult(result) {
    const lines = result.standings.map((standing) => ({
      rank: standing.rank,
      name: standing.name + standingNote(standing),
      score: standing.score,
      breakdown: standing.breakdown,
      winner: result.winners.includes(standing.seat),
    }));
    if (result.opponent) {
      const rival = result.opponent;
      lines.push({
        rank: rival.rank,
        name: `${rival.name} (virtual opponent)`,
        score: rival.score,
        breakdown: rival.breakdown,
        winner: rival.rank === 1 && !result.winners.length,
      });
    }
    lines.sort((a, b) => a.rank - b.rank);
    const rows = lines.map((line) => {
      const row = element("tr");
      const breakdown = Object.entries(line.breakdown)
        .map(([name, points]) => `${name.replace(/_/g, " ")} ${points}`)
        .join(" · ");
      const name = element("td", line.winner ? "★ " : "");
      name.append(element("bdi", line.name));
      row.append(element("td", String(line.rank)), name, element("td", String(line.score)), element("td", breakdown));
      if (line.winner) row.className = "winner";
      return row;
    });
    $("result").tBodies[0].replaceChildren(...rows);
    $("result-summary").textContent = result.summary || "";
    $("result-summary").hidden = !result.summary;
    $("result-panel").hidden = false;
  }

  // Under a finished game this tab holds a seat of, once the service says it offers a
  // rematch (rematch null: nobody has asked yet; 409: a platform's game has none).
  async function showRematch(document_) {
    const button = $("rematch-button");
    if (document_.status !== "finished" || !Object.keys(table.tokens).length) {
      button.hidden = true;
      return;
    }
    if (table.rematchAsked === document_.id) return;
    table.rematchAsked = document_.id;
    try {
      const found = await api(gamePath("/rematch"));
      button.textContent = found.rematch ? "Join the rematch" : "Play again";
      button.hidden = false;
    } catch (error) {
      button.hidden = true;
    }
  }

  // Play again: each seat this tab holds asks for its seat in the same rematch, which
  // starts once every player has asked (here at once, when the tab holds them all).
  async function rematch() {
    const button = $("rematch-button");
    button.disabled = true;
    showError("table-error", null);
    try {
      const tokens = {};
      let id = null;
      for (const token of Object.values(table.tokens)) {
        const joined = await api(gamePath("/rematch"), { method: "POST", token });
        tokens[joined.seat] = joined.token;
        id = joined.id;
      }
      remember(id, tokens);
      location.hash = `game=${id}`;
    } catch (error) {
      showError("table-error", error);
    } finally {
      button.disabled = false;
    }
  }

  // --- wiring ------------------------------------------------------------------------------

  $("create-form").addEventListener("submit", createGame);
  $("watch-form").addEventListener("submit", watchGame);
  $("moves-filter").addEventListener("input", applyFilter);
  $("resume-copy").addEventListener("click", copyResume);
  $("rematch-button").addEventListener("click", rematch);
  $("lobby-refresh").addEventListener("click", loadLobby);
  $("lobby-quick").addEventListener("click", joinFirstOpen);
  $("lobby-game").addEventListener("change", loadLobby);
  $("leave-button").addEventListener("click", () => {
    location.hash = "";
  });
  $("viewer-select").addEventListener("change", (event) => {
    table.viewer = event.target.value === "" ? null : Number(event.target.value);
    restart();
  });
  window.addEventListener("hashchange", route);
  window.addEventListener("online", () => {
    if (table.gameId === null) return;
    table.failures = 0;
    refresh();
  });
  setInterval(pollLobby, LOBBY_POLL_MS);
  loadCatalog().then(route);
})();
