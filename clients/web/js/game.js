// The game page: the board from the seat's view, the legal moves as buttons, the move log,
// live updates from the event stream, and the result.

import { api, ApiError, canonical, newKey } from "./api.js";
import { h, replace, tableWrap } from "./dom.js";
import { language, t, tOr, withLanguage } from "./i18n.js";
import { humanize, seatName } from "./names.js";
import { rendererFor } from "./renderers/index.js";
import { describeEvent } from "./events.js";
import { AnalysisPanel } from "./analysis.js";
import { Explainer } from "./explain.js";

const FILTER_FROM = 10; // moves listed before a filter box is offered
const LOG_PAGE = 200;
const REFRESH_GAP = 200; // ms between two reads of the game
const CONFIRM_KEY = "bgb.confirm"; // the page setting: "1" a move waits for a confirmation, "0" not
const TOAST_TIME = 6000; // ms a toast about the others' moves stays
const TOAST_LINES = 4; // moves a toast names (the newest; the rest counted)
const TOAST_LINES_PHONE = 2; // on a phone's screen (the note sits in the status bar there)
const PHONE = "(max-width: 600px)"; // as the page's CSS: the status bar holds the note

/** Whether a chosen move waits for a confirmation: the saved setting, else on for a touch
 * screen (a stray tap is easy there) and off for a mouse and keyboard. */
export function confirmWanted() {
  const saved = storage()?.getItem(CONFIRM_KEY);
  if (saved === "1" || saved === "0") return saved === "1";
  return window.matchMedia?.("(pointer: coarse)").matches || navigator.maxTouchPoints > 0;
}

function storage() {
  try { return window.localStorage; } catch { return null; }
}

/** Draw game `gameId` into `root`, as the seat whose token is in the fragment (or a spectator),
 * opened at the replay of version `?at=N` when the address names one. */
export async function showGame(root, gameId) {
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  const page = new GamePage(root, gameId, token);
  await page.start();
  const at = new URLSearchParams(location.search).get("at");
  if (at === null) return;
  // A version the game has not reached (or no number at all) shows the game as it is now.
  if (/^\d{1,9}$/.test(at) && Number(at) < page.body.version) await page.replay(Number(at));
  else page.addressReplay(null);
}

/** Step through `replayed`, the answer of POST /v1/records/replay (a record file verified by
 * the server): the game page on the record's views, opened at its first version. */
export async function showRecord(root, replayed) {
  const page = new GamePage(root, replayed.id, null, replayed);
  await page.start();
  page.root.prepend(h("p", { class: "notice record-checks", id: "record-checks" },
    t("record.verified", { moves: replayed.moves.length })));
  await page.replay(0);
}

class GamePage {
  /** `recorded`: a record's replay (POST /v1/records/replay), whose views the page shows
   * instead of reading a game of this server. */
  constructor(root, gameId, token, recorded = null) {
    this.recorded = recorded;
    this.root = root;
    this.id = gameId;
    this.token = token;
    this.body = null;
    this.log = [];
    this.busy = false;
    this.filter = "";
    this.place = null; // the board place whose moves the list shows (a click on the board)
    this.stream = null;
    this.refreshing = null;
    this.lastRead = 0;
    this.replaying = null; // the version the board shows in a replay (null: the game now)
    this.replayTicket = 0; // the newest replay asked for (a quicker step drops an older answer)
    this.replayWanted = undefined; // the version a replay in flight will show (keys step from it)
    this.chosen = null; // the move chosen and waiting for its confirmation
    this.chosenUndo = null; // what Cancel also undoes for a move built on the board (its preview)
    this.confirm = confirmWanted();
    this.toasted = []; // the others' moves the note on screen names (one note at a time)
    this.toastTimer = null;
  }

  async start() {
    this.heading = h("h1", { class: "game-title", id: "game-title" });
    this.status = h("div", { class: "status", id: "status", "aria-live": "polite" });
    this.notice = h("div", { class: "notice", id: "notice", role: "alert", hidden: true });
    this.replayBar = h("div", { class: "notice replay", id: "replay", "aria-live": "polite", hidden: true });
    this.board = h("section", { class: "board", id: "board", tabindex: "-1", "aria-label": t("game.board") });
    this.movesPanel = h("section", { class: "panel moves", id: "moves", tabindex: "-1", "aria-label": t("game.moves") });
    this.logList = h("ol", { class: "log", id: "log", reversed: true });
    this.logLines = new Map(); // a drawn log line by what it shows (see drawLog)
    this.resultPanel = h("section", { class: "panel result", id: "result", hidden: true });
    this.analysis = new AnalysisPanel(this);
    this.connection = h("span", { class: "connection", id: "connection" });
    this.actions = h("section", { class: "panel actions", id: "actions", "aria-label": t("game.actions") });
    this.rulesPanel = h("details", { class: "panel rules", id: "rules" });
    // What the other seats did since the last read: short notes that go by themselves.
    this.toasts = h("div", { class: "toasts", id: "toasts", role: "status", "aria-live": "polite" });
    this.confirmBar = h("div", {
      class: "confirm-bar", id: "confirm-bar", role: "region", "aria-label": t("game.confirm_region"),
      hidden: true,
      onkeydown: (event) => {
        if (event.key === "Escape") { event.preventDefault(); this.cancelChoice(); }
        else if (event.key === "Enter" && !event.target.closest?.("#confirm-cancel")) {
          event.preventDefault();
          this.confirmChoice();
        }
      },
    });
    // A tap on the board's icons says their words; a long-press, a place's (explain.js).
    this.explainer = new Explainer(this.board, this.confirmBar);
    // Jumps are buttons, not #anchors: the fragment holds the seat's token.
    const jump = (key, target) => h("button", {
      type: "button", class: "jump-to", onclick: () => { target().scrollIntoView(); target().focus?.(); },
    }, t(key));
    this.logHeading = h("h2", { tabindex: "-1" }, t("game.log"));
    // A finished game is stepped through from its end with ← (the replay bar then says →).
    this.logKeys = h("p", { class: "help", id: "log-keys", hidden: true }, t("replay.keys_finished"));
    // The status and the jumps stay at the top of the screen (a phone's page is long).
    const sticky = h("div", { class: "game-sticky" },
      h("div", { class: "game-head" }, this.heading, this.status, this.connection),
      h("nav", { class: "jumps", "aria-label": t("game.jump") },
        jump("game.moves", () => this.movesPanel), jump("game.board", () => this.board),
        jump("game.jump_log", () => this.logHeading)),
      // In the bar: a phone shows the note there, over nothing (CSS); a wider screen at
      // the bottom right.
      this.toasts);
    // What a jump scrolls to stops below the bar as tall as it is now: a note of the others'
    // moves in it (a phone) makes it taller for a while (--sticky-height in app.css).
    if (typeof ResizeObserver !== "undefined") {
      new ResizeObserver(() => document.documentElement.style.setProperty(
        "--sticky-height", `${sticky.offsetHeight}px`)).observe(sticky);
    }
    replace(this.root,
      sticky,
      this.notice, this.replayBar, this.resultPanel, this.analysis.el,
      h("div", { class: "game-layout" },
        h("div", { class: "main-column" }, this.movesPanel, this.board),
        h("aside", { class: "panel side" },
          this.logHeading, this.logKeys, this.logList)),
      this.actions, this.rulesPanel, this.confirmBar, this.explainer.el);
    this.renderer = null;
    const games = await api("/v1/games-catalog").then((catalog) => catalog.games, () => []);
    this.titles = Object.fromEntries(games.map((g) => [g.name, g.title]));
    // Each game's rules page on the documentation site, when the server names its site.
    this.rulesUrls = Object.fromEntries(games.filter((g) => g.rules_url).map((g) => [g.name, g.rules_url]));
    await this.refresh();
    this.follow();
    document.addEventListener("keydown", (event) => this.replayKey(event));
    this.drawRules().catch(() => { this.rulesPanel.hidden = true; });
  }

