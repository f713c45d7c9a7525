// Flotilla drawn from a seat's view: the ocean around the Hub (each player's sector, Starter
// Tiles, Ocean Tiles Sinkside or Skyside, Outposts, Skiffs), the Hub's Guild Dials and
// Artifacts, the Guild Board's crew stacks, the Guild Wheels, the Sonar and Survivor tracks,
// the Market, the objectives, your hand, and each player's board.
// Board facts and card effects come from /play/data/flotilla.json (a copy of core's data),
// names of the cards, tiles and Artifacts in sight from the view's own catalog, every other
// word from the page's messages.

import { h, tableWrap } from "../dom.js";
import { boardControls, controlPlace } from "./controls.js";
import { has, t, tCount, tOr } from "../i18n.js";
import { icon } from "../icons.js";
import { seatName } from "../names.js";

const SVG = "http://www.w3.org/2000/svg";
const SQRT3 = Math.sqrt(3);
const HEX = 10; // a hex's radius in the map's units
const COLOUR_LETTER = { red: "R", yellow: "Y", green: "G", blue: "B" };
// A hex's width on a narrow screen's zoomed map (CSS px): a finger's tap (issue 30: >= 32).
const TAP_HEX = 36;
let data = null;
// The ocean map on a narrow screen: zoomed in (hexes big enough to tap, the map scrolling
// sideways in its box) or the whole ocean at the box's width. Kept across redraws.
let wholeOcean = false;
let mapScroll = null; // where the player scrolled the zoomed map to (a redraw keeps it)
// A tile being placed (Sinkside) or built (Skyside) on the map (issue 30: a hex, then a turn,
// with a live preview): the hex tapped, its legal moves (one per turn of the tile), which of
// them the preview shows, the view's version it was built on (a redraw of that version keeps
// it) and the page's hands that play the confirmed move.
let building = null;

/** Load the board facts once. */
export async function prepare() {
  if (!data) data = await (await fetch("/play/data/flotilla.json")).json();
}

/** The whole table as `body.seat` sees it. */
// Moves with no place of their own, drawn as controls on the board (renderers/controls.js):
// the control's id from the move's fields ("reroll-1": reroll the second die).
const CONTROLS = {
  arrow: (m) => `arrow-${Boolean(m.skip)}`, resolve: (m) => `resolve-${m.icon}`, cargo: (m) => `cargo-${m.skiff}`,
  reroll: (m) => `reroll-${m.die}`, district: (m) => `district-${m.colour}`, sonar: (m) => `sonar-${Boolean(m.advance)}`,
  copy: (m) => `copy-${m.target}`, retire: () => "retire", join: () => "join", regroup: () => "regroup",
  done: () => "done", skip: () => "skip", buy_skiff: () => "buy_skiff",
  // The tiles to place are drawn from the bag and shown nowhere else on the board.
  pick_tile: (m) => `pick_tile-${m.tile}`,
};

export function render(body) {
  const v = body.view;
  const ctx = { body, v, cat: v.catalog || {} };
  return h("div", { class: "fl" },
    overview(ctx),
    boardControls(body, (m) => CONTROLS[m.type]?.(m) ?? null),
    myHand(ctx),
    h("div", { class: "fl-grid" },
      ocean(ctx),
      h("div", { class: "fl-column" }, hub(ctx), market(ctx), tracks(ctx))),
    wheels(ctx),
    objectives(ctx),
    players(ctx));
}

/** The "play" event repeats its move: the log shows it once. */
export function skipEvent(event) {
  return event.type === "play";
}

/** More words for a move's button: what the card its label names does (the label names
 * tiles and objectives by their texts already). */
export function moveDetail(move, body) {
  const v = body.view || {};
  const cat = v.catalog || {};
  const seat = body.seat ?? v.to_act;
  const sky = Boolean(v.sky?.[seat]);
  if ((move.type === "play" || move.type === "discard") && Number.isInteger(move.card)) return cardEffect(move.card, sky);
  if (move.type === "recruit" && typeof move.guild === "string") {
    const top = v.crew_top?.[cat.guilds?.indexOf(move.guild)];
    return top === null || top === undefined ? null : `${cardName(cat, top)}: ${cardEffect(top, sky)}`;
  }
  if (move.type === "copy" && Number.isInteger(move.target)) {
    const pile = v.discard?.[move.target] || [];
    return pile.length ? `${cardName(cat, pile[pile.length - 1])}: ${cardEffect(pile[pile.length - 1], sky)}` : null;
  }
  return null;
}

/** Sailing grouped by Skiff; placing and building a tile by cell (a cell offers each turn
 * of the tile that differs in effect). */
export function moveGroup(move, body) {
  if (move.type === "sail" && Number.isInteger(move.skiff)) return t("fl.skiff_n", { n: move.skiff + 1 });
  if ((move.type === "place" || move.type === "build") && Number.isInteger(move.cell)) {
    return t("fl.at_cell", { cell: cellText(body.view?.catalog || {}, move.cell) });
  }
  return null;
}

// ------------------------------------------------------------------ words

function guildName(guild) {
  return tOr(`fl.guild.${guild}`, guild);
}

function colourName(colour) {
  return tOr(`fl.colour.${colour}`, colour);
}

function cardName(cat, card) {
  return cat.cards?.[String(card)]?.sinkside ?? null;
}

function artifactName(cat, id) {
  return cat.artifacts?.[String(id)] ?? t("fl.an_artifact");
}

