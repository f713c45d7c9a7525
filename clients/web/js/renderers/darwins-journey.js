// Darwin's Journey drawn from a seat's view: the main board's diaries with workers and lenses,
// the ocean and island tracks with ships and explorers, the Beagle goals, the correspondence
// tiles, the academy, the museum, the objectives, the special tiles, and each personal board.
// Layout facts come from /play/data/darwins-journey.json (a copy of core's data), texts of
// the cards and tiles from the view's own catalog, every word of the page from the messages.

import { h, tableWrap } from "../dom.js";
import { has, t, tCount, tOr } from "../i18n.js";
import { icon } from "../icons.js";
import { seatName } from "../names.js";
import { boardControls, controlPlace } from "./controls.js";

const G = "darwins-journey";
const COLOURS = ["G", "B", "R", "Y"];
const SPECIMEN_COLOURS = ["green", "blue", "red", "yellow"];
const SPECIMEN_KINDS = ["reptile", "plant", "bird", "fossil"];
const PAGES = ["explore", "navigate", "correspond", "academy", "special_left", "special_right",
  "small", "museum", "turn_order"];
const SCROLL_SIZE = 3;
// Moves with no place of their own, drawn as controls on the board (renderers/controls.js):
// the control's id from the move's fields ("act-2": do the location's third action next).
const CONTROLS = {
  act: (m) => `act-${m.index}`, choose: (m) => `choose-${m.option}`, convert: (m) => `convert-${m.into}`,
  skip: () => "skip", done: () => "done", end_turn: () => "end_turn", pass: () => "pass",
};
// Each kind of data action drawn as one of the project's icons (icons.js), its number beside it.
const ACTION_ICONS = {
  coins: "coin", vp: "point", tk: "knowledge-temporary", evo: "evolution", objective: "objective",
  free_seal: "seal", correspond: "stamp", explore: "explore", navigate: "ship", academy: "academy",
  unlock: "lens", deliver: "museum", research_museum: "research", turn_order: "turn-order",
  campsite: "tent",
};
// A personal board's counts, each drawn with its icon beside its name.
const STAT_ICONS = {
  "dj.coins": "coin", "dj.vp": "point", "dj.tk": "knowledge-temporary", "dj.evo": "evolution",
  "dj.lenses": "lens", "dj.tents": "tent", "dj.stamps": "stamp", "dj.tray": "envelope",
};
let board = null;
// A worker's placement being built on the board (issue 30: a worker, then a location): the
// worker tapped, its legal placements, the one previewed (waiting for the page's
// confirmation), the view's version it was built on (a redraw of that version keeps it) and
// the page's hands that choose the move.
let placing = null;
// How to take the marks of the placement being built off the board again (one undo each).
let placingMarks = [];
// The tracks on a narrow screen: zoomed in (one row of spaces big enough to tap, scrolling
// sideways in its box) or every space at the box's width. Kept across redraws.
let wholeTracks = false;

/** Load the board layout once. */
export async function prepare() {
  if (!board) board = await (await fetch("/play/data/darwins-journey.json")).json();
}

/** The whole table as `body.seat` sees it. */
export function render(body) {
  const v = body.view;
  const ctx = { body, v, catalog: v.catalog || {} };
  if (placing && placing.version !== body.version) placing = null;
  placingMarks = [];
  const drawn = h("div", { class: "dj" },
    overview(ctx),
    boardControls(body, (m) => CONTROLS[m.type]?.(m) ?? null),
    hiddenCards(ctx),
    h("div", { class: "dj-grid" },
      mainBoard(ctx),
      h("div", { class: "dj-column" }, beagle(ctx), correspondence(ctx), academy(ctx), museum(ctx))),
    tracks(ctx),
    objectives(ctx),
    players(ctx),
    alfred(ctx));
  drawPlacing(drawn); // a redraw of the same version keeps the placement being built
  return drawn;
}

// ------------------------------------------------------------------ small pieces

/** A seat's coloured marker: its number, its name for a screen reader or a mouse hover. */
function seatToken(ctx, seat) {
  const name = seatName(ctx.body, seat);
  return h("span", { class: `token p${seat}`, title: name, role: "img", "aria-label": name },
    String(seat + 1));
}

/** A wax seal of `colour` drawn as the project's icon and named; `empty`: a space for one. */
function seal(colour, empty = false) {
  const name = t(`dj.colour.${colour}`);
  if (!empty) return icon("seal", { variant: colour, label: name });
  return h("span", { class: `seal seal-${colour} empty`, role: "img", "aria-label": name, title: name });
}

function seals(needs) {
  const out = [];
  for (const [colour, n] of Object.entries(needs || {})) for (let i = 0; i < n; i++) out.push(seal(colour));
  return out;
}

function specimenName(k) {
  return t("dj.specimen", {
    colour: t(`dj.specimen.colour.${SPECIMEN_COLOURS[Math.floor(k / 4)]}`),
    kind: t(`dj.specimen.kind.${SPECIMEN_KINDS[k % 4]}`),
  });
}

/** One data action as words ("Explore 2", "3 coins"). */
function actionText(action) {
  if (action.a === "choice") return action.of.map((list) => list.map(actionText).join(" + ")).join(t("dj.or"));
  if (action.a === "academy" && action.discount) return tCount("dj.action.academy_discount", action.discount, { d: action.discount });
  if (action.a === "campsite") return t("dj.action.campsite", { id: action.area });
  const key = `dj.action.${action.a}`;
  return has(key) ? tCount(key, action.n, action) : action.a.replace(/_/g, " ");
}

/** One data action drawn as icons with numbers ("2 [point]"), named by its words. */
function actionIcons(action) {
  return h("span", { class: "gain", role: "img", "aria-label": actionText(action) }, actionPicture(action));
}

