// Encyclopedia drawn from a seat's view: the round and its tile, the main board's action areas
// (Bank, Embassy, University, Academy) with their dice, the continents' expedition spaces, the
// expert and animal displays, the publication grid, each player's board (die spaces, reputation
// track, experts, animals with their research cubes) and, in solo, the AI's board.
// Board facts come from /play/data/encyclopedia.json (a copy of core's data), names and texts
// of the cards from the view's own catalog, every other word from the page's messages.
// What a space, an area or a slot gives or costs is drawn with the project's icons
// (js/icons.js) and numbers; its words are that drawing's accessible name and tooltip.

import { h, tableWrap } from "../dom.js";
import { t, tCount, tOr } from "../i18n.js";
import { icon } from "../icons.js";
import { seatName } from "../names.js";
import { boardControls, controlPlace } from "./controls.js";

const SVG = "http://www.w3.org/2000/svg";
const TYPES = ["I", "II", "III", "IV"];
// Moves with no place of their own: drawn as controls on the board (renderers/controls.js).
const CONTROLS = ["stop", "next", "finish", "decline"];
// Which of the seat's supplies a move that modifies the die (or pays) spends.
const SUPPLY_OF = { coin: "coins", boost: "tokens", recolour: "tokens", seal_die: "seals", seal_coins: "seals" };
// The icon of each thing a space gives or costs (js/icons.js), by the data's resource names.
const RES_ICON = { coins: "coin", rep: "reputation", vp: "point", tokens: "expedition-token", seals: "royal-seal",
  animal: "animal-card", expert: "expert-card" };
// The animals' classes drawn as creatures, each in a colour of its own.
const CLASS_COLOUR = { Mammal: "brown", Bird: "blue", Reptile: "yellow", Amphibian: "green" };
let data = null;

/** Load the board facts once. */
export async function prepare() {
  if (!data) data = await (await fetch("/play/data/encyclopedia.json")).json();
}

/** The whole table as `body.seat` sees it. */
export function render(body) {
  const v = body.view;
  const mine = body.seat !== null && body.seat === body.to_act ? body.legal_moves || [] : [];
  // Dice a legal move of this seat takes (from a player board, or for an additional action).
  const takeable = new Set(mine.filter((m) => ["take", "extra"].includes(m.type) && Number.isInteger(m.die)).map((m) => m.die));
  const ctx = { body, v, cat: v.catalog || {}, takeable };
  return h("div", { class: "enc" },
    overview(ctx),
    h("div", { class: "enc-grid" },
      h("div", { class: "enc-column" }, actionAreas(ctx), continents(ctx)),
      h("div", { class: "enc-column" }, expertDisplay(ctx), animalDisplay(ctx))),
    publications(ctx),
    players(ctx),
    aiBoard(ctx));
}

/** The engine's "move" event repeats the move's own label: the log shows it once. */
export function skipEvent(event) {
  return event.type === "move";
}

/** More words for a move's button: the card texts its label only names. */
export function moveDetail(move, body) {
  const cat = body.view?.catalog || {};
  if (move.type === "draft" && Array.isArray(move.cards)) {
    return move.cards.map((c) => `${animalName(cat, c)}: ${categoriesText(cat, c)}`).join(" · ");
  }
  if (move.type === "animal") return categoriesText(cat, move.card);
  if (move.type === "expert") return cat.experts?.[String(move.card)]?.text || null;
  if (move.type === "act" && data) return actionHelp(move.action);
  return null;
}

/** Dice placements grouped by die; dice to take grouped by whose board they are on. */
export function moveGroup(move, body) {
  const v = body.view || {};
  if (move.type === "place" && Number.isInteger(move.die)) {
    return dieText(v.catalog || {}, move.die, v.dval?.[move.die]);
  }
  if (move.type === "take" && Number.isInteger(move.owner)) return seatName(body, move.owner);
  return null;
}

// ------------------------------------------------------------------ small pieces

function continentName(cat, colour) {
  return cat.colours?.[colour] ?? t("enc.continent_n", { n: colour + 1 });
}

function animalName(cat, card) {
  return cat.animals?.[String(card)]?.name ?? null;
}

function expertName(cat, card) {
  return cat.experts?.[String(card)]?.name ?? null;
}

function categoriesText(cat, card) {
  const a = cat.animals?.[String(card)];
  if (!a) return "";
  return a.categories.map((c, i) => `${TYPES[i]} ${categoryName(c)}`).join(", ");
}

/** A category's name ("Forest" -> "Floresta"); the catalog's own word where the page has none. */
function categoryName(name) {
  return tOr(`enc.category.${name}`, name);
}

/** A category's icon (its data name lower-cased: "forest", "mammal"...), named in words when
 * `named`. */