/** One printed effect as words ("2 Influence for one Guild", "draw 2 Ocean Tiles, place 1"). */
function opText(op) {
  const [kind, a, b, c] = op;
  switch (kind) {
    case "influence": return t(`fl.op.influence.${b}`, { n: a });
    case "dive": {
      const extra = Object.entries(a).map(([k, n]) => `${n} ${tCount(`fl.depth_kind.${k}`, n)}`).join(", ");
      const text = extra ? t("fl.op.dive", { dice: extra }) : t("fl.op.dive_skiffs");
      return (b || []).includes("dredger") ? `${text} ${t("fl.op.dredger")}` : text;
    }
    case "research": return b ? tCount("fl.op.research_rerolls", b, { n: a, r: b }) : t("fl.op.research", { n: a });
    case "draw_place": return t("fl.op.draw_place", { n: a, k: b });
    case "seal": return typeof a === "string" && a !== "any" ? t("fl.op.seal_guild", { guild: guildName(a) }) : t("fl.op.seal");
    case "discard_type": return tCount("fl.op.discard_type", b, { n: b, guild: guildName(a), effect: c.map(opText).join(", ") });
    case "retire": return t("fl.op.retire", { effect: a.map(opText).join(", ") });
    default: return has(`fl.op.${kind}`) ? tCount(`fl.op.${kind}`, a ?? 1, { n: a ?? 1 }) : kind.replace(/_/g, " ");
  }
}

// Effects drawn as icons with their amounts (issue 30: "spaces show icons and numbers, not
// sentences"): an effect's kind -> its icon. An effect of another kind (a choice, a dive...)
// is left in words.
const OP_ICONS = {
  vp: "point", coins: "coin", survivor: "survivor", recruit: "crew-card", recruit_any: "crew-card",
  seal: "guild-seal", tile: "ocean-tile", resource_any: "resource", toxicity: "toxicity",
  extra_die: "die", milestone: "milestone",
};

/** `ops` (a wheel space's effects, ...) drawn as icons, each with its amount when it has
 * one ("2" and a laurel: +2 VP), joined by "+"; null for none, or when one of them has no
 * icon. The caller names the drawing with `opsText`'s words. */
function opsPicture(ops) {
  if (!(ops || []).length) return null; // nothing: a dash, in words
  const parts = [];
  for (const op of ops) {
    const name = Array.isArray(op[0]) ? null : OP_ICONS[op[0]];
    if (!name || (op[0] === "seal" && typeof op[1] === "string" && op[1] !== "any")) return null;
    if (parts.length) parts.push(h("span", { class: "gain-plus" }, "+"));
    const n = typeof op[1] === "number" ? op[1] : null;
    parts.push(h("span", { class: "fl-gain" }, n !== null && (n !== 1 || op[0] === "vp") ? String(n) : null,
      icon(name)));
  }
  return parts;
}

/** `ops` drawn as a picture named and titled by `words` (so a screen reader, a tooltip and
 * tap-to-explain still have the sentence), in a span of `cls`; in words when they have no
 * picture. `extra`: more of the picture (the arrow's mark). */
function pictured(ops, words, cls = "rep-bonus", extra = null) {
  const drawn = opsPicture(ops);
  if (!drawn) return h("span", { class: cls }, words);
  return h("span", { class: `${cls} fl-pic`, role: "img", "aria-label": words, title: words }, drawn, extra);
}

function opsText(ops) {
  return (ops || []).map((list) => (Array.isArray(list[0]) ? list.map(opText).join(t("fl.or")) : opText(list))).join(" + ");
}

/** A Crew Card's effect on the side its owner plays ("Skyside: income 2"). */
function cardEffect(card, sky) {
  const c = data.cards[card];
  if (!c) return "";
  const face = sky ? c.sky : c.sink;
  const extra = sky ? tCount("fl.income", face.income, { n: face.income }) : t("fl.navigation", { n: face.nav });
  const ops = opsText(face.ops);
  return ops ? `${ops} · ${extra}` : extra;
}

function tileText(cat, tile) {
  const info = cat.tiles?.[String(tile)];
  if (!info) return t("fl.ocean_tile");
  return t("fl.tile_text", { depth: t(`fl.depth.${info.depth}`), resource: colourName(info.resource) });
}

function tileSkyText(cat, tile) {
  const info = cat.tiles?.[String(tile)];
  if (!info) return t("fl.ocean_tile");
  const cost = Object.entries(info.cost || {}).map(([c, n]) => `${n} ${colourName(c)}`).join(", ");
  return t("fl.tile_sky_text", {
    districts: (info.districts || []).map(colourName).join(", ") || t("fl.none"), cost: cost || t("fl.free"),
  });
}

function cellText(cat, cell) {
  if (cell < 0) return t("fl.floating"); // a Floating Outpost has no cell
  const [q, r] = cellQR(cat, cell);
  return `(${q},${r})`;
}

function objectiveFace(id, side) {
  const face = data.objectives[id]?.[side];
  if (!face) return t("fl.objective");
  return t("fl.objective_text", { vp: face.vp_each, what: tOr(`fl.count.${face.count}`, face.count), max: face.max_vp });
}

function cellQR(cat, cell) {
  const radius = cat.radius ?? 7;
  const width = 2 * radius + 1;
  return [Math.floor(cell / width) - radius, (cell % width) - radius];
}

// ------------------------------------------------------------------ small pieces

function seatToken(ctx, seat) {
  const name = seatName(ctx.body, seat);
  return h("span", { class: `token p${seat}`, title: name, role: "img", "aria-label": name }, String(seat + 1));
}

function resourceChip(colour, n = null) {
  const name = colourName(colour);
  return h("span", { class: `res res-${colour}`, title: name },
    h("span", { class: "sr-only" }, name), n === null ? "" : String(n));
}

function stat(key, value, params = {}) {
  return h("li", {}, h("span", { class: "label" }, t(key, params)), " ", h("strong", {}, value ?? "—"));
}