  /** The game's rules in short (clients/web/data/rules.json, the page's language), folded,
   * and a link to its rules as implemented on the documentation site (the catalog's
   * `rules_url`, when the server names its site). */
  async drawRules() {
    const all = await (await fetch("/play/data/rules.json")).json();
    const rules = all[this.body.game];
    const paragraphs = rules?.[language()] || rules?.en || [];
    const url = this.rulesUrls?.[this.body.game];
    if (!paragraphs.length && !url) { this.rulesPanel.hidden = true; return; }
    // A new tab: the game stays open; no opener nor referrer (the fragment holds the token).
    const link = url && h("p", {},
      h("a", { id: "rules-page", href: url, target: "_blank", rel: "noopener noreferrer" },
        t("game.rules_page")));
    replace(this.rulesPanel, h("summary", {}, t("game.rules")),
      paragraphs.map((text) => h("p", {}, text)),
      paragraphs.length ? h("p", { class: "help" }, t("game.rules_note")) : null,
      link || null);
  }

  /** Read the game and the new log entries, then draw. Concurrent calls share one read. */
  async refresh() {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        // At most one read every REFRESH_GAP ms: a fast bots' game does not flood the server.
        const wait = this.lastRead + REFRESH_GAP - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        this.lastRead = Date.now();
        this.again = false;
        const body = this.recorded ? this.recorded.views.at(-1)
          : await api(`/v1/games/${this.id}`, { token: this.token });
        const seen = this.log.length;
        const first = this.body === null;
        await this.readLog();
        await this.show(body);
        if (!first) this.toast(this.log.slice(seen));
      } while (this.again);
    })();
    try {
      await this.refreshing;
    } finally {
      this.refreshing = null;
    }
  }

  async readLog() {
    if (this.recorded) { this.log = this.recorded.moves; return; }
    let after = this.log.length ? this.log[this.log.length - 1].index : -1;
    for (;;) {
      const page = await api(`/v1/games/${this.id}/moves?after=${after}&limit=${LOG_PAGE}`,
        { token: this.token });
      this.log.push(...page.moves);
      if (page.next === null || page.next === undefined || !page.moves.length) break;
      after = page.next;
    }
  }

  async show(body) {
    this.body = body;
    if (!this.renderer) this.renderer = await rendererFor(body.game);
    // A keyboard player who just chose a move keeps their place: the next list's first move.
    const hadFocus = this.refocus || this.movesPanel.contains(document.activeElement);
    this.refocus = false;
    const filtering = document.activeElement?.id === "move-filter";
    if (this.chosen && !(body.legal_moves || []).some((m) => sameMove(m, this.chosen))) this.chosen = null;
    this.drawStatus();
    if (this.replaying === null) {
      replace(this.board, this.renderer.render(body));
      if (this.place && !(body.legal_moves || []).some((m) => this.tapPlace(m) === this.place)) this.place = null;
      this.markBoard();
    }
    this.drawMoves();
    this.drawChoice();
    if (filtering) document.getElementById("move-filter")?.focus();
    else if (hadFocus) {
      // Without scrolling: a redraw (another seat's move arriving) must not pull a phone
      // player who scrolled down to the board back up to the moves.
      (this.movesPanel.querySelector("button.move:not([disabled])") || this.movesPanel.querySelector("h2"))
        ?.focus({ preventScroll: true });
      // A draw while a move is in flight (an event stream's) has only disabled buttons, which
      // cannot take the focus: the wish waits for the draw after the answer.
      if (this.busy) this.refocus = true;
    }
    this.drawLog();
    this.drawResult();
    this.drawActions();
    this.analysis.draw().catch((error) => this.explain(error));
  }

  /** A note naming what each other seat did in `entries` (new in the log): "Alfred: worker A
   * to Exploration 1". It goes by itself and lets taps through (the log keeps it); a screen
   * reader reads it once (a polite region). One note at a time: a newer one replaces it and
   * names the moves it named too (the newest few, the rest counted), so notes never stack
   * up over the page; its time starts again. */
  toast(entries) {
    const body = this.body;
    const others = entries.filter((e) => !e.system && e.move && Number.isInteger(e.seat)
      && e.seat !== body.seat);
    if (!others.length) return;
    this.toasted.push(...others);
    const toasted = this.toasted;
    const lines = window.matchMedia?.(PHONE).matches ? TOAST_LINES_PHONE : TOAST_LINES;
    const shown = toasted.slice(-lines);
    const note = h("div", { class: "toast" },
      h("ul", {}, shown.map((entry) => {
        const who = seatName(body, entry.seat);
        const what = entryText(entry);
        // An automa's label names it already ("Alfred draws an action card"): not twice.
        if (what.startsWith(`${who} `)) {
          return h("li", {}, h("span", { class: "who" }, who), what.slice(who.length));
        }
        return h("li", {}, h("span", { class: "who" }, who), ": ", what);
      })),
      toasted.length > shown.length
        ? h("p", { class: "more" }, t("game.toast_more", { count: toasted.length - shown.length })) : null);
    replace(this.toasts, note);
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { note.remove(); this.toasted = []; }, TOAST_TIME);
  }

  /** The board place of `move` (a selector in the board, from the move's own fields: the
   * game's renderer knows where each kind of move is played), or null. */
  placeOf(move) {
    try {
      return this.renderer.placeOf?.(move, this.body) || null;
    } catch {
      return null;
    }
  }

  /** Where a legal move of this seat is first tapped: the place its choice starts at when the
   * renderer builds it in steps (Darwin's Journey: the worker, then its location), else its
   * place. */
  tapPlace(move) {
    try {
      return this.renderer.startOf?.(move, this.body) || this.placeOf(move);
    } catch {
      return this.placeOf(move);
    }
  }

  /** The board element of a place, if the board draws it. */
  boardPlace(selector) {
    if (!selector) return null;
    try {
      return this.board.querySelector(selector);
    } catch {
      return null; // a selector the renderer got wrong: no place, the list still works
    }
  }

  /** On the board: each seat's last move (until that seat moves again), and the places a
   * legal move of this seat is played on, which a click or tap opens in the move list. */
  markBoard() {
    const body = this.body;
    const last = new Map();
    for (const entry of standing(this.log)) {
      if (!entry.system && entry.move && Number.isInteger(entry.seat)) last.set(entry.seat, entry);
    }
    const newest = this.log.length ? this.log[this.log.length - 1].index : -1;
    for (const [seat, entry] of last) {
      const where = this.boardPlace(this.placeOf(entry.move));
      if (!where) continue;
      where.classList.add("last-move", `last-p${seat % 5}`);
      if (entry.index === newest) where.classList.add("newest");
      where.dataset.lastBy = String(seat);
      explainPlace(where, t("game.last_move", { seat: seatName(body, seat) }), moveLabel(entry.move));
    }
    if (body.status !== "active" || body.seat === null || body.to_act !== body.seat) return;
    const places = new Map();
    for (const move of body.legal_moves || []) {
      const place = this.tapPlace(move);
      if (place) places.set(place, (places.get(place) || 0) + 1);
    }
    for (const [place, count] of places) {
      const where = this.boardPlace(place);
      if (!where) continue;
      const here = body.legal_moves.filter((m) => this.tapPlace(m) === place);
      const open = () => {
        if (this.busy) return;
        // A move built step by step on the board (Flotilla: a tile's hex, then its turn,
        // previewed; Darwin's Journey: a worker, then its location): the renderer draws the
        // steps and plays the move confirmed there, or hands it to `pick` (the page's
        // confirmation, whose Cancel also calls `undo`: one step back on the board).
        const hands = {
          play: (move) => this.play(move),
          pick: (move, undo = null) => { this.pick(move); if (this.chosen) this.chosenUndo = undo; },
          cancel: () => { if (this.chosen) this.cancelChoice(); },
        };
        if (this.renderer.buildMove?.(here, body, hands)) {
          this.chosen = null;
          this.drawChoice(); // the renderer's new places that pick a move: not pressed yet
          return;
        }
        // With confirmation on, a place of one move chooses it (a second tap plays it).
        const only = count === 1 && this.confirm && body.legal_moves.find((m) => this.tapPlace(m) === place);
        if (only) { this.pick(only); return; }
        this.place = place;
        this.filter = "";
        this.drawMoves();
        this.movesPanel.scrollIntoView({ block: "nearest" });
        this.movesPanel.querySelector("button.move:not([disabled])")?.focus({ preventScroll: true });
      };
      // An SVG map drawn as one image holds no buttons: it becomes a group of places.
      const image = where.closest("svg[role=img]");
      if (image) image.setAttribute("role", "group");
      where.classList.add("choosable");
      where.dataset.moves = String(count); // what a long-press on it says (explain.js)
      where.setAttribute("tabindex", "0");
      where.setAttribute("role", "button");
      const named = where.getAttribute("aria-label");
      const choice = t("game.place_moves", { count });
      if (!named && where.textContent.trim() && !(where instanceof SVGElement)) {
        // A place drawn with words (a card, an action area, a board control) is named by
        // them: an aria-label would hide them (and differ from what is seen), so the count
        // is added as words a screen reader reads and the eye does not see.
        where.append(h("span", { class: "sr-only" }, ` · ${choice}`));
      } else {
        where.setAttribute("aria-label", named ? `${named} · ${choice}` : choice);
      }
      // Toggles carry aria-pressed (true or false), other places none: a place a move's
      // steps start at (a worker, marked until tapped again or cancelled) always; a place
      // that picks its one move (a second tap plays it, as its button) with confirmation
      // on (drawChoice keeps it); never a place whose moves the renderer builds or lists.
      if (here.some((m) => this.placeOf(m) !== place)) {
        if (!where.hasAttribute("aria-pressed")) where.setAttribute("aria-pressed", "false"); // a redraw may press it
      } else if (count === 1 && !this.renderer.builds?.(here, body)) {
        where.dataset.picks = "";
        if (this.confirm) where.setAttribute("aria-pressed", "false");
      }
      where.addEventListener("click", open);
      where.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); open(); }
      });
    }
  }

  /** A move's button or board place was chosen: played at once, or (confirmation on) marked
   * as chosen until a second tap on it or the confirm bar plays it. */
  pick(move) {
    if (this.busy) return;
    if (!this.confirm || sameMove(move, this.chosen)) { this.play(move); return; }
    this.chosen = move;
    this.chosenUndo = null;
    this.drawChoice();
    document.getElementById("confirm-play")?.focus({ preventScroll: true });
  }

  confirmChoice() {
    if (this.chosen) this.play(this.chosen);
  }

  cancelChoice() {
    const was = this.chosen;
    const undo = this.chosenUndo;
    this.chosen = null;
    this.chosenUndo = null;
    // A move built on the board: one step back there (before the board's places are drawn
    // unpressed: the step back redraws them).
    if (undo) { undo(); this.drawChoice(); return; }
    this.drawChoice();
    const key = was ? JSON.stringify(canonical(was)) : null;
    const button = [...this.movesPanel.querySelectorAll("button.move")].find((b) => b.dataset.move === key);
    (button || this.movesPanel.querySelector("button.move"))?.focus({ preventScroll: true });
  }

  /** The chosen move: its button pressed, its board place marked, the confirm bar. With
   * confirmation on, every button and board place that picks a move is a toggle (aria-pressed
   * true on the chosen one, false on the others); with it off they play at once (none). */
  drawChoice() {
    const key = this.chosen ? JSON.stringify(canonical(this.chosen)) : null;
    const pressed = (el, on) => {
      if (this.confirm) el.setAttribute("aria-pressed", String(on));
      else el.removeAttribute("aria-pressed");
    };
    for (const button of this.movesPanel.querySelectorAll("button.move")) {
      const on = button.dataset.move === key;
      button.classList.toggle("chosen", on);
      pressed(button, on);
    }
    for (const where of this.board.querySelectorAll(".chosen")) where.classList.remove("chosen");
    const place = this.chosen ? this.boardPlace(this.placeOf(this.chosen)) : null;
    for (const where of this.board.querySelectorAll("[data-picks]")) pressed(where, where === place);
    if (!this.chosen) {
      this.chosenUndo = null;
      this.confirmBar.hidden = true;
      replace(this.confirmBar);
      document.body.classList.remove("confirming");
      return;
    }
    place?.classList.add("chosen");
    const focused = this.confirmBar.contains(document.activeElement) ? document.activeElement.id : null;
    replace(this.confirmBar,
      h("span", { class: "confirm-what", id: "confirm-what" }, t("game.confirm_play", { move: moveLabel(this.chosen) })),
      h("span", { class: "confirm-buttons" },
        h("button", { type: "button", class: "primary", id: "confirm-play", onclick: () => this.confirmChoice() },
          t("game.confirm")),
        h("button", { type: "button", id: "confirm-cancel", onclick: () => this.cancelChoice() },
          t("game.cancel"))));
    this.confirmBar.hidden = false;
    document.body.classList.add("confirming");
    if (focused) document.getElementById(focused)?.focus({ preventScroll: true }); // a redraw keeps it
  }

  drawStatus() {
    const body = this.body;
    if (body.status === "finished") {
      this.stream?.close();
      replace(this.connection);
    }
    const title = tOr(`game.${body.game}`, this.titles[body.game] || humanize(body.game));
    replace(this.heading, title);
    const parts = [];
    const round = body.view?.round;
    if (round && body.status !== "finished") parts.push(h("span", {}, t("game.round", { round })));
    if (body.status === "finished") {
      parts.push(h("span", { class: "turn over" }, t("game.over")));
    } else if (body.seat !== null && body.to_act === body.seat) {
      parts.push(h("span", { class: "turn mine" }, t("game.your_turn")));
    } else {
      parts.push(h("span", { class: "turn" }, t("game.to_act", { seat: seatName(body, body.to_act) })));
    }
    parts.push(h("span", { class: "as" },
      body.seat === null ? t("game.spectating") : t("game.playing_as", { n: body.seat + 1 })));
    replace(this.status, parts);
    this.status.dataset.version = body.version; // what tests (and curious readers) wait on
    document.title = `${body.status === "active" && body.to_act === body.seat ? "● " : ""}${t("app.title")}`;
  }

  drawMoves() {
    const body = this.body;
    const moves = body.legal_moves || [];
    this.movesPanel.hidden = body.status === "finished" || this.replaying !== null;
    if (!moves.length) {
      const text = body.status === "finished" ? t("game.over")
        : body.seat === null ? t("game.spectator_help")
          : t("game.waiting", { seat: seatName(body, body.to_act) });
      replace(this.movesPanel, h("h2", { tabindex: "-1" }, t("game.moves")), this.takebackBar(),
        h("p", { class: "waiting" }, text));
      return;
    }
    // Grouped by type, and by what the renderer says tells them apart (a worker, ...).
    const groups = new Map();
    const listed = this.place ? moves.filter((m) => this.tapPlace(m) === this.place) : moves;
    for (const move of listed) {
      const typeName = tOr(`move.${body.game}.${move.type}`, tOr(`move.${move.type}`, humanize(move.type)));
      const part = this.renderer.moveGroup(move, body);
      const name = part ? `${typeName} · ${part}` : typeName;
      if (!groups.has(name)) groups.set(name, []);
      groups.get(name).push(move);
    }
    const list = h("div", { class: "move-groups" });
    const drawList = () => {
      const needle = this.filter.trim().toLowerCase();
      replace(list, [...groups].map(([name, group]) => {
        const text = (m) => `${moveLabel(m)} ${this.renderer.moveDetail(m, body) || ""}`.toLowerCase();
        const shown = needle ? group.filter((m) => text(m).includes(needle)) : group;
        if (!shown.length) return null;
        return h("div", { class: "move-group" },
          h("h3", {}, name, h("span", { class: "count" }, ` (${shown.length})`)),
          h("div", { class: "move-buttons" }, shown.map((move) =>
            moveButton(move, this.renderer.moveDetail(move, body), this.busy, () => this.pick(move),
              this.placeOf(move), this.confirm ? sameMove(move, this.chosen) : null))));
      }));
      if (!list.childElementCount) list.append(h("p", {}, t("game.no_match")));
    };
    const parts = [h("h2", {}, t("game.your_moves", { count: moves.length })), this.takebackBar()];
    if (this.place) {
      parts.push(h("p", { class: "place-choice" }, t("game.moves_here", { count: listed.length }), " ",
        h("button", { type: "button", id: "all-moves", onclick: () => { this.place = null; this.drawMoves(); } },
          t("game.all_moves"))));
    } else if (moves.length >= FILTER_FROM) {
      const input = h("input", {
        type: "search", id: "move-filter", value: this.filter, placeholder: t("game.filter"),
        "aria-label": t("game.filter"),
        oninput: () => { this.filter = input.value; drawList(); },
      });
      parts.push(input);
    }
    drawList();
    replace(this.movesPanel, parts, list);
  }

  drawLog() {
    const body = this.body;
    this.logKeys.hidden = body.status !== "finished" || this.replaying !== null;
    const takenBack = new Set(this.log.filter((e) => Number.isInteger(e.takeback)).map((e) => e.takeback));
    // A line is drawn once and kept while what it shows stays the same: rebuilding the whole
    // log on every move made each draw slower as the game went on (a Flotilla game's log
    // grows to hundreds of lines, redrawn at each of the page's 600 draws).
    const kept = new Map();
    const lines = [...this.log].reverse().map((entry) => {
      const mark = this.analysis.markOf(entry.index);
      const replayed = entry.version === this.replaying;
      const taken = takenBack.has(entry.index);
      const who = seatName(body, entry.seat); // a seat's name may change (a bot takes it over)
      const key = JSON.stringify([entry.index, entry.version, mark || "", replayed, taken, who]);
      const line = this.logLines.get(key) || this.logLine(body, entry, { mark, replayed, taken, who });
      kept.set(key, line);
      return line;
    });
    this.logLines = kept;
    const shown = [...this.logList.children];
    const added = lines.length - shown.length;
    if (added >= 0 && shown.every((line, i) => line === lines[i + added])) {
      this.logList.prepend(...lines.slice(0, added)); // the newest first: only new lines
    } else {
      replace(this.logList, lines);
    }
  }

  /** One line of the log: who did what, its events, its analysis mark, a replay button. */
  logLine(body, entry, { mark, replayed, taken, who }) {
    // A take-back's own line says it all ("You took back move 3"): no event under it.
    const events = Number.isInteger(entry.takeback) ? [] : entry.events.filter((e) => !this.renderer.skipEvent(e, entry))
      .map((e) => describeEvent(body, e)).filter(Boolean);
    const classes = [replayed ? "replayed" : "", mark ? `marked ${mark}` : "", taken ? "taken-back" : ""];
    return h("li", { value: entry.index + 1, class: classes.filter(Boolean).join(" ") || null },
      mark ? h("span", { class: `badge ${mark}` }, t(`analysis.${mark}`)) : null, mark ? " " : null,
      h("span", { class: "who" }, who), " ",
      h("span", { class: "what" }, entryText(entry)), " ",
      h("button", { type: "button", class: "replay-at", dataset: { version: entry.version },
        "aria-label": t("log.replay_label", { n: entry.index + 1 }),
        onclick: () => this.replay(entry.version) }, t("log.replay")),
      events.length ? h("ul", { class: "events" }, events.map((e) => h("li", {}, e))) : null);
  }

  drawResult() {
    const { result, status } = this.body;
    if (status !== "finished" || !result) {
      this.resultPanel.hidden = true;
      return;
    }
    const seats = result.scores.map((_, seat) => seat);
    const categories = [];
    for (const row of result.breakdown || []) {
      for (const key of Object.keys(row)) if (!categories.includes(key) && key !== "total") categories.push(key);
    }
    const winners = (result.winners || [result.ranking?.[0]]).map((s) => seatName(this.body, s));
    const head = h("tr", {}, h("th", { scope: "col" }, t("result.category")),
      seats.map((s) => h("th", { scope: "col" }, seatName(this.body, s))));
    const rows = categories.map((key) => h("tr", {},
      h("th", { scope: "row" }, tOr(`score.${this.body.game}.${key}`, tOr(`score.${key}`, humanize(key)))),
      seats.map((s) => h("td", {}, scoreText(result.breakdown?.[s]?.[key])))));
    const total = h("tr", { class: "total" }, h("th", { scope: "row" }, t("result.total")),
      seats.map((s) => h("td", {}, result.scores[s])));
    replace(this.resultPanel,
      h("h2", {}, t("result.title")),
      h("p", { class: "winner", id: "winner" }, t(winners.length > 1 ? "result.winners" : "result.winner",
        { names: winners.join(", ") })),
      result.places ? h("p", {}, seats.map((s) => t("result.place", {
        seat: seatName(this.body, s), place: result.places[s] })).join(" · ")) : null,
      tableWrap(t("result.title"), h("table", { class: "scores" },
        h("thead", {}, head), h("tbody", {}, rows, total))));
    this.resultPanel.hidden = false;
  }

  /** What a seat can do besides moving: resign while the game runs (a second tap confirms),
   * a rematch once it is over, and a new game from the lobby. */
  drawActions() {
    const body = this.body;
    const parts = [];
    const human = body.seat !== null && body.seats?.[body.seat]?.kind === "human";
    if (body.status === "active" && human && !body.seats[body.seat].resigned) {
      const resign = h("button", {
        type: "button", class: "danger", id: "resign",
        onclick: () => {
          if (resign.dataset.armed) { this.resign(); return; }
          resign.dataset.armed = "1";
          resign.textContent = t("game.resign_confirm");
        },
      }, t("game.resign"));
      parts.push(resign);
    }
    if (body.status !== "active" && this.token) {
      parts.push(h("button", { type: "button", id: "rematch", onclick: () => this.rematch() },
        t("game.rematch")));
    }
    // The record exists once the game is over and its deal revealed (a tournament's deal still
    // in play holds it back: GET .../record is 409 until then), as one JSON file.
    const recorded = body.status !== "active" && !this.recorded && !(body.deal && !body.deal.revealed);
    if (recorded) {
      parts.push(h("a", {
        href: `/v1/games/${encodeURIComponent(this.id)}/record`, class: "button", id: "download-record",
        download: `${body.game}-${this.id}.json`, type: "application/json",
        "aria-describedby": "download-record-help",
      }, t("game.record_download")));
    }
    parts.push(h("a", { href: withLanguage("/play/"), class: "button", id: "new-game" }, t("game.new_game")));
    const setting = h("input", {
      type: "checkbox", id: "confirm-setting", checked: this.confirm,
      onchange: () => {
        this.confirm = setting.checked;
        storage()?.setItem(CONFIRM_KEY, this.confirm ? "1" : "0");
        this.chosen = null;
        this.drawMoves();
        this.drawChoice();
      },
    });
    replace(this.actions, h("h2", {}, t("game.actions")), h("div", { class: "action-buttons" }, parts),
      recorded ? h("p", { class: "help", id: "download-record-help" }, t("game.record_help")) : null,
      h("p", { class: "setting" }, h("label", {}, setting, " ", t("game.confirm_setting"))));
  }

  async resign() {
    try {
      await api(`/v1/games/${this.id}/resign`, { method: "POST", token: this.token, body: {} });
    } catch (error) {
      this.explain(error);
    }
    await this.refresh().catch((error) => this.explain(error));
  }

  /** The same game again: this seat's new link opens it. If another seat asked first, this
   * seat takes its own token in that rematch (redeemed once with its token here). */
  async rematch() {
    let game;
    try {
      game = await api(`/v1/games/${this.id}/rematch`, { method: "POST", token: this.token });
    } catch (error) {
      const existing = error instanceof ApiError && error.problem.rematch;
      if (!existing) { this.explain(error); return; }
      location.assign(await this.rematchLink(existing));
      return;
    }
    // The answer holds this seat's token only (the other seats redeem theirs).
    const mine = game.seats.find((seat) => seat.seat === this.body.seat && seat.token);
    location.assign(withLanguage(`/play/games/${game.id}`) +
      (mine ? `#token=${encodeURIComponent(mine.token)}` : ""));
  }

  /** This seat's link into the rematch `id` another seat started: its new token, redeemed
   * with this seat's token (once); a spectator's link when it cannot be (redeemed already). */
  async rematchLink(id) {
    const base = withLanguage(`/play/games/${id}`);
    try {
      const got = await api(`/v1/games/${this.id}/rematch/token`,
        { method: "POST", token: this.token });
      return `${base}#token=${encodeURIComponent(got.token)}`;
    } catch {
      return base;
    }
  }

  /** ← → step through the replay, as on an analysis board; in a finished game, ← from its
   * last position starts one. Arrows stay with what handles them itself: a text box, the
   * replay's slider, a select, a widget with arrow keys of its own (a role such as listbox or
   * radiogroup), a box that scrolls sideways (the zoomed map), and any modified press. */
  replayKey(event) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (!this.body || ownsArrows(event.target)) return;
    const pending = this.replayWanted !== undefined ? this.replayWanted : this.replaying;
    const latest = this.body.version;
    let to;
    if (pending === null) {
      if (this.body.status !== "finished" || event.key !== "ArrowLeft" || latest < 1) return;
      to = latest - 1; // the finished game's last position, one step back
    } else if (event.key === "ArrowLeft") {
      if (pending <= 0) return;
      to = pending - 1;
    } else {
      to = pending + 1; // past the last version: the game as it is now
    }
    event.preventDefault();
    this.replay(to);
  }

  /** The page's address says which version the replay shows (`?at=N`; null: none), so that a
   * reload comes back to it. Replaced, not pushed: a step is no page of the history. The
   * fragment (a seat's token) and `?lang=` stay as they are. */
  addressReplay(version) {
    if (this.recorded) return; // a record file's replay has no address of its own
    const url = new URL(location.href);
    if (version === null) url.searchParams.delete("at");
    else url.searchParams.set("at", String(version));
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  }

  /** The address of the replay at `version` that anyone may open: without the fragment (it
   * holds this seat's token), so it shows the game as a spectator saw it; the language kept. */
  replayLink(version) {
    const url = new URL(withLanguage(`/play/games/${this.id}`), location.href);
    url.searchParams.set("at", String(version));
    return url.href;
  }

  /** Whose view a replay shows: "open" (a game over with its deal revealed, or a record
   * file: every hand), "seat" (this seat's own view then) or "spectator" (no token). */
  replaySeen() {
    const body = this.body;
    if (this.recorded || (body.status !== "active" && !(body.deal && !body.deal.revealed))) return "open";
    return this.token ? "seat" : "spectator";
  }

  /** Show the board as it stood at `version` (as this seat saw it then: the server replays
   * it, GET ?at=N), with buttons to step through the game and back to it as it is now. */
  async replay(version) {
    const latest = this.body.version;
    const ticket = ++this.replayTicket;
    if (version === null || version >= latest) {
      this.replayWanted = undefined;
      this.replaying = null;
      this.replayBar.hidden = true;
      this.addressReplay(null);
      replace(this.board, this.renderer.render(this.body));
      this.markBoard();
      this.drawMoves();
      this.drawLog();
      return;
    }
    this.replayWanted = version;
    let past;
    try {
      past = this.recorded ? this.recorded.views[version]
        : await api(`/v1/games/${this.id}?at=${version}`, { token: this.token });
    } catch (error) {
      if (ticket === this.replayTicket) { this.replayWanted = undefined; this.explain(error); }
      return;
    }
    if (ticket !== this.replayTicket) return; // a newer step was asked for meanwhile
    this.replayWanted = undefined;
    this.replaying = version;
    this.chosen = null;
    this.drawChoice();
    replace(this.board, this.renderer.render(past));
    // Previous and next have keys (← →), told by their tooltip, their ARIA and the bar's help.
    const keys = { previous: ["ArrowLeft", "←"], next: ["ArrowRight", "→"] };
    const step = (key, to, disabled) => h("button", { type: "button", class: `replay-${key}`, disabled,
      title: keys[key] ? t("replay.key_tip", { key: keys[key][1] }) : null,
      "aria-keyshortcuts": keys[key]?.[0] || null,
      onclick: () => this.replay(to) }, t(`replay.${key}`));
    // A slider over every version (its end: the game now); read where it is let go.
    const slider = h("input", {
      type: "range", id: "replay-slider", min: "0", max: String(latest), step: "1", value: String(version),
      "aria-label": t("replay.slider"), "aria-valuetext": t("replay.slider_value", { n: version, total: latest }),
      onchange: () => this.replay(Number(slider.value)),
    });
    // A keyboard stepping through keeps its place: the same control in the redrawn bar.
    const focused = this.replayBar.contains(document.activeElement)
      ? (document.activeElement.id || document.activeElement.className) : null;
    // A link to share this step: a new tab, so that this seat's page (and token) stays here.
    const link = this.recorded ? null : h("a", {
      id: "replay-link", class: "replay-link", href: this.replayLink(version),
      target: "_blank", rel: "noopener noreferrer", title: t("replay.link_tip"),
    }, t("replay.link"));
    replace(this.replayBar,
      h("span", { id: "replay-at", dataset: { version, seen: this.replaySeen() } },
        t(`replay.showing_${this.replaySeen()}`, { n: version, total: latest })),
      step("previous", version - 1, version === 0), slider, step("next", version + 1, false),
      step("back", null, false), link,
      h("span", { class: "help replay-keys", id: "replay-keys" }, t("replay.keys")));
    this.replayBar.hidden = false;
    this.addressReplay(version);
    if (focused) {
      const again = [...this.replayBar.querySelectorAll("button, input")]
        .find((el) => (el.id || el.className) === focused && !el.disabled);
      (again || slider).focus();
    }
    this.drawMoves();
    this.drawLog();
  }

  /** In a replay: the analysis's better `move` on the board (its place, when it has one)
   * and in the replay bar. */
  markBetter(move) {
    const where = this.boardPlace(this.placeOf(move));
    if (where) {
      where.classList.add("better-move");
      explainPlace(where, t("analysis.better"), moveLabel(move));
    }
    this.replayBar.append(h("span", { class: "better", id: "better-move" },
      ` ${t("analysis.better")}: ${moveLabel(move)}`));
  }

  /** "Take back" while the game offers it (`takeback`: the log index of this seat's last
   * move, which nobody has answered and which drew and revealed nothing), else nothing. */
  takebackBar() {
    const body = this.body;
    const offered = Number.isInteger(body.takeback) && body.status === "active" && this.replaying === null;
    if (!offered) return null;
    const entry = this.log.find((e) => e.index === body.takeback);
    return h("p", { class: "takeback" },
      h("button", {
        type: "button", id: "takeback", disabled: this.busy, onclick: () => this.takeBack(),
        "aria-describedby": entry ? "takeback-what" : null,
      }, t("game.takeback")),
      entry ? h("span", { id: "takeback-what", class: "help" }, " ", t("game.takeback_what", { move: entryText(entry) })) : null);
  }

  /** Take back this seat's last move (POST .../takeback at this version; a lost answer is
   * retried once with the same Idempotency-Key, so it is never taken back twice). */
  async takeBack() {
    if (this.busy) return;
    this.busy = true;
    this.refocus = true;
    this.chosen = null;
    this.drawChoice();
    this.hideNotice();
    const request = {
      method: "POST", token: this.token, headers: { "Idempotency-Key": newKey() },
      body: { version: this.body.version },
    };
    try {
      try {
        await api(`/v1/games/${this.id}/takeback`, request);
      } catch (error) {
        if (error instanceof ApiError && error.status < 500) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await api(`/v1/games/${this.id}/takeback`, request);
      }
      this.filter = "";
      this.place = null;
    } catch (error) {
      this.explain(error);
    } finally {
      this.busy = false;
    }
    await this.refresh().catch((error) => this.explain(error));
  }

  async play(move) {
    if (this.busy) return;
    this.busy = true;
    this.refocus = this.movesPanel.contains(document.activeElement)
      || this.confirmBar.contains(document.activeElement);
    this.chosen = null;
    this.drawChoice();
    this.hideNotice();
    for (const button of this.movesPanel.querySelectorAll("button.move")) button.disabled = true;
    try {
      await this.post(move);
      this.filter = "";
      this.place = null;
    } catch (error) {
      this.explain(error);
    } finally {
      this.busy = false;
    }
    try {
      await this.refresh();
    } catch (error) {
      this.explain(error);
    }
  }

  /** Post `move`; a lost answer or a server error is retried once with the same
   * Idempotency-Key, so the move is never played twice. */
  async post(move) {
    const request = {
      method: "POST", token: this.token, headers: { "Idempotency-Key": newKey() },
      body: { move: canonical(move), version: this.body.version },
    };
    try {
      return await api(`/v1/games/${this.id}/moves`, request);
    } catch (error) {
      const retryable = !(error instanceof ApiError) || error.status >= 500;
      if (!retryable) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return api(`/v1/games/${this.id}/moves`, request);
    }
  }

  /** A refusal said plainly, with the server's own detail. */
  explain(error) {
    if (!(error instanceof ApiError)) {
      this.showNotice(t("error.network"));
      return;
    }
    const known = {
      "stale-version": "error.stale", "illegal-move": "error.illegal",
      "not-your-turn": "error.not_your_turn", "game-over": "error.game_over",
      unauthorized: "error.unauthorized", "rate-limited": "error.rate_limited",
      "takeback-refused": "error.takeback_refused",
    };
    const key = known[error.slug] || "error.refused";
    this.showNotice(t(key, { detail: error.problem.detail || error.problem.title || error.status }));
  }

  showNotice(text) {
    replace(this.notice, h("span", {}, text),
      h("button", { type: "button", class: "close", "aria-label": t("common.close"),
        onclick: () => this.hideNotice() }, "×"));
    this.notice.hidden = false;
  }

  hideNotice() {
    this.notice.hidden = true;
  }

  /** Follow the game's versions (EventSource resumes with Last-Event-ID by itself). */
  follow(pause = 1000) {
    if (this.body.status === "finished" || this.recorded || typeof EventSource === "undefined") return;
    const stream = new EventSource(`/v1/games/${this.id}/events`);
    this.stream = stream;
    stream.addEventListener("open", () => { this.setConnection(true); pause = 1000; });
    stream.addEventListener("error", () => {
      this.setConnection(false);
      // The browser resumes a dropped stream itself (Last-Event-ID); an answer it refused
      // (429 too many streams, 503) closes it for good: start a new one, slower each time,
      // and read the game meanwhile so nothing is missed.
      if (stream.readyState === EventSource.CLOSED && this.body.status !== "finished") {
        setTimeout(() => {
          if (this.stream !== stream) return;
          this.refresh().catch(() => {}).finally(() => this.follow(Math.min(pause * 2, 30000)));
        }, pause);
      }
    });
    stream.addEventListener("version", async (event) => {
      this.setConnection(true);
      let data;
      try { data = JSON.parse(event.data); } catch { return; }
      if (data.status === "finished") stream.close();
      if (data.version > this.body.version) {
        try {
          await this.refresh();
        } catch (error) {
          this.explain(error);
        }
      }
    });
  }

  setConnection(live) {
    if (this.body?.status === "finished") {
      replace(this.connection);
      return;
    }
    this.connection.className = `connection ${live ? "live" : "lost"}`;
    replace(this.connection, live ? t("game.live") : t("game.reconnecting"));
  }
}