function categoryIcon(name, named = false) {
  return icon(name.toLowerCase(), { label: named ? categoryName(name) : null, variant: CLASS_COLOUR[name] || null });
}

/** The data name of an animal's category of `type` ("forest", "mammal"... its icon's), from
 * the catalog's stable index (`category_ids`), never from its words; null if unknown. */
function categoryKey(animal, type) {
  return data.categories[type]?.[animal?.category_ids?.[type]] ?? null;
}

/** A number and an icon ("2 [coin]"), drawn for the eye: the element holding it is named in words. */
function gain(n, name, variant = null) {
  return h("span", { class: "gain" }, n === null || n === undefined ? null : String(n), icon(name, { variant }));
}

/** Icons with numbers standing for `words`: one image, the words its accessible name and tooltip. */
function pictured(words, cls, ...children) {
  return h("span", { class: `gains${cls ? ` ${cls}` : ""}`, role: "img", "aria-label": words, title: words }, ...children);
}

function sep(text) {
  return h("span", { class: "sep" }, text);
}

/** What a reward gives as icons with numbers ("2 [coin] 1 [royal seal]"); a dash for nothing. */
function rewardGains(reward) {
  const parts = Object.entries(reward || {}).map(([kind, n]) => gain(n, RES_ICON[kind] || "point"));
  return parts.length ? parts : [sep("—")];
}

/** What a die's value gives, by value ("[die] 1–2: 1 [token] · 3–4: 2 [token]..."), pairs that agree joined. */
function byValue(values, name) {
  const parts = [icon("die")];
  for (let i = 0; i < values.length; i += 2) {
    const pairs = values[i] === values[i + 1] ? [[`${i + 1}–${i + 2}`, values[i]]] : [[i + 1, values[i]], [i + 2, values[i + 1]]];
    for (const [range, n] of pairs) parts.push(h("span", { class: "gain" }, h("span", { class: "dim" }, `${range}:`), String(n), icon(name)));
  }
  return parts;
}

/** An action area's effect as icons (its words, `actionHelp`, are their name and tooltip). */
function actionGains(action) {
  const words = actionHelp(action);
  if (action === "bank") return pictured(words, null, gain(data.bank_coins, "coin"), sep("·"), gain(null, "first-player"));
  if (action === "embassy") return pictured(words, null, ...byValue(data.embassy_tokens, "expedition-token"));
  if (action === "academy") return pictured(words, null, gain(null, "animal-card"), sep("+"), ...byValue(data.academy_rep, "reputation"));
  if (action === "university") return pictured(words, null, gain(null, "expert-card"), sep("+"), gain(1, "expedition-token"));
  if (action === "publish") {
    return pictured(words, null, gain(null, "animal-card"), sep("→"), gain(null, "cube"), sep("→"), gain(null, "point"));
  }
  if (action === "expedition") {
    return pictured(words, null, ...data.research_cost.map((cost, i) => h("span", { class: "gain" },
      h("span", { class: "dim" }, TYPES[i]), String(cost), icon("die"))));
  }
  return null;
}

function dieColour(d) {
  return Math.floor(d / 4);
}

function dieText(cat, d, value) {
  return t("enc.die", { colour: continentName(cat, dieColour(d)), value: value ?? "?" });
}

/** A die drawn as a die: its continent's colour and its value in pips; its words (colour,
 * value, whether this seat may take it) are its accessible name and tooltip. */
function die(ctx, d) {
  const value = ctx.v.dval?.[d];
  const takeable = ctx.takeable?.has(d);
  const name = takeable ? `${dieText(ctx.cat, d, value)} · ${t("enc.you_may_take")}` : dieText(ctx.cat, d, value);
  return h("span", { class: `die c${dieColour(d)}${takeable ? " takeable" : ""}`, role: "img", "aria-label": name, title: name, dataset: { die: d } },
    dieFace(value));
}

// Where a face's pips sit, by value (a 30-unit square: 8 a corner, 15 the middle, 22 the far side).
const PIPS = {
  1: [[15, 15]],
  2: [[8, 8], [22, 22]],
  3: [[8, 8], [15, 15], [22, 22]],
  4: [[8, 8], [22, 8], [8, 22], [22, 22]],
  5: [[8, 8], [22, 8], [15, 15], [8, 22], [22, 22]],
  6: [[8, 8], [22, 8], [8, 15], [22, 15], [8, 22], [22, 22]],
};

/** A die's face: its pips (an SVG drawn here, in the text's colour), or its value as a
 * figure when it has no face of pips (unknown, or raised past 6). Hidden from a screen
 * reader: the die's name says the value. */
function dieFace(value) {
  const pips = PIPS[value];
  if (!pips) return h("span", { class: "die-value", "aria-hidden": "true" }, String(value ?? "?"));
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 30 30");
  svg.setAttribute("class", "pips");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const [cx, cy] of pips) {
    const pip = document.createElementNS(SVG, "circle");
    pip.setAttribute("cx", cx);
    pip.setAttribute("cy", cy);
    pip.setAttribute("r", "3.2");
    svg.append(pip);
  }
  return svg;
}