/** A player's count drawn as its icon, named (and titled) by the words of `key`. */
function iconStat(name, key, value) {
  return h("li", { title: t(key) }, icon(name, { label: t(key) }), h("strong", {}, String(value ?? "—")));
}

const folded = new Set();

function section(id, title, ...children) {
  const details = h("details", { class: "panel fl-section", id, open: !folded.has(id) },
    h("summary", {}, h("h2", {}, title)), ...children);
  details.addEventListener("toggle", () => {
    if (details.open) folded.delete(id);
    else folded.add(id);
  });
  return details;
}

function turnOrder(v) {
  // Turn order starts at the First Player and goes clockwise (seat order).
  return Array.from({ length: v.seat_count }, (_, k) => (v.first + k) % v.seat_count);
}

// ------------------------------------------------------------------ sections

function overview(ctx) {
  const { v } = ctx;
  return h("section", { class: "panel fl-overview", id: "fl-round" },
    h("p", {}, h("strong", {}, t("fl.round", { round: v.end_round ? Math.min(v.round, v.end_round) : v.round })),
      v.end_round !== null && v.end_round !== undefined ? [" · ", h("strong", { class: "warn" }, t("fl.last_round", { round: v.end_round }))] : null,
      " · ", t("fl.vp_supply", { n: v.vp_supply })),
    h("p", { class: "fl-legend" }, h("span", { class: "label" }, t("fl.turn_order")), " ",
      turnOrder(v).map((s) => h("span", { class: "legend-item" }, seatToken(ctx, s), " ", seatName(ctx.body, s),
        " ", h("span", { class: "help" }, v.sky?.[s] ? t("fl.skyside") : t("fl.sinkside"))))));
}

function myHand(ctx) {
  const { v, cat } = ctx;
  const seat = v.seat;
  if (seat === null || seat === undefined) return null;
  const sky = Boolean(v.sky?.[seat]);
  const hand = v.hand?.[seat] || [];
  return section("fl-hand", tCount("fl.your_hand", hand.length, { n: hand.length }),
    h("ul", { class: "cards", id: "hand" }, hand.map((card) => crewCard(ctx, card, sky))),
    h("p", { class: "help" }, sky ? t("fl.hand_help_sky") : t("fl.hand_help_sink")));
}

function crewCard(ctx, card, sky) {
  const info = ctx.cat.cards?.[String(card)];
  const guild = info?.guild;
  const guildText = guild === "all" ? t("fl.all_guilds") : guild ? guildName(guild) : t("fl.no_guild");
  const level = info?.level === "starter" ? t("fl.starter") : info?.level ? t("fl.level", { n: info.level }) : "";
  // The card is a box inside its list item: a place (role=button) may not be an <li>.
  return h("li", { class: "card-slot" }, h("div", { class: `crew-card guild-${guild || "none"}`, dataset: { card } },
    h("strong", {}, (sky ? info?.skyside : info?.sinkside) ?? t("fl.a_card")), " ",
    h("span", { class: "help" }, `(${[guildText, level].filter(Boolean).join(", ")})`),
    h("div", {}, cardEffect(card, sky))));
}

