// The project's own small icons (issue 30, "drawn as a board"): a coin, a victory point,
// knowledge, a wax seal, a stamp, a ship... each a few hand-written SVG shapes on a 24×24
// grid, drawn here (no fetched asset). Their colours are classes of app.css (.icon .gold...),
// so a theme changes them in one place. An icon is either an image named in the page's
// language by the caller, or a picture beside words that already say it (hidden from screen
// readers).

const SVG = "http://www.w3.org/2000/svg";

// Each icon: its shapes, [tag, attributes], drawn in order. "class" picks a colour of
// app.css; "ink" is an outline in the text's colour, "solid" a fill in it.
const SHAPES = {
  coin: [
    ["circle", { cx: 12, cy: 12, r: 9, class: "gold ink" }],
    ["circle", { cx: 12, cy: 12, r: 5.5, class: "thin" }],
  ],
  // A laurel wreath: two branches of leaves (the right one the left one mirrored).
  point: [
    ["path", { d: "M11 21.5C5.5 20 3 13.5 5.5 5M13 21.5C18.5 20 21 13.5 18.5 5", class: "stem" }],
    ...[[9.2, 18.6, -86], [6.9, 21.4, -16], [7.6, 16.6, -63], [4.4, 18.3, 7], [6.5, 13.7, -45],
      [3, 14.4, 25], [6.4, 10, -30], [2.8, 9.7, 40], [7, 6.2, -20], [3.5, 5.3, 50]]
      .flatMap(([cx, cy, turn]) => [[cx, cy, turn], [24 - cx, cy, -turn]])
      .map(([cx, cy, turn]) => ["ellipse", { cx, cy, rx: 1.3, ry: 2.5, transform: `rotate(${turn} ${cx} ${cy})`, class: "leaf" }]),
  ],
  // An open book: knowledge kept for good (dark) or for the turn (pale).
  knowledge: [
    ["path", { d: "M2.5 6Q7 4 12 6.5Q17 4 21.5 6V18.5Q17 16.5 12 19Q7 16.5 2.5 18.5Z", class: "knowledge ink" }],
    ["path", { d: "M12 6.5V19", class: "thin" }],
  ],
  "knowledge-temporary": [
    ["path", { d: "M2.5 6Q7 4 12 6.5Q17 4 21.5 6V18.5Q17 16.5 12 19Q7 16.5 2.5 18.5Z", class: "paper ink dashed" }],
    ["path", { d: "M12 6.5V19M5 9.5Q7.5 8.5 10 10M14 10Q16.5 8.5 19 9.5", class: "thin" }],
  ],
  // The tree of the theory of evolution: one trunk, branching.
  evolution: [
    ["path", { d: "M12 21.5V12M12 14.5L7 9.5M12 12L17 7M7 9.5L4.5 5M7 9.5L9.5 4.5M17 7L14.5 3M17 7L20.5 4.5", class: "branch" }],
    ...[[4.5, 5], [9.5, 4.5], [14.5, 3], [20.5, 4.5]].map(([cx, cy]) => ["circle", { cx, cy, r: 1.6, class: "green" }]),
  ],
  objective: [
    ["circle", { cx: 12, cy: 12, r: 9, class: "paper ink" }],
    ["circle", { cx: 12, cy: 12, r: 5.5, class: "thin" }],
    ["circle", { cx: 12, cy: 12, r: 2.2, class: "red" }],
  ],
  // A wax seal: its colour from the class of the whole icon (wax-G, wax-B...).
  seal: [
    ["path", { d: "M12 2.5l2.4 1.6 2.9-.2 1.2 2.6 2.6 1.2-.2 2.9 1.6 2.4-1.6 2.4.2 2.9-2.6 1.2-1.2 2.6-2.9-.2L12 21.5l-2.4-1.6-2.9.2-1.2-2.6-2.6-1.2.2-2.9L1.5 12l1.6-2.4-.2-2.9 2.6-1.2 1.2-2.6 2.9.2Z", class: "wax" }],
    ["circle", { cx: 12, cy: 12, r: 5, class: "wax-ring" }],
  ],
  stamp: [
    ["rect", { x: 4.5, y: 3.5, width: 15, height: 17, class: "paper ink dashed" }],
    ["rect", { x: 7.5, y: 6.5, width: 9, height: 8, class: "red" }],
    ["path", { d: "M7.5 17.5H16.5", class: "thin" }],
  ],
  envelope: [
    ["rect", { x: 2.5, y: 5.5, width: 19, height: 13, rx: 1, class: "paper ink" }],
    ["path", { d: "M2.5 6L12 13.5L21.5 6", class: "thin" }],
  ],
  // Footprints: an explorer walking inland.
  explore: [
    ["ellipse", { cx: 8, cy: 15.5, rx: 2.8, ry: 4.3, class: "boot" }],
    ["ellipse", { cx: 16, cy: 8.5, rx: 2.8, ry: 4.3, class: "boot" }],
    ["circle", { cx: 8, cy: 21.3, r: 1.3, class: "boot" }],
    ["circle", { cx: 16, cy: 14.3, r: 1.3, class: "boot" }],
  ],
  ship: [
    ["path", { d: "M12 2.5V15", class: "branch" }],
    ["path", { d: "M12.8 3.5L19.5 13H12.8Z", class: "paper ink" }],
    ["path", { d: "M11.2 6L6 13H11.2Z", class: "paper ink" }],
    ["path", { d: "M2.5 15H21.5L18.5 20H5.5Z", class: "wood" }],
  ],
  // A mortarboard: the academy, where wax seals are taken.
  academy: [
    ["path", { d: "M6 11V16Q12 19.5 18 16V11", class: "solid" }],
    ["path", { d: "M1.5 9L12 4L22.5 9L12 14Z", class: "solid" }],
    ["path", { d: "M20 9.5V15.5", class: "thin" }],
    ["circle", { cx: 20, cy: 16.5, r: 1.2, class: "gold" }],
  ],
  // A magnifying glass: a lens location, unlocked with coins.
  lens: [
    ["path", { d: "M14.5 14.5L21 21", class: "handle" }],
    ["circle", { cx: 10, cy: 10, r: 6.5, class: "glass ink" }],
  ],
  padlock: [
    ["path", { d: "M8 11V7.5a4 4 0 0 1 8 0V11", class: "shackle" }],
    ["rect", { x: 4.5, y: 10.5, width: 15, height: 11, rx: 2, class: "gold ink" }],
    ["path", { d: "M12 14.5V17.5", class: "keyhole" }],
  ],
  museum: [
    ["path", { d: "M2.5 9L12 3.5L21.5 9Z", class: "stone ink" }],
    ...[5, 10.75, 16.5].map((x) => ["rect", { x, y: 10.5, width: 2.5, height: 7, class: "stone ink" }]),
    ["rect", { x: 2.5, y: 18.5, width: 19, height: 2.5, class: "stone ink" }],
  ],
  // A magnifying glass over a leaf: research a specimen.
  research: [
    ["path", { d: "M14.5 14.5L21 21", class: "handle" }],
    ["circle", { cx: 10, cy: 10, r: 6.5, class: "glass ink" }],
    ["path", { d: "M7 13Q7 7 13 7Q13 13 7 13ZM7 13L10.5 9.5", class: "green" }],
  ],
  // Round arrows: the next round's turn order.
  "turn-order": [
    ["path", { d: "M19.5 12A7.5 7.5 0 1 1 12 4.5", class: "arrow" }],
    ["path", { d: "M11.5 1L16.5 4.6L11.5 8.2Z", class: "solid" }],
    ["circle", { cx: 12, cy: 12, r: 2.5, class: "gold ink" }],
  ],
  tent: [
    ["path", { d: "M2.5 20L12 4.5L21.5 20Z", class: "canvas ink" }],
    ["path", { d: "M12 9.5L8.5 20H15.5Z", class: "solid" }],
  ],
  ribbon: [
    ["path", { d: "M9 13L6.5 21.5L9.5 19.8L11.2 22L12 14M15 13L17.5 21.5L14.5 19.8L12.8 22L12 14", class: "red" }],
    ["circle", { cx: 12, cy: 9, r: 6.5, class: "gold ink" }],
    ["circle", { cx: 12, cy: 9, r: 3.5, class: "thin" }],
  ],
  worker: [
    ["circle", { cx: 12, cy: 6.5, r: 3.8, class: "solid" }],
    ["path", { d: "M5.5 21.5Q5.5 11.5 12 11.2Q18.5 11.5 18.5 21.5Z", class: "solid" }],
  ],
  island: [
    ["path", { d: "M4 18Q12 8 20 18Z", class: "sand ink" }],
    ["path", { d: "M12 12.5Q12.5 8 14 5.5M14 5.5Q10.5 4 8.5 6.5M14 5.5Q17.5 4 19.5 6.5M14 5.5Q13 2.5 10.5 2", class: "stem" }],
    ["path", { d: "M1.5 20.5Q4.5 18.5 7.5 20.5T13.5 20.5T19.5 20.5T22.5 20", class: "wave" }],
  ],
  // The four kinds of specimen, in their colour (the class kind-green... of the whole icon).
  reptile: [
    ["path", { d: "M10 9L6.5 6.5M14 9L17.5 6.5M10 15L6.5 17.5M14 15L17.5 17.5M12 17Q12 22 16 21.5", class: "limb" }],
    ["ellipse", { cx: 12, cy: 12, rx: 2.8, ry: 6, class: "kind" }],
    ["circle", { cx: 12, cy: 4.5, r: 2.5, class: "kind" }],
  ],
  plant: [
    ["path", { d: "M12 22V7", class: "limb" }],
    ["path", { d: "M12 16Q5 16 4 9.5Q10.5 9.5 12 16ZM12 12.5Q19 12.5 20 6Q13.5 6 12 12.5Z", class: "kind" }],
    ["circle", { cx: 12, cy: 5, r: 2.6, class: "kind" }],
  ],
  bird: [
    ["path", { d: "M6 12.5L1.5 10L2.5 15Z", class: "kind" }],
    ["ellipse", { cx: 11, cy: 13.5, rx: 6.5, ry: 4.5, class: "kind" }],
    ["circle", { cx: 16.5, cy: 8, r: 3, class: "kind" }],
    ["path", { d: "M19.2 7L22.5 8.3L19.2 9.5Z", class: "solid" }],
    ["path", { d: "M7 12.5Q10.5 15.5 14 12.5M10 18V21.5M13 18V21.5", class: "limb" }],
  ],
  // An ammonite: a spiral of growing half-turns.
  fossil: [
    ["circle", { cx: 13, cy: 12, r: 9, class: "kind" }],
    ["path", { d: "M12 12a1 1 0 0 1 2 0a2 2 0 0 1-4 0a3 3 0 0 1 6 0a4 4 0 0 1-8 0a5 5 0 0 1 10 0", class: "limb" }],
  ],
};

/** The names of every icon drawn here. */
export const ICON_NAMES = Object.keys(SHAPES);

/** An icon: `name` drawn as SVG. With a `label` it is an image of that name (and a tooltip);
 * without one, a picture beside words that say it (hidden from screen readers). `variant`
 * is a colour of the icon's own (a seal's "G", a specimen's "green"). */
export function icon(name, { label = null, variant = null } = {}) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `icon icon-${name}${variant ? ` ${variantClass(name, variant)}` : ""}`);
  svg.setAttribute("focusable", "false");
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
    const title = document.createElementNS(SVG, "title");
    title.textContent = label;
    svg.append(title);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  for (const [tag, attributes] of SHAPES[name] || []) {
    const shape = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) shape.setAttribute(key, String(value));
    svg.append(shape);
  }
  return svg;
}

function variantClass(name, variant) {
  return name === "seal" ? `wax-${variant}` : `kind-${variant}`;
}