function dice(ctx, list) {
  // No die: an empty space drawn dashed, its words its name.
  return list?.length ? h("span", { class: "dice" }, list.map((d) => die(ctx, d)))
    : h("span", { class: "die-slot", role: "img", "aria-label": t("enc.no_dice"), title: t("enc.no_dice") });
}

/** A seat's token (its number in its colour), named; inside a drawing already named in words
 * (`drawn`), a picture only. */
function seatToken(ctx, seat, drawn = false) {
  const name = seatName(ctx.body, seat);
  return drawn ? h("span", { class: `token p${seat}`, "aria-hidden": "true" }, String(seat + 1))
    : h("span", { class: `token p${seat}`, title: name, role: "img", "aria-label": name }, String(seat + 1));
}

/** "2 coins", "1 expedition token", "3 VP"... */
function resourceText(kind, n) {
  return t(`enc.res.${kind}`, { n });
}

function rewardText(reward) {
  const parts = Object.entries(reward || {}).map(([k, n]) => resourceText(k, n));
  return parts.length ? parts.join(", ") : t("enc.no_reward");
}

function valueTable(values) {
  // values by die value 1..6: shown as "1-2: 1 · 3-4: 2 · 5-6: 3" where pairs agree
  const parts = [];
  for (let i = 0; i < values.length; i += 2) {
    parts.push(values[i] === values[i + 1] ? `${i + 1}–${i + 2}: ${values[i]}` : `${i + 1}: ${values[i]} · ${i + 2}: ${values[i + 1]}`);
  }
  return parts.join(" · ");
}

function actionHelp(action) {
  if (action === "bank") return tCount("enc.help.bank", data.bank_coins, { n: data.bank_coins });
  if (action === "embassy") return t("enc.help.embassy", { table: valueTable(data.embassy_tokens) });
  if (action === "academy") return t("enc.help.academy", { table: valueTable(data.academy_rep) });
  if (action === "university") return t("enc.help.university");
  if (action === "expedition") return t("enc.help.expedition", { costs: data.research_cost.join(" / ") });
  if (action === "publish") return t("enc.help.publish");
  return null;
}

// Sections fold (a phone's screen is short).
const folded = new Set();

function section(id, title, ...children) {
  const details = h("details", { class: "panel enc-section", id, open: !folded.has(id) },
    h("summary", {}, h("h2", {}, title)), ...children);
  details.addEventListener("toggle", () => {
    if (details.open) folded.delete(id);
    else folded.add(id);
  });
  return details;
}

/** A player's supplies and scores: an icon named in words, and its number. */
function stats(v, s) {
  const item = (name, key, value) => h("li", { title: t(key) }, icon(name, { label: t(key) }), h("strong", {}, String(value ?? "—")));
  return h("ul", { class: "stats icons" },
    item("point", "enc.vp", v.vp?.[s]), item("coin", "enc.coins", v.coins?.[s]), item("expedition-token", "enc.tokens", v.tokens?.[s]),
    item("royal-seal", "enc.seals", v.seals?.[s]), item("reputation", "enc.reputation", v.rep?.[s]),
    item("publish", "enc.published_n", v.published_n?.[s]));
}

// ------------------------------------------------------------------ sections

// Each phase of a round drawn as icons (its words, enc.phase.*, are their name and tooltip).
const PHASE_ICONS = {
  draft: ["animal-card"], tile_pick: ["round-tile"], place: ["die"], turns: ["die", "→", "university"],
  extra: ["royal-seal", "+"], over: ["hourglass"],
};

/** The round's summary drawn as icons and numbers: the round of the game and its phase, the
 * round tile (what it brings) and how many are face down, the turn order (the seats' tokens,
 * the first player's marked), the dice left in the bag by colour and the decks' sizes. Each
 * drawing is named in words (its tooltip and accessible name, tap-to-explain on a phone). */