/** The ocean around the Hub as a hex map, with a text list of what is on it. */
function ocean(ctx) {
  const { v, cat } = ctx;
  const radius = cat.radius ?? 7;
  const hubRadius = cat.hub_radius ?? 1;
  const n = v.seat_count;
  const bySector = new Map((v.sector || []).map((k, p) => [k, p]));
  const board = v.board || {};
  const skiffsAt = new Map();
  (v.skiffs || []).forEach((list, p) => list.forEach((cell, i) => {
    if (cell >= 0) {
      if (!skiffsAt.has(cell)) skiffsAt.set(cell, []);
      skiffsAt.get(cell).push([p, i]);
    }
  }));
  // Cells a legal move of this seat names (where a tile may go, where a Skiff may sail).
  const targets = new Set(seatMoves(ctx).filter((m) => Number.isInteger(m.cell)).map((m) => m.cell));
  const svg = document.createElementNS(SVG, "svg");
  const el = svgEl;
  const corners = hexCorners;
  const extent = (radius + 1) * HEX * SQRT3;
  svg.setAttribute("viewBox", `${-extent} ${-extent} ${2 * extent} ${2 * extent}`);
  svg.setAttribute("class", "fl-map");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("fl.map_label"));
  // What is drawn on the hexes (tiles' marks, Outposts, Skiffs) lies in a layer above them,
  // outside the hexes the page makes buttons: a button's drawn text (a Depth, Districts'
  // letters) would be a visible label its name ("3 moves here") does not hold (axe's
  // label-content-name-mismatch). The hex keeps its words (<title>); the marks let taps through.
  const marksLayer = el("g", { class: "fl-marks", "aria-hidden": "true" });
  for (let q = -radius; q <= radius; q++) {
    for (let r = -radius; r <= radius; r++) {
      const dist = Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r));
      if (dist > radius) continue;
      const cell = (q + radius) * (2 * radius + 1) + (r + radius);
      const [x, y] = hexCentre(q, r);
      const g = el("g", { "data-cell": cell });
      const entry = board[String(cell)];
      let cls = "hex";
      let label = "";
      let title = "";
      if (dist <= hubRadius) {
        cls += " hub";
        title = t("fl.hub");
      } else if (entry) {
        const [tile, , owner, depleted, outpost] = entry;
        cls += ` tile p${owner}-fill${depleted ? " depleted" : ""}`;
        if (tile < 0) {
          label = "★";
          title = t("fl.starter_tile_of", { seat: seatName(ctx.body, owner) });
        } else if (v.sky?.[owner]) {
          title = `${seatName(ctx.body, owner)}: ${tileSkyText(cat, tile)}`;
        } else {
          title = `${seatName(ctx.body, owner)}: ${tileText(cat, tile)}`;
        }
        if (depleted) title += ` · ${t("fl.depleted")}`;
        if (outpost) title += ` · ${t("fl.outpost")}`;
        g.dataset.outpost = outpost ? "1" : "0";
      } else {
        const angle = ((Math.atan2(-1.5 * r, SQRT3 * (q + r / 2)) * 180 / Math.PI) + 360) % 360;
        const sector = Math.floor(((angle + 1e-6) % 360) / (360 / n)) % n;
        const owner = bySector.get(sector);
        cls += owner === undefined ? " empty" : ` empty p${owner}-tint`;
        title = owner === undefined ? "" : t("fl.sector_of", { seat: seatName(ctx.body, owner) });
      }
      if (targets.has(cell)) {
        cls += " target";
        title += ` · ${t("fl.possible_move")}`;
      }
      g.append(el("polygon", { points: corners(x, y, HEX - 0.6), class: cls }));
      const marks = el("g", { "data-marks": cell });
      // A tile drawn as the preview draws it, turned as placed: Sinkside, its wedges and its
      // Depth; Skyside, its Watercraft, its Sonar piece and its Districts.
      if (entry && entry[0] >= 0) marks.append(...(v.sky?.[entry[2]] ? skyTile : sinkTile)(x, y, entry[0], entry[1]));
      if (title) g.append(el("title", {}, `${cellText(cat, cell)} ${title}`));
      if (label) marks.append(el("text", { x: x.toFixed(2), y: (y + 3.2).toFixed(2), class: "hex-label" }, label));
      if (entry?.[4]) marks.append(el("rect", { x: (x - 3).toFixed(2), y: (y - 8.5).toFixed(2), width: 6, height: 4.5, class: `outpost p${entry[2]}-fill` }));
      const here = skiffsAt.get(cell) || [];
      here.forEach(([p], i) => {
        marks.append(el("circle", { cx: (x - 4 + i * 4).toFixed(2), cy: (y + 5.5).toFixed(2), r: 2.4, class: `skiff p${p}-fill` }));
      });
      if (here.length) {
        g.append(el("title", {}, here.map(([p, i]) => t("fl.skiff_of", { seat: seatName(ctx.body, p), n: i + 1 })).join(", ")));
      }
      svg.append(g);
      if (marks.childElementCount) marksLayer.append(marks);
    }
  }
  svg.append(marksLayer);
  svg.append(el("text", { x: 0, y: 3, class: "hub-label" }, t("fl.hub_short")));
  const legend = h("p", { class: "help fl-map-legend" }, t("fl.map_legend"));
  // Zoomed (a narrow screen; CSS): the map drawn where a hex is TAP_HEX px wide.
  const hexWidth = 2 * (HEX - 0.6) * Math.cos(Math.PI / 6);
  const wrap = h("div", {
    class: `fl-map-wrap scroll-x${wholeOcean ? "" : " zoomed"}`, id: "fl-map-wrap",
    onscroll: () => { mapScroll = wrap.scrollLeft; },
  }, svg);
  // Through the CSSOM: the page's CSP refuses style attributes.
  wrap.style.setProperty("--fl-zoom-width", `${Math.ceil(2 * extent * TAP_HEX / hexWidth)}px`);
  const zoom = h("button", {
    type: "button", class: "fl-zoom", id: "fl-zoom", "aria-controls": "fl-map-wrap",
    onclick: () => {
      wholeOcean = !wholeOcean;
      wrap.classList.toggle("zoomed", !wholeOcean);
      zoom.textContent = t(wholeOcean ? "fl.map_zoom_in" : "fl.map_whole");
      mapScroll = null;
      focusMap(wrap);
    },
  }, t(wholeOcean ? "fl.map_zoom_in" : "fl.map_whole"));
  // A tile being placed on this version's map: drawn again (a redraw keeps the preview).
  if (building && building.version === ctx.body.version) drawBuilding(wrap, ctx.body);
  else building = null;
  // Once drawn and marked (the page adds the choosable hexes after this draw): in view.
  requestAnimationFrame(() => focusMap(wrap));
  return section("fl-ocean", t("fl.ocean"), zoom, wrap, legend);
}

/** A zoomed map scrolled sideways to what matters: the hexes this seat may choose, else the
 * newest move, else where the player left it, else the Hub. A map wider than its box can be
 * scrolled by keyboard too (focusable, named); one that fits is no tab stop. */
function focusMap(wrap) {
  if (!wrap.isConnected) return;
  const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
  if (!scrolls) {
    wrap.removeAttribute("tabindex");
    wrap.removeAttribute("role");
    wrap.removeAttribute("aria-label");
    return;
  }
  wrap.setAttribute("tabindex", "0");
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", t("fl.map_scrolls"));
  let places = [...wrap.querySelectorAll("g.building")];
  if (!places.length) places = [...wrap.querySelectorAll("g.chosen, g.choosable")];
  if (!places.length) places = [...wrap.querySelectorAll("g.last-move.newest")];
  const box = wrap.getBoundingClientRect();
  let centre;
  if (places.length) {
    const rects = places.map((g) => g.getBoundingClientRect());
    const left = Math.min(...rects.map((r) => r.left));
    const right = Math.max(...rects.map((r) => r.right));
    centre = wrap.scrollLeft + (left + right) / 2 - box.left;
  } else if (mapScroll !== null) {
    wrap.scrollLeft = mapScroll;
    return;
  } else {
    centre = wrap.scrollWidth / 2;
  }
  wrap.scrollLeft = Math.max(0, centre - wrap.clientWidth / 2);
  mapScroll = wrap.scrollLeft;
}

// ------------------------------------------------------------------ drawing a hex