/** What an action looks like, without words: its number, then its icon; a choice's options
 * side by side, "/" between them. */
function actionPicture(action) {
  if (action.a === "choice") {
    return action.of.map((list, i) => [i ? h("span", { class: "gain-or" }, "/") : null, list.map(actionPicture)]);
  }
  if (CARD_PICTURES[action.a]) return CARD_PICTURES[action.a](action);
  const name = ACTION_ICONS[action.a];
  if (!name) return h("span", { class: "gain-words" }, actionText(action)); // no icon drawn for it yet
  const picture = [Number.isInteger(action.n) ? String(action.n) : null,
    icon(name, { variant: action.a === "free_seal" ? "any" : null })];
  if (action.a === "academy" && action.discount) picture.push(h("span", { class: "gain-less" }, `−${action.discount}`), icon("coin"));
  if (action.a === "campsite") picture.push(String(action.area));
  if (action.a === "unlock" && action.free) picture.push(h("span", { class: "gain-less" }, "0"), icon("coin"));
  if (action.a === "correspond" && action.split) picture.push(h("span", { class: "gain-or" }, "→"), icon("envelope"), ANY);
  return picture;
}

// "Any one you choose" beside an icon (any open campsite, any specimen, any crew card).
const ANY = "∗";
const then = () => h("span", { class: "gain-or" }, "→");
// The actions only cards and special tiles give, drawn from the project's icons: each
// picture's words are the card's own sentence (its accessible name and tooltip).
const CARD_PICTURES = {
  place_explorer: () => ["+", icon("explore"), icon("island")],
  move_to_beagle: () => [icon("ship"), then(), icon("beagle")],
  locked: () => [icon("padlock"), icon("worker")],
  campsite_any: () => [icon("tent"), ANY],
  purple: () => [icon("seal", { variant: "P" }), "0", icon("coin")],
  research_any: () => [icon("research"), ANY],
  auto_fulfil: () => [icon("objective"), "✓"],
  copy_crew: () => [icon("crew-card"), ANY],
  repeat_delivery: () => [icon("museum"), "↻"],
  tk_convert: (a) => ["1", icon("knowledge-temporary"), then(), String(a.n), icon("coin"),
    h("span", { class: "gain-or" }, "/"), String(a.n), icon("point")],
};

/** A list of actions (a card's, a tile's) drawn as icons with numbers, no words: "→"
 * between them when `seq` says they are done in their order. */
function actionsPicture(actions, seq = false) {
  return (actions || []).map((action, i) => [i && seq ? then() : null,
    h("span", { class: "gain" }, actionPicture(action))]);
}

/** Words drawn as a picture (icons and numbers): an image named by `words`, which are its
 * tooltip too, so a screen reader and tap-to-explain (explain.js) still have the sentence. */
function picture(kind, words, ...children) {
  return h("span", { class: `dj-pic ${kind}`, role: "img", "aria-label": words, title: words }, ...children);
}

/** What a requirement (an objective's) or a Beagle goal counts, as an icon: the catalog's
 * `kind` and `what` (a seal's colour, a specimen's kind or colour). */
function requirementIcon(kind, what) {
  switch (kind) {
    case "seals": return icon("seal", { variant: what });
    case "specimen_kind": return icon(what, { variant: "any" });
    case "specimen_colour": return icon("specimen", { variant: what });
    case "empty_stacks": return icon("empty-stack");
    case "lenses": return icon("lens");
    case "evo": return icon("evolution");
    case "tents": return icon("tent");
    case "objectives": return [icon("objective"), "✓"];
    case "ship_beagle": return [icon("ship"), then(), icon("beagle")];
    default: return null;
  }
}

// Sections fold (a phone's screen is short); the browser keeps them keyboard-usable.
const folded = new Set();

function section(title, ...children) {
  const details = h("details", { class: "panel dj-section", open: !folded.has(title) },
    h("summary", {}, h("h2", {}, title)), ...children);
  details.addEventListener("toggle", () => {
    if (details.open) folded.delete(title);
    else folded.add(title);
  });
  return details;
}

function seatList(ctx, seats) {
  return seats.map((s) => seatToken(ctx, s));
}

// ------------------------------------------------------------------ sections

function overview(ctx) {
  const { v } = ctx;
  const order = (v.order || []).map((s) => h("span", { class: "legend-item" }, seatToken(ctx, s), " ", seatName(ctx.body, s)));
  return h("section", { class: "panel dj-overview" },
    h("p", {}, h("strong", {}, t("dj.round", { round: v.round })), " · ",
      tOr(`dj.phase.${v.phase}`, v.phase)),
    h("p", { class: "dj-legend" }, h("span", { class: "label" }, t("dj.turn_order")), order));
}

function hiddenCards(ctx) {
  const { v } = ctx;
  if (v.seat === null || v.seat === undefined) return null;
  const crew = new Map((ctx.catalog.crew || []).map((c) => [c.card, c]));
  const hand = v.hand || [];
  const kept = v.kept || [];
  const choosing = ["draft", "start_objectives"].includes(v.phase);
  if (!hand.length && !kept.length && !(choosing && (v.start_pairs || []).length)) return null;
  const card = (id) => {
    const c = crew.get(id);
    return h("li", { class: "card-slot" }, h("div", { class: "crew-card", dataset: { card: id } },
      h("strong", {}, t("dj.crew_card", { n: id })), " ",
      c ? [seal(c.seal), " ", crewPicture(c), h("span", { class: "needs" }, " ", t("dj.needs"), " ", seals(c.needs))] : null));
  };
  const pairs = (choosing ? v.start_pairs || [] : []).map((pair, i) => h("li", {},
    h("span", { dataset: { pair: pair.join("-") } },
      t("dj.start_pair", { n: i + 1 }), ": ",
      pair.map((tile, k) => [k ? h("span", { class: "gain-or" }, " + ") : null, objectivePicture(ctx, tile)]))));
  return section(t("dj.your_cards"),
    hand.length ? [h("h3", {}, t("dj.hand")), h("ul", { class: "cards", id: "hand" }, hand.map(card))] : null,
    kept.length ? [h("h3", {}, t("dj.kept")), h("ul", { class: "cards", id: "kept" }, kept.map(card))] : null,
    pairs.length ? [h("h3", {}, t("dj.start_pairs")), h("ul", { class: "cards" }, pairs)] : null);
}