function overview(ctx) {
  const { v, cat } = ctx;
  const order = Array.from({ length: v.seat_count }, (_, k) => (v.first + k) % v.seat_count);
  const round = Math.min(v.round, data.rounds);
  const phase = tOr(`enc.phase.${v.phase}`, v.phase);
  const tile = tileEffect(v);
  const tileWords = `${t("enc.round_tile")} ${cat.tile || t("enc.no_tile")}`;
  const leftWords = `${t("enc.round_tile")} ${t("enc.tiles_left", { n: v.tiles_left ?? 0 })}`;
  const seatWords = (s) => `${seatName(ctx.body, s)}${s === v.first ? ` (${t("enc.first_player")})` : ""}`;
  const bag = (v.bag || []).map((n, c) => ({ c, n }));
  const bagWords = `${t("enc.bag")} ${bag.map(({ c, n }) => `${continentName(cat, c)} ×${n}`).join(", ")}`;
  const deckWords = t("enc.decks", {
    experts: tCount("enc.deck_experts", v.xdeck ?? 0, { n: v.xdeck ?? 0 }),
    animals: tCount("enc.deck_animals", v.adeck ?? 0, { n: v.adeck ?? 0 }),
  });
  return h("section", { class: "panel enc-overview", id: "enc-round" },
    h("p", { class: "enc-legend enc-status" },
      pictured(v.round ? t("enc.round", { round, rounds: data.rounds }) : t("enc.setup"), "enc-round-n",
        icon("round"), h("strong", {}, v.round ? `${round}/${data.rounds}` : "—")),
      pictured(phase, "enc-phase", ...(PHASE_ICONS[v.phase] || []).map((x) => (x.length > 1 ? icon(x) : sep(x)))),
      pictured(tileWords, "enc-tile-face", icon("round-tile"),
        ...(tile ? tilePicture(tile) : [sep("—")])),
      pictured(leftWords, "enc-tiles-left", icon("round-tile"), `×${v.tiles_left ?? 0}`)),
    h("p", { class: "enc-legend" },
      pictured(`${t("enc.turn_order")} ${order.map(seatWords).join(" › ")}`, "enc-order", icon("turn-order"),
        order.map((s, i) => [i ? sep("›") : null, seatToken(ctx, s, true), s === v.first ? icon("first-player") : null])),
      pictured(bagWords, "enc-bag", icon("bag"), bag.map(({ c, n }) => h("span", { class: "gain" },
        h("span", { class: `die small c${c}` }, ""), `×${n}`))),
      pictured(deckWords, "enc-decks", gain(v.xdeck ?? 0, "expert-card"), gain(v.adeck ?? 0, "animal-card"))),
    v.to_place?.length ? h("p", {}, h("span", { class: "label" }, t("enc.to_place")), " ", dice(ctx, v.to_place)) : null,
    dieInHand(ctx),
    supply(ctx),
    boardControls(ctx.body, (m) => (CONTROLS.includes(m.type) ? m.type : null)));
}

// The icon of what each round tile's effect brings (by the data's effect names).
const TILE_ICONS = {
  token: "expedition-token", coins: "coin", expert: "expert-card", animal: "animal-card", extra_die: "die",
};

/** A round tile's effect as icons: "+3 [coin]", or "—" for a tile with no effect. */
function tilePicture(tile) {
  const name = TILE_ICONS[tile.effect];
  return name ? [sep("→"), sep(`+${tile.n}`), icon(name)] : [sep("→"), sep("—")];
}

/** This round's tile, {effect, n} (null before the first is flipped). */
function tileEffect(v) {
  if (!(v.tiles || []).length || v.tiles.length < v.round) return null;
  return data.tiles?.[v.tiles.at(-1)] ?? null;
}

/** This seat's coins, expedition tokens and royal seals, near the die in hand: the places of
 * the moves that spend them (a coin: +1; a token: +2 or a colour; a seal: +5 or 5 coins). */
function supply(ctx) {
  const { v, body } = ctx;
  if (body.seat === null || body.seat === undefined || v.automa_seats?.[String(body.seat)]) return null;
  const s = body.seat;
  const item = (kind, key) => {
    const words = `${t("enc.your_supply")} ${t(key)} ${v[kind]?.[s] ?? 0}`;
    return h("span", { class: "supply chip", role: "img", "aria-label": words, title: words, dataset: { supply: kind } },
      icon(RES_ICON[kind]), " ", h("strong", {}, String(v[kind]?.[s] ?? 0)));
  };
  return h("p", { class: "enc-supply enc-legend", id: "enc-supply" },
    item("coins", "enc.coins"), " ", item("tokens", "enc.tokens"), " ", item("seals", "enc.seals"));
}

/** The die a player took and is modifying (the top decision: colour and value so far). */
function dieInHand(ctx) {
  const frame = (ctx.v.stack || []).at(-1);
  if (!Array.isArray(frame) || frame[0] !== "mod") return null;
  const [, seat, , colour, value, plus] = frame;
  const shown = value;
  const name = t("enc.die", { colour: continentName(ctx.cat, colour), value })
    + (plus ? ` +${plus} (${t("enc.action.expedition")})` : "");
  return h("p", { id: "die-in-hand" }, h("span", { class: "label" }, t("enc.die_in_hand", { seat: seatName(ctx.body, seat) })), " ",
    h("span", { class: `die c${colour}`, role: "img", "aria-label": name, title: name }, dieFace(shown)), " ", name);
}