function svgEl(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, val] of Object.entries(attrs)) node.setAttribute(k, String(val));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A hex's corners as SVG points; corner i at (60i - 30)°, the y axis pointing down. */
function hexCorners(x, y, size) {
  return Array.from({ length: 6 }, (_, i) => cornerXY(x, y, size, i).map((n) => n.toFixed(2)).join(",")).join(" ");
}

function cornerXY(x, y, size, i) {
  const a = Math.PI / 180 * (60 * i - 30);
  return [x + size * Math.cos(a), y + size * Math.sin(a)];
}

function hexCentre(q, r) {
  return [HEX * SQRT3 * (q + r / 2), HEX * 1.5 * r];
}

/** A Sinkside Ocean Tile's marks on its hex at (x, y), from the tile's own data: a wedge of
 * colour at each of its corners turned by `rot` sixths, and its Depth. The engine's corner v
 * lies between its edges v and v + 1 (core/flotilla/board.py), edge e towards -60e°: the
 * map's corner (6 - v) mod 6. */
function sinkTile(x, y, tile, rot) {
  const info = data.tiles?.[tile];
  if (!info) return [];
  const size = HEX - 0.6;
  const marks = info.wedges.map(([vertex, colour]) => {
    const i = (6 - ((vertex + rot) % 6)) % 6;
    const [cx, cy] = cornerXY(x, y, size, i);
    // A cap on the corner, along its two edges: three tiles' caps make a circle.
    const side = (j) => {
      const [nx, ny] = cornerXY(x, y, size, (i + j + 6) % 6);
      return `${(cx + 0.5 * (nx - cx)).toFixed(2)},${(cy + 0.5 * (ny - cy)).toFixed(2)}`;
    };
    const inner = `${(cx + 0.5 * (x - cx)).toFixed(2)},${(cy + 0.5 * (y - cy)).toFixed(2)}`;
    return svgEl("polygon", {
      points: `${cx.toFixed(2)},${cy.toFixed(2)} ${side(1)} ${inner} ${side(-1)}`,
      class: `wedge wedge-${colour}`, "data-vertex": (vertex + rot) % 6,
    });
  });
  marks.push(svgEl("text", { x: x.toFixed(2), y: (y + 3.2).toFixed(2), class: "hex-label" }, String(info.depth)));
  return marks;
}

/** A Skyside Ocean Tile's marks on its hex at (x, y), from the tile's own data, turned by
 * `rot` sixths: a band of its Watercraft towards each edge it reaches (edge e
 * towards -60e°), its Sonar piece on its corner (the engine's corner v: the map's corner
 * (6 - v) mod 6, as for the wedges), and the letters of its Districts. */
function skyTile(x, y, tile, rot) {
  const info = data.tiles?.[tile]?.sky;
  if (!info) return [];
  const size = HEX - 0.6;
  const reach = size * Math.cos(Math.PI / 6); // the centre to an edge's middle
  const marks = info.watercraft_edges.map((edge) => {
    const e = (edge + rot) % 6;
    const a = -Math.PI / 3 * e;
    // From near the centre (the Districts' letters stay readable) to the edge's middle.
    const at = (k) => [(x + k * reach * Math.cos(a)).toFixed(2), (y + k * reach * Math.sin(a)).toFixed(2)];
    const [[x1, y1], [x2, y2]] = [at(0.45), at(1)];
    return svgEl("line", { x1, y1, x2, y2, class: "watercraft", "data-edge": e });
  });
  if (info.sonar !== null && info.sonar !== undefined) {
    const vertex = (info.sonar + rot) % 6;
    const [cx, cy] = cornerXY(x, y, size * 0.72, (6 - vertex) % 6);
    marks.push(svgEl("circle", { cx: cx.toFixed(2), cy: cy.toFixed(2), r: 1.5, class: "sonar-piece", "data-vertex": vertex }));
  }
  const letters = (info.districts || []).map((c) => COLOUR_LETTER[c] || "?").join("");
  if (letters) marks.push(svgEl("text", { x: x.toFixed(2), y: (y + 3.2).toFixed(2), class: "hex-label" }, letters));
  return marks;
}

// ------------------------------------------------------------------ placing a tile on the map

// The pending decision that puts a tile on a hex, by the type of its moves: a Sinkside tile
// placed (F16), a Skyside tile built (F18.1).
const TILE_STEPS = { place: { frame: "place_at", sky: false }, build: { frame: "build_at", sky: true } };

/** The Ocean Tile this seat puts on the map now with moves of `type` ("place" or "build"),
 * from the pending decision; null when none. */
function placingTile(v, type) {
  const step = TILE_STEPS[type];
  const top = v?.stack?.[v.stack.length - 1];
  return step && top?.[0] === step.frame && Number.isInteger(top[1]) ? top[1] : null;
}

/** Whether `moves` (a hex's legal moves) are the placements or builds of the tile this seat
 * puts on the map now, which buildMove builds there. */
export function builds(moves, body) {
  const cell = moves[0]?.cell;
  const type = moves[0]?.type;
  return moves.length > 0 && placingTile(body.view, type) !== null
    && moves.every((m) => m.type === type && m.cell === cell && Number.isInteger(m.rot));
}

/** A hex of the map was tapped and `moves` are its legal moves: a tile's placements there, or
 * a Skyside tile's builds (one per turn of the tile), are built on the map (the tile drawn on
 * the hex at its first legal turn, with "Rotate", "Place here" or "Build here", and "Cancel"
 * next to it); `page.play(move)` plays the confirmed one. False for any other place (the
 * page lists its moves). */