function locationName(loc) {
  const numbered = ["explore", "navigate", "correspond", "academy"].includes(loc.page);
  if (numbered) return t("dj.location", { page: t(`dj.short.${loc.page}`), n: loc.strength });
  if (loc.page.startsWith("special")) return t("dj.special_location", { n: loc.strength });
  return tOr(`dj.page.${loc.page}`, loc.page);
}

/** Placements grouped by worker (a turn offers up to 40 of them). */
export function moveGroup(move) {
  return move.type === "place" && Number.isInteger(move.worker)
    ? t("dj.group.worker", { n: move.worker + 1 }) : null;
}

/** More words for a move's button where its label names a thing by number. */
export function moveDetail(move, body) {
  const catalog = body.view?.catalog || {};
  if (move.type === "draft") return catalog.crew?.find((c) => c.card === move.card)?.text || null;
  if (move.type === "pair") {
    const ctx = { catalog };
    return [move.silver, move.gold].map((tile) => objectiveText(ctx, tile)).join(" / ");
  }
  if (["objective", "fulfil_objective", "auto_fulfil"].includes(move.type)) {
    return objectiveText({ catalog }, move.tile);
  }
  if (move.type === "place" || move.type === "unlock") {
    const loc = board?.locations.find((l) => l.id === move.location);
    if (!loc) return null;
    if (loc.id.startsWith("special.")) {
      const tile = catalog.special?.find((x) => x.position === Number(loc.id.split(".")[1]));
      return `${locationName(loc)}: ${tile?.text ?? ""}`;
    }
    return `${locationName(loc)}: ${loc.actions.map(actionText).join(", ")}`;
  }
  return null;
}

function mainBoard(ctx) {
  const special = new Map((ctx.catalog.special || []).map((s) => [s.position, s]));
  const byPage = new Map(PAGES.map((p) => [p, []]));
  for (const loc of board.locations) byPage.get(loc.page)?.push(loc);
  const pages = [...byPage].filter(([, locs]) => locs.length).map(([page, locs]) =>
    h("div", { class: "dj-page" }, h("h3", {}, tOr(`dj.page.${page}`, page)),
      h("ul", { class: "locations" }, locs.map((loc) => location(ctx, loc, special)))));
  return section(t("dj.main_board"), workerTray(ctx), pages);
}

/** This seat's workers at home, drawn above the locations (each with its wax seals): a
 * placement starts with a tap on one of them. */
function workerTray(ctx) {
  const { v } = ctx;
  const s = v.seat;
  if (s === null || s === undefined || v.automa_seats?.[String(s)] || !v.home?.[s]) return null;
  const pieces = v.home[s].map((w) => {
    const row = v.seals?.[s]?.[w] || [];
    return h("li", {}, h("span", { class: `dj-worker p${s}`, dataset: { homeWorker: w } },
      h("strong", {}, t("dj.worker_n", { n: w + 1 })),
      row.length ? h("span", { class: "dj-worker-seals" }, row.map((c) => seal(c)))
        : h("span", { class: "help" }, t("dj.no_seals"))));
  });
  return h("div", { class: "dj-tray", id: "dj-tray" },
    h("h3", {}, t("dj.home_workers")),
    pieces.length ? h("ul", { class: "dj-workers" }, pieces) : h("p", { class: "help" }, t("dj.none")));
}

/** A location of the main board: its name, the wax seals it needs, whether its lens is
 * unlocked, what it gives drawn as icons with numbers (a special tile's own words), and the
 * workers on it; the same in words as its accessible name and tooltip. */
function location(ctx, loc, special) {
  const { v } = ctx;
  const owner = v.loc_owner?.[loc.id];
  const workers = v.loc_workers?.[loc.id] || [];
  let actions = loc.actions.map(actionIcons);
  let words = loc.actions.map(actionText).join(", ");
  let needs = loc.seals;
  if (loc.id.startsWith("special.")) {
    const tile = special.get(Number(loc.id.split(".")[1]));
    if (!tile) return null; // no tile on this space (solo games leave two empty)
    actions = tile.actions ? picture("special-pic", tile.text, actionsPicture(tile.actions, tile.seq)) : tile.text;
    words = tile.text;
    needs = tile.seals;
  }
  let state;
  if (owner === -1) {
    const locked = tCount("dj.locked", loc.unlock ?? 4, { coins: loc.unlock ?? 4 });
    state = h("span", { class: "locked", role: "img", "aria-label": locked, title: locked },
      icon("padlock"), String(loc.unlock ?? 4), icon("coin"));
  } else if (owner >= 0) {
    state = h("span", { class: "unlocked" }, t("dj.unlocked_by"), " ", seatToken(ctx, owner));
  }
  const here = workers.length
    ? h("span", { class: "workers" }, t("dj.workers"), " ", seatList(ctx, workers))
    : h("span", { class: "empty" }, t("dj.free"));
  const named = locationWords(ctx, loc, words, needs, owner, workers);
  return h("li", {
    class: `location${owner === -1 ? " is-locked" : ""}`, dataset: { location: loc.id },
    title: named, "aria-label": named,
  },
  h("div", { class: "loc-head" }, h("strong", {}, locationName(loc)), " ", seals(needs), " ", state),
  h("div", { class: "loc-actions" }, actions),
  h("div", { class: "loc-here" }, here));
}