function actionAreas(ctx) {
  const { v } = ctx;
  const areas = data.areas.map((area, i) => h("li", { class: "area", dataset: { area } },
    h("div", { class: "area-head", dataset: { action: area } },
      icon(area), h("strong", {}, t(`enc.action.${area}`)),
      area === "bank" && v.bank_used ? h("span", { class: "chip" }, t("enc.bank_used")) : null),
    h("div", { class: "area-gives" }, actionGains(area)),
    h("div", {}, dice(ctx, v.areas?.[i]))));
  const publish = h("li", { class: "area", dataset: { area: "publish" } },
    h("div", { class: "area-head", dataset: { action: "publish" } },
      icon("publish"), h("strong", {}, t("enc.action.publish"))),
    h("div", { class: "area-gives" }, actionGains("publish")),
    h("div", {}, dice(ctx, v.on_cards)));
  return section("enc-main-board", t("enc.main_board"), h("ul", { class: "areas" }, areas, publish));
}

function continents(ctx) {
  const { v, cat } = ctx;
  const rows = (v.cont || []).map((slots, c) => h("li", { class: `continent c${c}-edge`, dataset: { continent: c } },
    h("strong", {}, continentName(cat, c)),
    h("ol", { class: "exp-spaces" }, slots.map((d, i) => {
      const space = data.continent_spaces[i];
      return h("li", { class: d >= 0 ? "taken" : "free" },
        h("div", {}, pictured(t("enc.space_reward", { rep: space.rep, bonus: space.bonus }), null,
          gain(space.rep, "reputation"), gain(`+${space.bonus}`, "die"))),
        h("div", {}, d >= 0 ? die(ctx, d)
          : h("span", { class: "die-slot", role: "img", "aria-label": t("enc.free"), title: t("enc.free") })));
    }))));
  return section("enc-continents", t("enc.expedition"),
    h("div", { class: "area-head", dataset: { action: "expedition" } },
      icon("expedition"), h("strong", {}, t("enc.action.expedition"))),
    h("p", { class: "area-gives" }, actionGains("expedition")),
    h("ul", { class: "continents" }, rows));
}

/** An expert card's effect as icons ("+3 [coin]"; "∞ +1 [die] [academy]"; "[hourglass] 1
 * [point] / 2 [expert]"), from the page's data; `words` (the catalog's text) are its name. */
function expertEffect(card, words) {
  const x = data.experts?.[card];
  if (!x) return words;
  let parts;
  if (x.when === "immediate") parts = rewardGains(x.gain);
  else if (x.hook === "value") parts = [sep("∞"), gain(`+${x.n}`, "die"), icon(x.action)];
  else if (x.hook === "bank") parts = [sep("∞"), gain(`+${x.n}`, "coin"), icon("bank")];
  else if (x.hook === "published_colour") parts = [icon("hourglass"), gain(x.n, "point"), sep("/"), gain(null, "publish")];
  else if (x.hook === "experts") parts = [icon("hourglass"), gain(x.n, "point"), sep("/"), gain(x.per, "expert-card")];
  else if (x.hook === "seals") parts = [icon("hourglass"), gain(x.n, "point"), sep("/"), gain(null, "royal-seal"), sep(`≤${x.max}`)];
  else return words;
  return pictured(words, "expert-effect", ...parts);
}

function expertCard(ctx, card, extra = null) {
  const x = ctx.cat.experts?.[String(card)];
  // The card is a box inside its list item: a place (role=button) may not be an <li>.
  return h("li", { class: "card-slot" }, h("div", { class: `card-box c${x?.colour ?? 0}-edge`,
    dataset: { expert: card } },
    h("strong", {}, x?.name ?? t("enc.expert_card")), " ",
    x ? h("span", { class: "help" }, `(${continentName(ctx.cat, x.colour)})`) : null,
    x ? h("div", {}, expertEffect(card, x.text)) : null, extra));
}

function animalCard(ctx, card, owner = null) {
  const a = ctx.cat.animals?.[String(card)];
  const cubes = owner === null ? 0 : ctx.v.cubes?.[card] || 0;
  const slots = (a?.categories || []).map((c, i) => {
    const has = cubes >> i & 1;
    // The slot's words in a span: the place of researching it (a place may not be an <li>).
    // Its words (type, category, researched or its cost) are its name and tooltip; the eye
    // gets the category's icon, and a cube or the cost in die points.
    const state = owner === null ? null : has ? t("enc.researched") : t("enc.research_cost", { n: data.research_cost[i] });
    const words = `${TYPES[i]} ${categoryName(c)}${state ? ` · ${state}` : ""}`;
    return h("li", { class: has ? "cube" : null }, h("span", {
      class: "cat", role: "img", "aria-label": words, title: words, dataset: owner === null ? {} : { slot: i } },
      h("span", { class: "type" }, TYPES[i]), " ", categoryKey(a, i) ? categoryIcon(categoryKey(a, i)) : null, " ", h("span", { class: "cat-name" }, categoryName(c)), " ",
      owner === null ? null : has ? gain(null, "cube") : gain(data.research_cost[i], "die")));
  });
  return h("li", { class: "card-slot" }, h("div", { class: `card-box animal c${a?.colour ?? 0}-edge`,
    dataset: { animal: card } },
    h("strong", {}, a?.name ?? t("enc.animal_card")), " ",
    a ? h("span", { class: "help" }, `(${continentName(ctx.cat, a.colour)})`) : null,
    h("ul", { class: "slots" }, slots)));
}