export function buildMove(moves, body, page) {
  const cell = moves[0]?.cell;
  if (!builds(moves, body)) return false;
  const wrap = document.getElementById("fl-map-wrap");
  if (!wrap) return false;
  if (building?.cell === cell && building.version === body.version) {
    turnTile(wrap, body); // the previewed hex tapped again: its next turn
    return true;
  }
  building = { cell, moves: [...moves].sort((a, b) => a.rot - b.rot), shown: 0, version: body.version, page };
  drawBuilding(wrap, body);
  document.getElementById("fl-place-rotate")?.focus({ preventScroll: true });
  return true;
}

function turnTile(wrap, body) {
  building.shown = (building.shown + 1) % building.moves.length;
  drawBuilding(wrap, body);
  document.getElementById("fl-place-rotate")?.focus({ preventScroll: true });
}

function stopBuilding(wrap) {
  wrap.querySelector(".fl-preview")?.remove();
  wrap.querySelector("#fl-place-bar")?.remove();
  for (const g of wrap.querySelectorAll("g.building")) g.classList.remove("building");
}

/** The tile drawn on its hex as the shown move turns it, and the controls next to it. */
function drawBuilding(wrap, body) {
  stopBuilding(wrap);
  const g = wrap.querySelector(`svg [data-cell="${building.cell}"]`);
  const move = building.moves[building.shown];
  const tile = placingTile(body.view, move.type);
  if (!g || tile === null) { building = null; return; }
  const sky = TILE_STEPS[move.type].sky;
  const count = building.moves.length;
  const [q, r] = cellQR(body.view.catalog || {}, building.cell);
  const [x, y] = hexCentre(q, r);
  // Above the hexes, not inside the hex (a button: see the marks' layer in ocean()).
  const preview = svgEl("g", {
    class: "fl-preview", "data-preview-cell": building.cell, "data-rot": move.rot,
    "data-side": sky ? "sky" : "sink", "aria-hidden": "true",
  });
  preview.append(svgEl("polygon", { points: hexCorners(x, y, HEX - 0.6), class: `hex tile p${body.seat}-fill` }),
    ...(sky ? skyTile : sinkTile)(x, y, tile, move.rot));
  g.ownerSVGElement.append(preview);
  g.classList.add("building");
  const bar = h("div", {
    class: "fl-place-bar", id: "fl-place-bar", role: "group", "aria-label": t(sky ? "fl.build_bar" : "fl.place_bar"),
  },
    h("p", { class: "fl-place-what", id: "fl-place-what", "aria-live": "polite" }, move.label || cellText(body.view.catalog || {}, move.cell),
      count > 1 ? h("span", { class: "help" }, ` · ${t("fl.place_turn_of", { n: building.shown + 1, count })}`) : null),
    h("span", { class: "fl-place-buttons" },
      h("button", {
        type: "button", id: "fl-place-rotate", disabled: count < 2,
        "aria-label": t("fl.place_rotate_label", { n: building.shown + 1, count }),
        onclick: () => turnTile(wrap, body),
      }, `⟳ ${t("fl.place_rotate")}`),
      h("button", {
        type: "button", class: "primary", id: "fl-place-confirm", "aria-describedby": "fl-place-what",
        onclick: () => {
          const chosen = building.moves[building.shown];
          const { page } = building;
          building = null;
          stopBuilding(wrap);
          page.play(chosen);
        },
      }, t(sky ? "fl.build_confirm" : "fl.place_confirm")),
      h("button", {
        type: "button", id: "fl-place-cancel", "aria-label": t(sky ? "fl.build_cancel_label" : "fl.place_cancel_label"),
        onclick: () => cancel(),
      }, t("game.cancel"))));
  const cancel = () => {
    building = null;
    stopBuilding(wrap);
    g.focus({ preventScroll: true });
  };
  bar.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.preventDefault(); cancel(); }
  });
  wrap.append(bar);
  requestAnimationFrame(() => placeBar(wrap, g, bar));
}

/** The controls put just under the previewed hex (above it near the map's foot), inside the
 * map's box so they scroll with a zoomed map; then brought into view. */
function placeBar(wrap, g, bar) {
  if (!bar.isConnected) return;
  const box = wrap.getBoundingClientRect();
  const hex = g.getBoundingClientRect();
  const width = bar.offsetWidth;
  const height = bar.offsetHeight;
  const centre = hex.left - box.left + wrap.scrollLeft + hex.width / 2;
  const mapWidth = wrap.querySelector("svg")?.getBoundingClientRect().width ?? wrap.clientWidth;
  const left = Math.max(0, Math.min(centre - width / 2, mapWidth - width));
  let top = hex.bottom - box.top + wrap.scrollTop + 4;
  if (top + height > wrap.scrollHeight) top = Math.max(0, hex.top - box.top + wrap.scrollTop - height - 4);
  // Through the CSSOM: the page's CSP refuses style attributes.
  bar.style.setProperty("left", `${left}px`);
  bar.style.setProperty("top", `${top}px`);
  bar.scrollIntoView({ block: "nearest", inline: "nearest" });
}

function seatMoves(ctx) {
  return ctx.body.seat !== null && ctx.body.seat === ctx.body.to_act ? ctx.body.legal_moves || [] : [];
}