/** A location in words: its name, what it gives, the seals it needs, its lens, who is on it
 * ("Explore 1: Explore 2; needs 1 × green seal; free"). */
function locationWords(ctx, loc, words, needs, owner, workers) {
  const parts = [words];
  const sealWords = Object.entries(needs || {}).filter(([, n]) => n > 0)
    .map(([colour, n]) => `${n} × ${t(`dj.colour.${colour}`)}`);
  if (sealWords.length) parts.push(`${t("dj.needs")} ${sealWords.join(", ")}`);
  if (owner === -1) parts.push(tCount("dj.locked", loc.unlock ?? 4, { coins: loc.unlock ?? 4 }));
  else if (owner >= 0) parts.push(`${t("dj.unlocked_by")} ${seatName(ctx.body, owner)}`);
  const names = workers.map((s) => seatName(ctx.body, s));
  parts.push(names.length ? `${t("dj.workers")} ${names.join(", ")}` : t("dj.free"));
  return `${locationName(loc)}: ${parts.join("; ")}`;
}

function beagle(ctx) {
  const { v } = ctx;
  const goals = ctx.catalog.beagle_goals || [];
  return section(t("dj.beagle_goals"),
    h("ol", { class: "goals" }, goals.map((goal, i) => h("li", {
      class: i === v.beagle ? "current" : i < v.beagle ? "done" : null,
    }, i === v.beagle ? h("strong", {}, t("dj.beagle_here"), " ") : null, goalPicture(goal),
    h("span", { class: "help" }, " ", t("dj.beagle_space", { space: board.beagle_spaces[i] }))))));
}

/** A Beagle goal as its tile shows it: its points for each thing it counts ("4 [point] /
 * [yellow seal]"), its sentence as its name and tooltip. */
function goalPicture(goal) {
  return picture("goal-pic", goal.text, h("span", { class: "gain" }, String(goal.vp), icon("point")),
    h("span", { class: "gain-or" }, "/"), h("span", { class: "gain" }, requirementIcon(goal.kind, goal.what)));
}

function correspondence(ctx) {
  const { v } = ctx;
  const tiles = ctx.catalog.correspondence || [];
  return section(t("dj.correspondence"),
    h("ol", { class: "envelopes" }, tiles.map((tile, i) => h("li", {},
      h("div", { class: "envelope", dataset: { envelope: i } }, correspondencePicture(tile)),
      h("div", { class: "stamps" }, t("dj.stamps_on"), " ",
        (v.envelopes?.[i] || []).map((n, s) => n ? h("span", { class: "legend-item" }, seatToken(ctx, s), "×", n) : null),
        (v.envelopes?.[i] || []).every((n) => !n) ? t("dj.none") : null)))));
}

/** A correspondence tile as icons: what the first and the second place in its envelope get,
 * each after its rank; its sentence as its name and tooltip. */
function correspondencePicture(tile) {
  return picture("corr-pic", tile.text,
    h("span", { class: "corr-rank" }, "1"), actionsPicture(tile.first),
    h("span", { class: "corr-rank second" }, "2"), actionsPicture(tile.second));
}

/** A crew card's effect as icons, its sentence (the catalog's) as its name and tooltip. */
function crewPicture(card) {
  return picture("crew-pic", card.text, actionsPicture(card.actions, card.seq));
}

function academy(ctx) {
  const { v } = ctx;
  const scrolls = [];
  for (let i = 0; i * SCROLL_SIZE < (v.academy || []).length; i++) {
    // Each seal space of a scroll is the place of taking its seal (scroll, position).
    scrolls.push(h("li", {}, t("dj.scroll", { n: i + 1 }), " ",
      v.academy.slice(i * SCROLL_SIZE, (i + 1) * SCROLL_SIZE).map((c, p) => h("span", {
        class: "seal-space", dataset: { seal: `${i}-${p}` } }, c ? seal(c) : seal("G", true)))));
  }
  return section(t("dj.academy"),
    h("ul", { class: "scrolls" }, scrolls),
    h("p", { class: "help" }, tCount("dj.purple_left", v.purple, { n: v.purple }), " · ",
      t("dj.seal_bag"), " ", COLOURS.map((c) => [seal(c), `×${v.seal_bag?.[c] ?? 0} `])));
}

function museum(ctx) {
  const { v } = ctx;
  const delivered = v.museum || 0;
  const head = h("tr", {}, h("td", {}), SPECIMEN_KINDS.map((k) => h("th", { scope: "col" },
    icon(k), t(`dj.specimen.kind.${k}`))));
  const rows = SPECIMEN_COLOURS.map((colour, row) => h("tr", {},
    h("th", { scope: "row" }, t(`dj.specimen.colour.${colour}`)),
    SPECIMEN_KINDS.map((_, col) => {
      const k = row * 4 + col;
      // The specimen's cell is the place of researching or delivering it.
      return h("td", { class: delivered >> k & 1 ? "delivered" : null },
        h("span", { class: "specimen-cell", dataset: { specimen: k }, title: specimenName(k) },
          delivered >> k & 1 ? "✓" : "·", h("span", { class: "sr-only" }, specimenName(k))));
    })));
  return section(t("dj.museum"), h("p", { class: "help" }, t("dj.museum_help")),
    tableWrap(t("dj.museum"), h("table", { class: "museum" }, h("thead", {}, head), h("tbody", {}, rows))));
}