/** Whether arrow keys pressed on `target` belong to it (or a box around it) rather than to
 * the replay: a text box, a slider, a select, an editable text, a widget with its own arrow
 * keys, or a box scrolled sideways by them. */
function ownsArrows(target) {
  if (!(target instanceof Element)) return false;
  if (target.closest("input, textarea, select, [contenteditable]:not([contenteditable=false])")) return true;
  if (target.closest("[role=listbox], [role=menu], [role=menubar], [role=radiogroup], [role=slider], "
    + "[role=tablist], [role=tree], [role=grid], [role=spinbutton], [data-arrows]")) return true;
  for (let el = target; el && el !== document.body; el = el.parentElement) {
    const overflow = getComputedStyle(el).overflowX;
    if ((overflow === "auto" || overflow === "scroll") && el.scrollWidth > el.clientWidth) return true;
  }
  return false;
}

/** A score cell: numbers as they are, yes/no for flags, a dash for nothing. */
function scoreText(value) {
  if (value === null || value === undefined) return "—";
  if (value === true) return t("common.yes");
  if (value === false) return t("common.no");
  return String(value);
}

/** A move's button: its label, and the renderer's words for what it names; `place` is the
 * board place it is played on (a selector in the board), if it has one. */
function moveButton(move, detail, busy, onclick, place = null, pressed = null) {
  const dataset = { type: move.type, move: JSON.stringify(canonical(move)) };
  if (place) dataset.place = place;
  return h("button", {
    type: "button", class: pressed ? "move chosen" : "move", disabled: busy, dataset, onclick,
    "aria-pressed": pressed === null ? null : String(pressed),
  },
    h("span", { class: "move-label" }, moveLabel(move)),
    detail ? h("span", { class: "move-detail" }, detail) : null);
}