function expertDisplay(ctx) {
  const { v } = ctx;
  return section("enc-experts", t("enc.expert_display"),
    v.xdisplay?.length ? h("ul", { class: "cards" }, v.xdisplay.map((c) => expertCard(ctx, c)))
      : h("p", { class: "help" }, t("enc.none")));
}

function animalDisplay(ctx) {
  const { v } = ctx;
  return section("enc-animals", t("enc.animal_display"),
    v.adisplay?.length ? h("ul", { class: "cards" }, v.adisplay.map((c) => animalCard(ctx, c)))
      : h("p", { class: "help" }, t("enc.none")));
}

function publications(ctx) {
  const { v } = ctx;
  const seats = Array.from({ length: v.seat_count }, (_, s) => s);
  const rows = data.categories.map((names, type) => h("tr", {},
    h("th", { scope: "row" }, t("enc.type_n", { type: TYPES[type] }),
      h("div", {}, pictured(t("enc.vp_per_cube", { n: data.publish_vp[type] }), null,
        gain(data.publish_vp[type], "point"), sep("/"), gain(null, "cube")))),
    names.map((name, k) => h("td", {}, h("div", { class: "pub-cell" }, categoryIcon(name, true)),
      seats.map((s) => (v.grid?.[s]?.[type * 4 + k] ? h("span", { class: "legend-item" }, seatToken(ctx, s), `×${v.grid[s][type * 4 + k]} `) : null))))));
  return section("enc-publications", t("enc.publications"),
    h("p", { class: "area-gives" }, pictured(t("enc.publish_min", {
      continental: data.publish_continental, types: data.publish_min.map((n, i) => `${TYPES[i]} ${n}+`).join(", "),
    }), null, icon("die"), gain(`${data.publish_continental}+`, "continent"),
    data.publish_min.map((n, i) => h("span", { class: "gain" }, h("span", { class: "dim" }, TYPES[i]), `${n}+`)))),
    tableWrap(t("enc.publications"), h("table", { class: "enc-grid-table" }, h("tbody", {}, rows))));
}

function players(ctx) {
  const { v } = ctx;
  const order = Array.from({ length: v.seat_count }, (_, s) => s).filter((s) => !v.automa_seats?.[String(s)]);
  if (v.seat !== null && v.seat !== undefined) order.sort((a, b) => (a === v.seat ? -1 : b === v.seat ? 1 : a - b));
  return h("div", { class: "enc-players" }, order.map((s) => playerBoard(ctx, s)));
}

function dieSpaces(ctx, s) {
  return h("ul", { class: "die-spaces" }, data.die_spaces.map((space, i) => h("li", { dataset: { space: space.id } },
    pictured(`${t("enc.die_space", { n: i + 1 })} ${t("enc.owner_gets", { reward: rewardText(space.reward) })}`, "die-space",
      h("span", { class: "dim" }, `${i + 1}`), ...rewardGains(space.reward)), " ",
    dice(ctx, ctx.v.spaces?.[s]?.[i]))));
}

function reputation(ctx, s) {
  const rep = ctx.v.rep?.[s] ?? 0;
  const cells = [];
  for (let i = 0; i <= data.reputation.length; i++) {
    const bonus = data.reputation.bonuses[String(i)];
    const text = bonus ? rewardText(bonus) : null;
    cells.push(h("li", { class: `${i === Math.min(rep, data.reputation.length) ? "here" : ""}${i < rep ? " passed" : ""}`, title: text || "" },
      h("span", { class: "rep-n" }, String(i)), text ? pictured(text, "rep-bonus", ...rewardGains(bonus)) : null));
  }
  return [h("h3", {}, t("enc.reputation_track", { n: rep })),
    h("ol", { class: "rep-track", "aria-label": t("enc.reputation_track", { n: rep }) }, cells),
    rep > data.reputation.length ? h("p", { class: "help" }, t("enc.beyond_track", { n: data.reputation.vp_beyond })) : null];
}