/** A space of the ocean or an island track (`place`: its name, "Ocean space 3"): what it
 * gives drawn as icons with numbers, its specimen, campsite, ribbon and the pieces on it
 * (`seats`); the same in words as its accessible name and tooltip. */
function spaceCell(ctx, place, space, seats, extra) {
  const { v } = ctx;
  const specimen = v.specimens?.[space.id];
  const camp = v.campsites?.[space.id];
  const actions = space.actions.filter((a) => a.a !== "campsite");
  const mine = seats.includes(v.seat);
  const words = spaceWords(ctx, place, space, seats, Boolean(extra));
  return h("li", {
    class: `space${seats.length ? " occupied" : ""}${mine ? " mine" : ""}`, dataset: { space: space.id },
    title: words, "aria-label": words,
  },
  h("span", { class: "space-id" }, space.id.replace(/^(O|I[ABC])/, "")),
  extra,
  specimen !== undefined ? h("span", { class: "chip specimen" }, specimenIcon(specimen)) : null,
  camp ? h("span", { class: "chip camp" }, icon("tent", { label: t("dj.campsite") }),
    camp.map((owner) => (owner >= 0 ? seatToken(ctx, owner) : h("span", { "aria-hidden": "true" }, "○")))) : null,
  space.ribbon ? h("span", { class: "chip ribbon" }, icon("ribbon", { label: t("dj.ribbon") })) : null,
  space.band ? h("span", { class: "chip band", role: "img", "aria-label": t("dj.band", { island: space.band }) },
    icon("island"), space.band) : null,
  actions.length ? h("span", { class: "space-actions" }, actions.map(actionIcons)) : null,
  seats.length ? h("span", { class: "here" }, seatList(ctx, seats)) : null);
}

/** A specimen drawn as its kind in its colour, named ("green reptile"). */
function specimenIcon(k) {
  return icon(SPECIMEN_KINDS[k % 4], { variant: SPECIMEN_COLOURS[Math.floor(k / 4)], label: specimenName(k) });
}

/** A track space in words: its name, then what it gives and holds ("Ocean space 3: 2 points,
 * 1 temporary knowledge; green reptile; here: You"). */
function spaceWords(ctx, place, space, seats, beagle) {
  const { v } = ctx;
  const parts = [];
  const actions = space.actions.filter((a) => a.a !== "campsite").map(actionText);
  if (actions.length) parts.push(actions.join(", "));
  const specimen = v.specimens?.[space.id];
  if (specimen !== undefined) parts.push(specimenName(specimen));
  const camp = v.campsites?.[space.id];
  if (camp) {
    const owners = camp.filter((owner) => owner >= 0).map((owner) => seatName(ctx.body, owner));
    parts.push(owners.length ? `${t("dj.campsite")} (${owners.join(", ")})` : t("dj.campsite"));
  }
  if (space.ribbon) parts.push(t("dj.ribbon"));
  if (space.band) parts.push(t("dj.band", { island: space.band }));
  if (beagle) parts.push("HMS Beagle");
  if (seats.length) parts.push(t("dj.here", { who: seats.map((s) => seatName(ctx.body, s)).join(", ") }));
  return parts.length ? `${place}: ${parts.join("; ")}` : place;
}

function tracks(ctx) {
  const { v } = ctx;
  const n = v.seat_count;
  const beagleSpace = board.beagle_spaces[v.beagle];
  const number = (space) => space.id.replace(/^(O|I[ABC])/, "");
  const ocean = board.ocean.map((space, i) => {
    const ships = [];
    for (let s = 0; s < n; s++) if (v.ship?.[s] === i) ships.push(s);
    const extra = i === beagleSpace
      ? h("span", { class: "chip beagle", dataset: { beagle: "" }, role: "img", "aria-label": "HMS Beagle",
        title: "HMS Beagle" }, icon("ship")) : null;
    return spaceCell(ctx, t("dj.ocean_space", { n: number(space) }), space, ships, extra);
  });
  const islands = Object.entries(board.islands).map(([name, spaces], island) => h("div", { class: "island" },
    h("h3", {}, h("span", { dataset: { island: name } }, t("dj.island", { island: name }))),
    trackWrap(t("dj.island", { island: name }), h("ol", { class: "track" }, spaces.map((space, i) => {
      const explorers = [];
      for (let s = 0; s < n; s++) if (v.explorers?.[s]?.[island] === i) explorers.push(s);
      return spaceCell(ctx, t("dj.island_space", { island: name, n: number(space) }), space, explorers, null);
    })))));
  const zoom = h("button", {
    type: "button", class: "dj-zoom", id: "dj-zoom",
    onclick: () => {
      wholeTracks = !wholeTracks;
      zoom.closest(".dj-tracks")?.classList.toggle("zoomed", !wholeTracks);
      zoom.textContent = t(wholeTracks ? "dj.tracks_zoom_in" : "dj.tracks_whole");
      for (const wrap of document.querySelectorAll("#board .dj-track-wrap")) focusTrack(wrap);
    },
  }, t(wholeTracks ? "dj.tracks_zoom_in" : "dj.tracks_whole"));
  const drawn = section(t("dj.tracks"), zoom,
    h("h3", {}, t("dj.ocean")), trackWrap(t("dj.ocean"), h("ol", { class: "track ocean" }, ocean)), islands);
  drawn.classList.add("dj-tracks");
  if (!wholeTracks) drawn.classList.add("zoomed");
  // Once drawn and marked (the page marks the choosable spaces after this draw): in view.
  requestAnimationFrame(() => {
    for (const wrap of drawn.querySelectorAll(".dj-track-wrap")) focusTrack(wrap);
  });
  return drawn;
}