function hub(ctx) {
  const { v, cat } = ctx;
  const guilds = cat.guilds || [];
  const rows = guilds.map((guild, g) => {
    const arts = v.hub?.[g] || [];
    const top = v.crew_top?.[g];
    const sizes = v.crew_sizes?.[g] || [0, 0];
    return h("li", { class: `guild-row guild-${guild}`, dataset: { guild } },
      // The guild's head is the place of what is done with a guild (influence, recruit, a
      // seal, its dial, a wildcard die counted for it).
      h("div", { class: "guild-head" }, h("strong", {}, guildName(guild)), " ",
        h("span", { class: "chip" }, t("fl.dial", { n: v.dials?.[g] ?? 1, max: data.dial_max }))),
      h("div", { class: "help" }, t("fl.artifacts_here", { n: arts.length, max: data.artifact_spaces }), " ",
        arts.length ? arts.map((a) => artifactName(cat, a)).join(", ")
          : t("fl.first_space_bonus", { effect: opsText(data.first_space_bonus[g]) }),
        " · ", t("fl.artifact_bag", { n: v.art_bag_sizes?.[g] ?? 0 })),
      h("div", {}, h("span", { class: "label" }, t("fl.crew_stack")), " ",
        top === null || top === undefined ? t("fl.empty_stack")
          : [h("strong", {}, cardName(cat, top)), " ", h("span", { class: "help" }, cardEffect(top, false))],
        " ", h("span", { class: "help" }, t("fl.stack_sizes", { one: sizes[0], two: sizes[1] }))));
  });
  return section("fl-hub", t("fl.hub_and_guilds"), h("ul", { class: "guild-rows" }, rows));
}

function market(ctx) {
  const { v, cat } = ctx;
  const prices = cat.market_prices || [];
  const rows = (cat.colours || []).map((colour, c) => h("tr", { dataset: { colour } },
    h("th", { scope: "row" }, h("span", { class: "market-colour" }, resourceChip(colour), " ", colourName(colour))),
    prices.map((price, i) => h("td", { class: i === v.market?.[c] ? "here" : null },
      i === v.market?.[c] ? h("strong", {}, String(price)) : String(price)))));
  return section("fl-market", t("fl.market"),
    h("p", { class: "help" }, t("fl.market_help")),
    tableWrap(t("fl.market"), h("table", { class: "fl-market" }, h("tbody", {}, rows))));
}

function tracks(ctx) {
  const { v } = ctx;
  const sonar = data.sonar.map((space, i) => h("li", { class: i === v.sonar ? "here" : null },
    h("strong", {}, `S${i + 1}`), " ", pictured(space.icon, opsText(space.icon), "sonar-gives"),
    space.vp ? h("span", { class: "help" }, ` · ${t("fl.station_vp", { n: space.vp })}`) : null,
    i === v.sonar ? h("span", { class: "chip" }, t("fl.marker_here")) : null));
  const track = data.survivor_tracks[String(v.seat_count)] || [];
  const survivor = track.map((space, i) => h("li", { class: i === v.survivor % track.length ? "here" : null },
    h("span", { class: "rep-n" }, String(i + 1)),
    pictured([space], space[0] === "milestone" ? t("fl.milestone") : opText(space))));
  return section("fl-tracks", t("fl.tracks"),
    h("h3", {}, t("fl.sonar_track")),
    h("p", { class: "help" }, t("fl.sonar_help")),
    h("ol", { class: "fl-sonar" }, sonar),
    h("h3", {}, t("fl.survivor_track")),
    h("ol", { class: "rep-track fl-survivors" }, survivor));
}

function wheels(ctx) {
  const { v, cat } = ctx;
  const guilds = cat.guilds || [];
  const spaces = cat.wheel_spaces ?? 10;
  const blocks = guilds.map((guild, g) => {
    const cells = data.wheels[g].map((bonus, i) => {
      const here = [];
      for (let p = 0; p < v.seat_count; p++) if ((v.wheel?.[p]?.[g] ?? 0) % spaces === i) here.push(seatToken(ctx, p));
      const words = [bonus.length ? opsText(bonus) : "—", i === data.arrow_space ? t("fl.arrow") : ""]
        .filter(Boolean).join(" ");
      return h("li", { class: here.length ? "occupied" : null },
        h("span", { class: "rep-n" }, i === 0 ? t("fl.top_space") : String(i)),
        pictured(bonus, words, "rep-bonus", i === data.arrow_space ? h("span", { class: "fl-arrow" }, "↷") : null),
        here.length ? h("span", { class: "here" }, here) : null);
    });
    const seals = [];
    for (let p = 0; p < v.seat_count; p++) {
      if (v.seals?.[p]?.[g]) seals.push(h("span", { class: "legend-item" }, seatToken(ctx, p), `×${v.seals[p][g]} `));
    }
    return h("div", { class: `wheel guild-${guild}` },
      h("h3", {}, t("fl.wheel_of", { guild: guildName(guild) })),
      h("ol", { class: "wheel-track" }, cells),
      h("p", { class: "help" }, t("fl.guild_strip"), " ", seals.length ? seals : t("fl.none")));
  });
  return section("fl-wheels", t("fl.wheels"), h("p", { class: "help" }, t("fl.wheels_help")), blocks);
}

function objectives(ctx) {
  const { v } = ctx;
  const sides = [["sink", "fl.sinkside_objectives"], ["sky", "fl.skyside_objectives"]];
  return section("fl-objectives", t("fl.objectives"),
    h("p", { class: "help" }, t("fl.objectives_help", { prices: data.outpost_prices.join(", ") })),
    sides.map(([side, key], k) => [h("h3", {}, t(key)),
      h("ul", { class: "cards" }, (v.obj_stacks?.[k] || []).map((pile, i) => h("li", { dataset: { stack: i } },
        pile.length ? [h("strong", {}, objectiveFace(pile[pile.length - 1], side)), " ",
          h("span", { class: "help" }, t("fl.tiles_left", { n: pile.length }))] : t("fl.empty_stack"))))]));
}

function players(ctx) {
  const { v } = ctx;
  const order = Array.from({ length: v.seat_count }, (_, s) => s);
  if (v.seat !== null && v.seat !== undefined) order.sort((a, b) => (a === v.seat ? -1 : b === v.seat ? 1 : a - b));
  return h("div", { class: "fl-players" }, order.map((s) => playerBoard(ctx, s)));
}