function expertSpaces(ctx, s) {
  const stacks = ctx.v.experts?.[s] || [];
  const mine = s === ctx.body.seat;
  // The space's title is the place of an expert put on top of it or under it (this seat's):
  // an expert card and its number, its words its name and tooltip.
  const label = (i) => h("span", {
    class: "label expert-space", role: "img", "aria-label": t("enc.expert_space", { n: i + 1 }),
    title: t("enc.expert_space", { n: i + 1 }), dataset: mine ? { expertSpace: i } : {},
  }, icon("expert-card"), String(i + 1));
  return h("ol", { class: "expert-spaces" }, stacks.map((stack, i) => h("li", {},
    label(i), " ",
    stack.length ? h("ul", { class: "cards" }, expertCard(ctx, stack[stack.length - 1],
      stack.length > 1 ? h("div", { class: "help" }, t("enc.covered", {
        n: stack.length - 1, names: stack.slice(0, -1).map((c) => expertName(ctx.cat, c) || t("enc.expert_card")).join(", "),
      })) : null)) : h("span", { class: "card-slot-empty", role: "img", "aria-label": t("enc.empty"), title: t("enc.empty") }))));
}

function playerBoard(ctx, s) {
  const { v, body } = ctx;
  const hand = v.hand?.[s] || [];
  const published = v.published?.[s] || [];
  return h("section", { class: `panel enc-player${s === v.seat ? " mine" : ""}`, dataset: { seat: s } },
    h("h2", {}, seatToken(ctx, s), " ", seatName(body, s), s === v.first ? h("span", { class: "chip" }, t("enc.first_player")) : null),
    stats(v, s),
    h("h3", {}, t("enc.die_spaces")), dieSpaces(ctx, s),
    reputation(ctx, s),
    h("h3", {}, t("enc.experts")), expertSpaces(ctx, s),
    h("h3", {}, t("enc.animals", { n: hand.length })),
    hand.length ? h("ul", { class: "cards animals", id: s === v.seat ? "my-animals" : null }, hand.map((c) => animalCard(ctx, c, s)))
      : h("p", { class: "help" }, t("enc.none")),
    h("h3", {}, t("enc.published_pile", { n: published.length })),
    publishedPile(ctx, s, published));
}

/** A player's published animals, each a small card drawn in its continent's colour with its
 * categories' icons (types I-IV in order); its words (name, continent, categories) are its
 * name and tooltip. */
function publishedPile(ctx, s, published) {
  const score = pileScore(ctx, s, published);
  if (!published.length) return [h("p", { class: "help" }, t("enc.none")), score];
  return [h("ul", { class: "pub-pile" }, published.map((card) => {
    const a = ctx.cat.animals?.[String(card)];
    const words = a ? `${a.name} (${continentName(ctx.cat, a.colour)}): ${categoriesText(ctx.cat, card)}` : t("enc.animal_card");
    return h("li", {}, h("span", { class: `pub-animal c${a?.colour ?? 0}-edge`, role: "img", "aria-label": words, title: words,
      dataset: { published: card } },
    icon("animal-card"), (a?.categories || []).map((_, i) => (categoryKey(a, i) ? categoryIcon(categoryKey(a, i)) : null))));
  })), score];
}

/** What the published animals and the experts (active or covered) of seat `s` score at the
 * end by continent (E20.2(b), the view's `continent_vp`), drawn as the colours with their
 * counts and the VP; its words its name. Null with none of either. */
function pileScore(ctx, s, published) {
  const counts = (ctx.cat.colours || []).map(() => 0);
  const colourOf = (entry) => (Number.isInteger(entry?.colour) && entry.colour < counts.length ? entry.colour : null);
  const held = (ctx.v.experts?.[s] || []).flat();
  for (const c of published) if (colourOf(ctx.cat.animals?.[String(c)]) !== null) counts[ctx.cat.animals[String(c)].colour] += 1;
  for (const c of held) if (colourOf(ctx.cat.experts?.[String(c)]) !== null) counts[ctx.cat.experts[String(c)].colour] += 1;
  const vp = ctx.v.continent_vp?.[s];
  if (vp === undefined || !counts.some((n) => n)) return null;
  const shown = counts.map((n, c) => ({ n, c })).filter(({ n }) => n);
  const words = t("enc.pile_score", { vp, counts: shown.map(({ n, c }) => `${continentName(ctx.cat, c)} ${n}`).join(", ") });
  return h("p", {}, pictured(words, "pile-score", icon("hourglass"), shown.map(({ n, c }) => h("span", { class: "gain" },
    h("span", { class: `die small c${c}` }, ""), `×${n}`)), sep("="), gain(vp, "point")));
}

/** The solo AI's level card: its level as rising bars and what it scores at the end (VP per
 * published animal), drawn; its words (the level's name and the sentence) its name and
 * tooltip. Hidden while drawn at random and not shown. */