/** A track in a box of its own: on a phone's screen (CSS), zoomed to one row of spaces a
 * finger can tap, scrolling sideways inside the box (the page itself never does). */
function trackWrap(name, track) {
  return h("div", { class: "dj-track-wrap scroll-x", dataset: { track: name } }, track);
}

/** A zoomed track scrolled sideways to what matters: the spaces this seat may choose, else the
 * newest move, else this seat's own piece (its ship, its explorer), else its start. A track
 * wider than its box can be scrolled by keyboard too (focusable, named); one that fits is no
 * tab stop. */
function focusTrack(wrap) {
  if (!wrap.isConnected) return;
  if (wrap.scrollWidth <= wrap.clientWidth + 1) {
    for (const name of ["tabindex", "role", "aria-label"]) wrap.removeAttribute(name);
    return;
  }
  wrap.setAttribute("tabindex", "0");
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", t("dj.track_scrolls", { track: wrap.dataset.track }));
  let places = [...wrap.querySelectorAll(".space.chosen, .space.choosable")];
  if (!places.length) places = [...wrap.querySelectorAll(".space.last-move.newest")];
  if (!places.length) places = [...wrap.querySelectorAll(".space.mine")];
  if (!places.length) { wrap.scrollLeft = 0; return; }
  const box = wrap.getBoundingClientRect();
  const rects = places.map((el) => el.getBoundingClientRect());
  const left = Math.min(...rects.map((r) => r.left));
  const right = Math.max(...rects.map((r) => r.right));
  const centre = wrap.scrollLeft + (left + right) / 2 - box.left;
  wrap.scrollLeft = Math.max(0, centre - wrap.clientWidth / 2);
}

function objectiveText(ctx, tile) {
  const o = (ctx.catalog.objectives || []).find((x) => x.tile === tile);
  const kind = o?.gold ? t("dj.gold") : t("dj.silver");
  return `${t("dj.objective", { n: tile, kind })}: ${o ? o.needs.join(t("dj.and")) : "?"}`;
}

/** An objective tile as icons: silver or gold, then each requirement's number and icon
 * ("2 [blue seal] + 1 [red specimen]"); its words (objectiveText) as its name and tooltip. */
function objectivePicture(ctx, tile) {
  const o = (ctx.catalog.objectives || []).find((x) => x.tile === tile);
  const needs = (o?.requires || []).map((r, i) => [i ? h("span", { class: "gain-or" }, "+") : null,
    h("span", { class: "gain" }, r.kind === "ship_beagle" ? null : String(r.n), requirementIcon(r.kind, r.what))]);
  return picture(`obj-pic ${o?.gold ? "gold" : "silver"}`, objectiveText(ctx, tile), icon("objective"), needs);
}

function objectives(ctx) {
  const { v } = ctx;
  const [silver, gold] = v.obj_display || [[], []];
  return section(t("dj.objectives"),
    h("ul", { class: "cards" }, [...silver, ...gold].map((tile) => h("li", {},
      h("span", { dataset: { objective: tile } }, objectivePicture(ctx, tile))))),
    h("p", { class: "help" }, t("dj.objective_piles", { silver: v.obj_decks?.[0] ?? 0, gold: v.obj_decks?.[1] ?? 0 })));
}

function players(ctx) {
  const { v } = ctx;
  const order = Array.from({ length: v.seat_count }, (_, s) => s);
  if (v.seat !== null && v.seat !== undefined) order.sort((a, b) => (a === v.seat ? -1 : b === v.seat ? 1 : a - b));
  return h("div", { class: "dj-players" }, order.map((s) => personalBoard(ctx, s)));
}

function personalBoard(ctx, s) {
  const { v, body } = ctx;
  if (v.automa_seats?.[String(s)]) return null; // Alfred has his own panel
  const crew = new Map((ctx.catalog.crew || []).map((c) => [c.card, c]));
  const researched = SPECIMEN_COLOURS.flatMap((_, row) => SPECIMEN_KINDS.map((__, col) => row * 4 + col))
    .filter((k) => (v.research?.[s] || 0) >> k & 1).map(specimenName);
  const rows = (v.seals?.[s] || []).map((row, w) => {
    if (w === 4 && !v.worker5?.[s]) return null;
    const home = (v.home?.[s] || []).includes(w);
    const cards = (v.crew?.[s] || []).filter(([, r]) => r === w).map(([card]) => t("dj.crew_card", { n: card }));
    return h("li", {}, h("strong", { dataset: s === v.seat ? { worker: w } : {} }, t("dj.worker", { n: w + 1 })), " ",
      row.length ? row.map((c) => seal(c)) : h("span", { class: "help" }, t("dj.no_seals")), " ",
      h("span", { class: "help" }, home ? t("dj.at_home") : t("dj.on_board")),
      cards.length ? h("span", { class: "help" }, " · ", cards.join(", ")) : null);
  });
  const slots = (v.obj_slots?.[s] || []).map((x, i) => {
    const name = i < 5 ? t("dj.silver_slot", { n: i + 1 }) : t("dj.gold_slot", { n: i - 4 });
    if (!x) return null;
    return h("li", {}, h("span", { dataset: { objective: Math.abs(x) } }, name, " ", objectivePicture(ctx, Math.abs(x))), " ",
      h("em", {}, x < 0 ? t("dj.fulfilled") : t("dj.not_fulfilled")));
  }).filter(Boolean);
  const reserve = (v.reserve?.[s] || []).map((tile) => h("li", {},
    h("span", { dataset: { objective: tile } }, t("dj.reserve"), " ", objectivePicture(ctx, tile))));
  const crewCards = (v.crew?.[s] || []).map(([card, row]) => {
    const c = crew.get(card);
    return h("li", {}, h("strong", { dataset: { crew: card } }, t("dj.crew_card", { n: card })), " ",
      c ? [seal(c.seal), " ", crewPicture(c), " ", h("span", { class: "help" }, t("dj.needs"), " ", seals(c.needs))] : null,
      " ", h("em", {}, row >= 0 ? t("dj.crew_done", { n: row + 1 }) : ""));
  });
  return h("section", { class: `panel dj-player${s === v.seat ? " mine" : ""}`, dataset: { seat: s } },
    h("h2", {}, seatToken(ctx, s), " ", seatName(body, s)),
    h("ul", { class: "stats" },
      statItem("dj.coins", v.coins?.[s]), statItem("dj.vp", v.vp?.[s]), statItem("dj.tk", v.tk?.[s]),
      statItem("dj.evo", v.evo?.[s]), statItem("dj.lenses", v.lenses?.[s]), statItem("dj.tents", v.tents?.[s]),
      statItem("dj.stamps", (v.stamps?.[s] || []).join(" / ")), statItem("dj.tray", v.tray?.[s])),
    h("h3", {}, t("dj.workers_title")), h("ul", { class: "rows" }, rows),
    crewCards.length ? [h("h3", {}, t("dj.crew")), h("ul", { class: "cards" }, crewCards)] : null,
    h("h3", {}, t("dj.researched")), h("p", {}, researched.length ? researched.join(", ") : t("dj.none")),
    slots.length || reserve.length ? [h("h3", {}, t("dj.objectives_taken")), h("ul", { class: "cards" }, slots, reserve)] : null);
}