/** What a log entry's move was, in words (a secret one by its kind only). */
function entryText(entry) {
  if (Number.isInteger(entry.takeback)) return t("log.takeback", { n: entry.takeback + 1 });
  return entry.move.secret && !entry.move.label
    ? t("log.secret", { type: tOr(`move.${entry.move.type}`, humanize(entry.move.type)) })
    : moveLabel(entry.move);
}

/** The log's entries still standing: a take-back (`takeback`: the index it takes back)
 * removes that move, and is itself no move on the board. */
function standing(log) {
  const out = [];
  for (const entry of log) {
    if (Number.isInteger(entry.takeback)) {
      const at = out.findIndex((e) => e.index === entry.takeback);
      if (at >= 0) out.splice(at, 1);
    } else {
      out.push(entry);
    }
  }
  return out;
}

/** Whether two moves are the same (their canonical fields; the label aside). */
function sameMove(a, b) {
  return Boolean(a && b) && JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** The text of a move's button (the engine's label, else its type). */
function moveLabel(move) {
  return move.label || humanize(move.type);
}

/** Mark a board place with `text` (who moved there) and the move itself: a badge on the
 * page's own elements, a tooltip (SVG: a <title>) for a pointer and a screen reader alike. */
function explainPlace(where, text, move) {
  if (where instanceof SVGElement) {
    const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
    title.textContent = `${text}: ${move}`;
    where.append(title);
    return;
  }
  where.title = where.title ? `${where.title} · ${text}: ${move}` : `${text}: ${move}`;
  const named = where.getAttribute("aria-label");
  if (named) where.setAttribute("aria-label", `${named} · ${text}`);
  // A small drawn thing (a die) keeps its face: the words go in its tooltip and name only.
  if (where.getAttribute("role") !== "img") where.append(h("span", { class: "last-badge" }, text));
}