function playerBoard(ctx, s) {
  const { v, cat, body } = ctx;
  const sky = Boolean(v.sky?.[s]);
  const skiffs = (v.skiffs?.[s] || []);
  const inPlay = skiffs.filter((c) => c >= 0).length;
  const colours = cat.colours || [];
  const discard = v.discard?.[s] || [];
  const retired = v.retired?.[s] || [];
  const outpostsLeft = v.outposts?.[s] ?? 0;
  const nextPrice = data.outpost_prices[data.outpost_prices.length - outpostsLeft];
  const tiles = Object.entries(v.board || {}).filter(([, e]) => e[2] === s && e[0] >= 0);
  const skiffRows = skiffs.map((cell, i) => (cell < 0 ? null : h("li", {},
    t("fl.skiff_at", { n: i + 1, cell: cellText(cat, cell) }), " ",
    (v.cargo?.[s]?.[i] || []).some(Boolean)
      ? (v.cargo[s][i]).map((n, c) => (n ? resourceChip(colours[c], n) : null)) : h("span", { class: "help" }, t("fl.no_cargo")))));
  return h("section", { class: `panel fl-player${s === v.seat ? " mine" : ""}`, dataset: { seat: s } },
    h("h2", {}, seatToken(ctx, s), " ", seatName(body, s), " ",
      h("span", { class: "chip" }, sky ? t("fl.skyside") : t("fl.sinkside")),
      s === v.first ? h("span", { class: "chip" }, t("fl.first_player")) : null),
    h("ul", { class: "stats icons" },
      iconStat("point", "fl.vp", v.vp?.[s]), iconStat("coin", "fl.coins", v.coins?.[s]),
      iconStat("toxicity", "fl.toxicity", v.tox?.[s] ?? 0), iconStat("survivor", "fl.survivors", v.rescued?.[s]),
      iconStat("crew-card", "fl.hand_size", v.hand_sizes?.[s])),
    h("ul", { class: "stats" },
      stat("fl.penalty", data.penalty[v.penalty?.[s] ?? 0]),
      stat("fl.stations", v.stations?.[s]),
      stat("fl.outposts", t("fl.outposts_left", { n: outpostsLeft, price: nextPrice ?? "—" })),
      v.floating?.[s] ? stat("fl.floating_outposts", v.floating[s]) : null),
    h("p", {}, h("span", { class: "label" }, t("fl.reserve")), " ",
      (v.reserve?.[s] || []).some(Boolean)
        ? (v.reserve[s]).map((n, c) => (n ? [resourceChip(colours[c], n), " "] : null)) : t("fl.none")),
    h("p", {}, h("span", { class: "label" }, t("fl.seals_placed")), " ",
      (cat.guilds || []).map((g, i) => `${guildName(g)} ${v.seals?.[s]?.[i] ?? 0}`).join(" · ")),
    !sky ? [h("h3", {}, t("fl.skiffs", { n: inPlay, max: data.skiffs })), h("ul", { class: "rows" }, skiffRows)] : null,
    h("h3", {}, t("fl.tiles_in_play", { n: tiles.length })),
    tiles.length ? h("ul", { class: "tile-list" }, tiles.map(([cell, e]) => h("li", {},
      h("strong", {}, cellText(cat, Number(cell))), " ", sky ? tileSkyText(cat, e[0]) : tileText(cat, e[0]),
      e[3] ? h("span", { class: "chip" }, t("fl.depleted")) : null,
      e[4] ? h("span", { class: "chip" }, t("fl.outpost")) : null)))
      : h("p", { class: "help" }, t("fl.none")),
    (v.tiles?.[s] || []).length ? [h("h3", {}, t("fl.tile_reserve")),
      h("ul", { class: "tile-list" }, v.tiles[s].map((tile) => h("li", {}, tileSkyText(cat, tile))))] : null,
    s !== v.seat && (v.hand?.[s] || []).length ? [h("h3", {}, t("fl.open_hand")),
      h("p", {}, v.hand[s].map((c) => cardName(cat, c) || t("fl.a_card")).join(", "))] : null,
    h("h3", {}, t("fl.discard_pile", { n: discard.length })),
    h("p", {}, discard.length ? discard.map((c) => cardName(cat, c) || t("fl.a_card")).join(", ") : t("fl.none")),
    retired.length ? [h("h3", {}, t("fl.retired")),
      h("p", {}, retired.map((c) => cardName(cat, c) || t("fl.a_card")).join(", "))] : null,
    (v.objectives?.[s] || []).length ? [h("h3", {}, t("fl.objectives_taken")),
      h("ul", { class: "cards" }, v.objectives[s].map((o) => h("li", {}, objectiveFace(o, sky ? "sky" : "sink"))))] : null);
}

/** Where a move is played, from the move's own fields: the hex (a tile placed or built, a
 * Skiff sailed, a tile depleted, an Outpost's site), the card in hand played or discarded,
 * the guild, the market's colour; a board control for the rest (a tile to place, a die
 * rerolled, a result resolved, "done", "skip"...). */
export function placeOf(move) {
  if (Number.isInteger(move?.cell)) return `[data-cell="${move.cell}"]`;
  switch (move?.type) {
    case "objective": return Number.isInteger(move.site) ? `[data-cell="${move.site}"]` : null;
    case "play": case "discard": return Number.isInteger(move.card) ? `#hand [data-card="${move.card}"]` : null;
    case "influence": case "recruit": case "seal": case "dial": case "wild":
      return typeof move.guild === "string" ? `[data-guild="${move.guild}"] > .guild-head` : null;
    case "resource": case "buy": case "sell":
      return typeof move.colour === "string" ? `[data-colour="${move.colour}"] .market-colour` : null;
    default: return controlPlace(CONTROLS[move?.type]?.(move) ?? null);
  }
}