/** One count of a personal board: its icon (if it has one), its name, its value. */
function statItem(key, value) {
  return h("li", {}, STAT_ICONS[key] ? [icon(STAT_ICONS[key]), " "] : null,
    h("span", { class: "label" }, t(key)), " ", h("strong", {}, value ?? "—"));
}

function alfred(ctx) {
  const { v } = ctx;
  if (!v.alfred) return null;
  const seat = Number(Object.keys(v.automa_seats || {})[0] ?? 1);
  const a = v.alfred;
  return h("section", { class: "panel dj-player alfred", dataset: { seat } },
    h("h2", {}, seatToken(ctx, seat), " ", t("bot.alfred"), " ",
      h("span", { class: "help" }, t("dj.alfred_board", { colour: tOr(`option.${G}.alfred.${a.board}`, a.board) }))),
    h("ul", { class: "stats" },
      statItem("dj.coins", v.coins?.[seat]), statItem("dj.vp", v.vp?.[seat]), statItem("dj.evo", v.evo?.[seat]),
      statItem("dj.alfred_bonus", a.bonus), statItem("dj.alfred_deck", a.deck_size),
      statItem("dj.alfred_beagle", a.beagle_value)));
}

/** Where a move is played on the board, from the move's own fields: the location a worker
 * (the player's or Alfred's) goes to or unlocks, the ocean or island space a ship or an
 * explorer moves to, the campsite a tent goes on or is re-activated on, the crew card kept,
 * the starting pair, the specimen's museum cell, the academy's seal space, the envelope, the
 * island, the Beagle, the worker a purple seal goes on, the objective, the crew card fulfilled
 * or copied; a board control for the rest (an action of the location, a choice, "Skip"...). */
export function placeOf(move) {
  const location = (id) => (typeof id === "string" ? `[data-location="${id}"]` : null);
  const space = (id) => (typeof id === "string" ? `[data-space="${id}"]` : null);
  const int = (n) => Number.isInteger(n);
  switch (move?.type) {
    case "place": case "unlock": case "locked": return location(move.location);
    case "alfred": return location(move.kind === "small_diary" ? move.unlock : move.location);
    case "navigate": case "explore": return space(move.space);
    case "tent": case "reactivate": return space(move.campsite);
    case "draft": return int(move.card) ? `#hand [data-card="${move.card}"]` : null;
    case "pair": return int(move.silver) && int(move.gold) ? `[data-pair="${move.silver}-${move.gold}"]` : null;
    case "research": case "deliver": return int(move.specimen) ? `[data-specimen="${move.specimen}"]` : null;
    case "seal": return int(move.scroll) && int(move.position) ? `[data-seal="${move.scroll}-${move.position}"]` : null;
    case "stamp": return int(move.envelope) ? `[data-envelope="${move.envelope}"]` : null;
    case "explorer": return typeof move.island === "string" ? `[data-island="${move.island}"]` : null;
    case "beagle": return "[data-beagle]";
    case "purple": return int(move.worker) ? `[data-worker="${move.worker}"]` : null;
    case "objective": case "fulfil_objective": case "auto_fulfil":
      return int(move.tile) ? `[data-objective="${move.tile}"]` : null;
    case "fulfil_crew": case "copy": return int(move.card) ? `[data-crew="${move.card}"]` : null;
    default: return controlPlace(CONTROLS[move?.type]?.(move) ?? null);
  }
}

// ------------------------------------------------------------------ placing a worker on the board

/** A placement is chosen from its worker (issue 30: a worker, then a location): the worker at
 * home, from the move's own `worker` field. */
export function startOf(move) {
  return move?.type === "place" && Number.isInteger(move.worker) && typeof move.location === "string"
    ? `[data-home-worker="${move.worker}"]` : null;
}

/** Whether `moves` (a board place's legal moves) are one worker's placements, which
 * buildMove builds on the board. */