function aiLevel(ai, scoring) {
  if (!scoring) return [h("span", { class: "label" }, t("enc.scoring_card")), " ", h("em", {}, t("enc.hidden_card"))];
  const levels = Object.keys(data.scorings).length;
  const name = tOr(`enc.scoring.${ai.scoring}`, scoring.name);
  const words = `${t("enc.scoring_card")} ${name} (${t("enc.level_of", { n: ai.scoring, max: levels })}) — ${t("enc.ai_scoring", {
    published: scoring.per_published, expert: scoring.per_expert, rep: scoring.per_reputation })}`;
  return pictured(words, "ai-level", icon(`level-${Math.min(Number(ai.scoring), 3)}`), sep(`${ai.scoring}/${levels}`), sep("·"),
    icon("hourglass"), gain(scoring.per_published, "point"), sep("/"), gain(null, "publish"));
}

function aiBoard(ctx) {
  const { v, cat, body } = ctx;
  if (!v.ai) return null;
  const seat = Number(Object.keys(v.automa_seats || {})[0] ?? 1);
  const ai = v.ai;
  const behaviour = ai.behaviour ? data.behaviours[String(ai.behaviour)] : null;
  // The order of the procedure this game was set up under (absent: procedure 1).
  const order = behaviour && (data.behaviour_orders_by_procedure[String(ai.procedure || 1)]
    ?.[String(ai.behaviour)] || behaviour.priority);
  const scoring = ai.scoring ? data.scorings[String(ai.scoring)] : null;
  const published = v.published?.[seat] || [];
  return h("section", { class: "panel enc-player ai", id: "ai-board", dataset: { seat } },
    h("h2", {}, seatToken(ctx, seat), " ", t("enc.ai_board", { name: seatName(body, seat) })),
    stats(v, seat),
    h("p", {}, h("span", { class: "label" }, t("enc.behaviour_card")), " ",
      behaviour ? [h("strong", {}, tOr(`enc.behaviour.${ai.behaviour}`, behaviour.name)), " — ",
        pictured(t("enc.ai_priority", { actions: order.map((a) => t(`enc.action.${a}`)).join(" › ") }), "ai-order",
          order.map((a, i) => [i ? sep("›") : null, icon(a)]))]
        : h("em", {}, t("enc.hidden_card"))),
    h("p", {}, aiLevel(ai, scoring)),
    h("p", { class: "enc-legend" }, pictured(
      `${t("enc.continent_priority")} ${(ai.priority || []).map((c) => continentName(cat, c)).join(" › ")}`, "ai-continents",
      icon("continent"), (ai.priority || []).map((c, i) => [i ? sep("›") : null, h("span", { class: `die small c${c}` }, "")]))),
    h("h3", {}, t("enc.die_spaces")), dieSpaces(ctx, seat),
    h("h3", {}, t("enc.experts")), expertSpaces(ctx, seat),
    h("h3", {}, t("enc.animals", { n: (v.hand?.[seat] || []).length })),
    (v.hand?.[seat] || []).length ? h("ul", { class: "cards animals" }, v.hand[seat].map((c) => animalCard(ctx, c, seat)))
      : h("p", { class: "help" }, t("enc.none")),
    h("h3", {}, t("enc.published_pile", { n: published.length })),
    publishedPile(ctx, seat, published));
}

/** Where a move is played on the board, from the move's own fields: the die placed, taken or
 * re-rolled; the animal or expert card taken; the action area acted on; the supply a
 * modification spends; this seat's expert space; the animal in hand published from, joined
 * or filed, and its research slot; a board control for the rest ("Stop", "Finish
 * publishing"...). A move of the starting draft is played on its first animal (the place
 * then lists its pairs). */
export function placeOf(move) {
  const card = (kind) => (Number.isInteger(move.card) ? `[data-${kind}="${move.card}"]` : null);
  switch (move?.type) {
    case "place": case "take": case "extra":
      return Number.isInteger(move.die) ? `[data-die="${move.die}"]` : null;
    case "animal": case "focus": case "join": case "discard": return card("animal");
    case "expert": return card("expert");
    case "draft":
      return Array.isArray(move.cards) && Number.isInteger(move.cards[0]) ? `[data-animal="${move.cards[0]}"]` : null;
    case "research":
      return Number.isInteger(move.card) && Number.isInteger(move.slot)
        ? `[data-animal="${move.card}"] [data-slot="${move.slot}"]` : null;
    case "act": return typeof move.action === "string" ? `[data-action="${move.action}"]` : null;
    case "coin": case "boost": case "recolour": case "seal_die": case "seal_coins":
      return `[data-supply="${SUPPLY_OF[move.type]}"]`;
    case "top": case "under":
      return Number.isInteger(move.space) ? `[data-expert-space="${move.space}"]` : null;
    default:
      return CONTROLS.includes(move?.type) ? controlPlace(move.type) : null;
  }
}