export function builds(moves) {
  const worker = moves[0]?.worker;
  return moves.length > 0 && moves.every((m) => m.type === "place" && m.worker === worker
    && typeof m.location === "string");
}

/** A worker at home was tapped and `moves` are its legal placements: the locations they name
 * are highlighted, a tap on one previews the worker there and hands the move to the page's
 * confirmation (`page.pick`, whose Cancel comes back to the locations); the worker tapped
 * again, or "Cancel", puts the board back. False for any other place (the page lists its
 * moves). */
export function buildMove(moves, body, page) {
  const worker = moves[0]?.worker;
  const root = document.querySelector("#board .dj");
  if (!builds(moves) || !root) return false;
  if (placing?.worker === worker && placing.version === body.version) {
    stopPlacing(root);
    return true;
  }
  placing = { worker, moves, previewed: null, version: body.version, page, seat: body.seat };
  drawPlacing(root);
  root.querySelector(".dj-target")?.focus({ preventScroll: true });
  return true;
}

/** The placement being built drawn on `root` (the board, or a fresh draw of it): its worker
 * marked, the locations it may go to highlighted (a tap previews it there), the previewed one
 * with the worker drawn on it, and a line saying what to do with a Cancel. Whatever an
 * earlier call drew is taken off first. */
function drawPlacing(root) {
  for (const undo of placingMarks.splice(0)) undo();
  if (!placing) return;
  const mark = (el, undo) => { placingMarks.push(undo); return el; };
  const { worker, seat, previewed } = placing;
  const piece = root.querySelector(`[data-home-worker="${worker}"]`);
  if (piece) {
    piece.classList.add("selected");
    // A toggle (the page drew it unpressed): pressed while its placement is being built.
    piece.setAttribute("aria-pressed", "true");
    mark(piece, () => { piece.classList.remove("selected"); piece.setAttribute("aria-pressed", "false"); });
  }
  const events = new AbortController();
  placingMarks.push(() => events.abort());
  for (const move of placing.moves) {
    const where = root.querySelector(placeOf(move));
    if (!where || where.classList.contains("choosable")) continue; // a place of the page's own
    const here = move === previewed;
    where.classList.add("choosable", "dj-target");
    if (here) where.classList.add("building");
    where.setAttribute("tabindex", "0");
    where.setAttribute("role", "button");
    where.dataset.picks = ""; // it picks its move: the page marks it pressed while chosen
    const note = h("span", { class: "sr-only" }, ` · ${t("dj.place_worker_here", { n: worker + 1 })}`);
    const ghost = here ? h("span", { class: `token p${seat} dj-ghost`, "aria-hidden": "true" }, String(seat + 1)) : null;
    where.append(note);
    // A place named by its aria-label (its words, not what it shows) says it there too.
    const named = where.getAttribute("aria-label");
    if (named !== null) where.setAttribute("aria-label", `${named}${note.textContent}`);
    if (ghost) (where.querySelector(".loc-here") || where).append(ghost);
    mark(where, () => {
      where.classList.remove("choosable", "dj-target", "building");
      where.removeAttribute("tabindex");
      where.removeAttribute("role");
      where.removeAttribute("data-picks");
      where.removeAttribute("aria-pressed");
      note.remove();
      ghost?.remove();
      const now = where.getAttribute("aria-label");
      if (named !== null && now !== null) where.setAttribute("aria-label", now.replace(note.textContent, ""));
    });
    const choose = () => previewPlacement(move);
    where.addEventListener("click", choose, { signal: events.signal });
    where.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); choose(); }
    }, { signal: events.signal });
  }
  const tray = root.querySelector("#dj-tray");
  if (!tray) return;
  const loc = previewed ? board.locations.find((l) => l.id === previewed.location) : null;
  const what = loc ? t("dj.place_previewed", { n: worker + 1, location: locationName(loc) })
    : tCount("dj.place_choose", placing.moves.length, { n: worker + 1, count: placing.moves.length });
  const bar = h("div", {
    class: "dj-place-bar", id: "dj-place-bar", role: "group", "aria-label": t("dj.place_bar"),
    onkeydown: (event) => {
      if (event.key === "Escape") { event.preventDefault(); stopPlacing(document.querySelector("#board .dj")); }
    },
  },
  h("p", { class: "dj-place-what", id: "dj-place-what", "aria-live": "polite" }, what),
  h("button", {
    type: "button", id: "dj-place-cancel", "aria-label": t("dj.place_cancel_label", { n: worker + 1 }),
    onclick: () => stopPlacing(document.querySelector("#board .dj")),
  }, t("game.cancel")));
  tray.append(bar);
  placingMarks.push(() => bar.remove());
}

/** A highlighted location was tapped: the worker drawn there, and the move handed to the
 * page (played at once, or waiting for its confirmation, whose Cancel comes back here). */
function previewPlacement(move) {
  if (!placing) return;
  const root = document.querySelector("#board .dj");
  placing.previewed = move;
  drawPlacing(root);
  placing.page.pick(move, () => {
    if (!placing || placing.previewed !== move) return;
    placing.previewed = null;
    const now = document.querySelector("#board .dj");
    drawPlacing(now);
    now?.querySelector(placeOf(move))?.focus({ preventScroll: true });
  });
}

/** The placement being built given up: the board as it was, the focus on the worker. */
function stopPlacing(root) {
  const was = placing;
  placing = null;
  if (root) drawPlacing(root);
  // A move waiting for the page's confirmation goes too (nothing left to undo here).
  if (was?.previewed) was.page.cancel?.();
  root?.querySelector(`[data-home-worker="${was?.worker}"]`)?.focus({ preventScroll: true });
}
