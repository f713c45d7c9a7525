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
  // The HMS Beagle: a ship flying a long red pennant from its mast top.
  beagle: [
    ["path", { d: "M12 1V15", class: "branch" }],
    ["path", { d: "M12.6 1.2L20.5 2.6L12.6 4Z", class: "red" }],
    ["path", { d: "M12.8 5L19.5 13H12.8Z", class: "paper ink" }],
    ["path", { d: "M11.2 6.5L6 13H11.2Z", class: "paper ink" }],
    ["path", { d: "M2.5 15H21.5L18.5 20H5.5Z", class: "wood" }],
  ],
  // An empty stamp stack: two stamps' dashed outlines, struck through.
  "empty-stack": [
    ["rect", { x: 8.5, y: 2.5, width: 12, height: 14, class: "paper ink dashed" }],
    ["rect", { x: 3.5, y: 7.5, width: 12, height: 14, class: "paper ink dashed" }],
    ["path", { d: "M5.5 19.5L13.5 9.5", class: "cross" }],
  ],
  // A specimen of no given kind: a six-sided token in its colour (kind-green...).
  specimen: [
    ["path", { d: "M12 2.5L20.5 7.25V16.75L12 21.5L3.5 16.75V7.25Z", class: "kind" }],
    ["circle", { cx: 12, cy: 12, r: 3.8, class: "limb" }],
  ],
  // A crew card: a card showing a sailor with a red neckerchief.
  "crew-card": [
    ["rect", { x: 4.5, y: 2.5, width: 15, height: 19, rx: 2, class: "paper ink" }],
    ["circle", { cx: 12, cy: 8.5, r: 2.8, class: "solid" }],
    ["path", { d: "M7.5 18Q7.5 12.5 12 12.5Q16.5 12.5 16.5 18Z", class: "solid" }],
    ["path", { d: "M10 12.6L12 15.6L14 12.6Z", class: "red" }],
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
  // Flotilla: a Survivor (a figure in a life ring), an Ocean Tile (a hex of sea), a
  // Resource of any colour (the four colours' wedges), a Guild Seal (a medallion).
  survivor: [
    ["circle", { cx: 12, cy: 13, r: 8.5, class: "ring" }],
    ["circle", { cx: 12, cy: 13, r: 4.5, class: "paper" }],
    ["path", { d: "M12 4.5V8M12 18V21.5M3.5 13H7M17 13H20.5", class: "ring-band" }],
    ["circle", { cx: 12, cy: 4.2, r: 2.6, class: "solid" }],
  ],
  "ocean-tile": [
    ["path", { d: "M12 2L20.7 7V17L12 22L3.3 17V7Z", class: "sea ink" }],
    ["path", { d: "M6 11Q8 9.5 10 11T14 11T18 11M6 15Q8 13.5 10 15T14 15T18 15", class: "foam" }],
  ],
  resource: [
    ["path", { d: "M12 12L12 3A9 9 0 0 1 21 12Z", class: "res-red" }],
    ["path", { d: "M12 12L21 12A9 9 0 0 1 12 21Z", class: "res-yellow" }],
    ["path", { d: "M12 12L12 21A9 9 0 0 1 3 12Z", class: "res-green" }],
    ["path", { d: "M12 12L3 12A9 9 0 0 1 12 3Z", class: "res-blue" }],
    ["circle", { cx: 12, cy: 12, r: 9, class: "thin" }],
  ],
  // Toxicity: a drop of poison; a Milestone of the Survivor track: a flag.
  toxicity: [
    ["path", { d: "M12 2.5Q19 11 19 15A7 7 0 0 1 5 15Q5 11 12 2.5Z", class: "toxic ink" }],
    ["path", { d: "M9.5 12.5L14.5 17.5M14.5 12.5L9.5 17.5", class: "ring-band" }],
  ],
  milestone: [
    ["path", { d: "M6 21.5V3", class: "figure" }],
    ["path", { d: "M6.8 3.5H19L16 7.5L19 11.5H6.8Z", class: "red" }],
  ],
  "guild-seal": [
    ["circle", { cx: 12, cy: 12, r: 9, class: "guild-wax ink" }],
    ["path", { d: "M12 6.5L13.6 10.3L17.5 10.5L14.5 13L15.5 17L12 14.8L8.5 17L9.5 13L6.5 10.5L10.4 10.3Z", class: "paper" }],
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
  // Encyclopedia
  // A five-pointed star: reputation.
  reputation: [
    ["path", { d: `M${Array.from({ length: 10 }, (_, k) => {
      const r = k % 2 ? 4.3 : 10, a = Math.PI * (k / 5 - 0.5);
      return `${(12 + r * Math.cos(a)).toFixed(2)} ${(13 + r * Math.sin(a)).toFixed(2)}`;
    }).join("L")}Z`, class: "rep ink" }],
  ],
  // A die showing three: a die's value (a cost or a bonus counted in it).
  die: [
    ["rect", { x: 3.5, y: 3.5, width: 17, height: 17, rx: 3.5, class: "paper ink" }],
    ...[[8, 8], [12, 12], [16, 16]].map(([cx, cy]) => ["circle", { cx, cy, r: 1.8, class: "solid" }]),
  ],
  // A wooden token with a compass star: an expedition token.
  "expedition-token": [
    ["circle", { cx: 12, cy: 12, r: 9.5, class: "token ink" }],
    ["path", { d: "M12 4.5L13.8 10.2L19.5 12L13.8 13.8L12 19.5L10.2 13.8L4.5 12L10.2 10.2Z", class: "solid" }],
  ],
  // A red wax seal with a crown: a royal seal.
  "royal-seal": [
    ["path", { d: "M12 2.5l2.4 1.6 2.9-.2 1.2 2.6 2.6 1.2-.2 2.9 1.6 2.4-1.6 2.4.2 2.9-2.6 1.2-1.2 2.6-2.9-.2L12 21.5l-2.4-1.6-2.9.2-1.2-2.6-2.6-1.2.2-2.9L1.5 12l1.6-2.4-.2-2.9 2.6-1.2 1.2-2.6 2.9.2Z", class: "wax" }],
    ["path", { d: "M7.5 15.5L6.8 9.2L9.7 11.6L12 7.5L14.3 11.6L17.2 9.2L16.5 15.5Z", class: "gold" }],
  ],
  // A wooden cube seen from above a corner: a research cube.
  cube: [
    ["path", { d: "M12 3L20.5 7.5L12 12L3.5 7.5Z", class: "cube-top ink" }],
    ["path", { d: "M3.5 7.5L12 12V21.5L3.5 17Z", class: "cube-left ink" }],
    ["path", { d: "M20.5 7.5L12 12V21.5L20.5 17Z", class: "cube-right ink" }],
  ],
  // Cards: an animal's (a paw) and an expert's (a person).
  "animal-card": [
    ["rect", { x: 4.5, y: 2.5, width: 15, height: 19, rx: 2, class: "paper ink" }],
    ["ellipse", { cx: 12, cy: 15.2, rx: 3.2, ry: 2.6, class: "solid" }],
    ...[[8.3, 10.8], [10.6, 8.2], [13.4, 8.2], [15.7, 10.8]].map(([cx, cy]) => ["circle", { cx, cy, r: 1.3, class: "solid" }]),
  ],
  "expert-card": [
    ["rect", { x: 4.5, y: 2.5, width: 15, height: 19, rx: 2, class: "paper ink" }],
    ["circle", { cx: 12, cy: 9, r: 2.8, class: "solid" }],
    ["path", { d: "M7.5 18Q7.5 12.8 12 12.8Q16.5 12.8 16.5 18Z", class: "solid" }],
  ],
  // The first-player marker: a token numbered one.
  "first-player": [
    ["circle", { cx: 12, cy: 12, r: 9.5, class: "gold ink" }],
    ["path", { d: "M9.8 9L12.8 6.8V17.2M9.8 17.2H15.8", class: "figure" }],
  ],
  // The main board's action areas: the Bank (a stack of coins), the Embassy (a flag), the
  // University (a domed hall), the Expedition (a map with a route) and Publish (a quill on a
  // page); the Academy is the mortarboard above.
  bank: [
    ...[17.5, 13, 8.5].map((cy) => ["ellipse", { cx: 12, cy, rx: 8, ry: 3.2, class: "gold ink" }]),
    ["path", { d: "M4 8.5V17.5M20 8.5V17.5", class: "thin" }],
  ],
  embassy: [
    ["path", { d: "M6 21.5V2.5M3 21.5H10", class: "branch" }],
    ["path", { d: "M6.5 3.5Q10 1.5 13.5 4T20.5 4V12Q17 14 13.5 11.5T6.5 11.5Z", class: "red ink" }],
  ],
  university: [
    ["path", { d: "M5.5 10a6.5 6 0 0 1 13 0Z", class: "stone ink" }],
    ...[6, 10.75, 15.5].map((x) => ["rect", { x, y: 10.5, width: 2.5, height: 7, class: "stone ink" }]),
    ["rect", { x: 3.5, y: 18, width: 17, height: 3, class: "stone ink" }],
    ["path", { d: "M12 4V1.5", class: "thin" }],
  ],
  expedition: [
    ["path", { d: "M2.5 5.5L8.5 3.5L15.5 6L21.5 4V18.5L15.5 20.5L8.5 18L2.5 20Z", class: "sand ink" }],
    ["path", { d: "M8.5 3.5V18M15.5 6V20.5", class: "thin" }],
    ["path", { d: "M5 16.5Q7.5 10.5 11.5 13T17.5 8.5", class: "thin dashed" }],
    ["path", { d: "M16.3 6.3L19.7 9.7M19.7 6.3L16.3 9.7", class: "cross" }],
  ],
  publish: [
    ["rect", { x: 3.5, y: 3.5, width: 13, height: 18, rx: 1, class: "paper ink" }],
    ["path", { d: "M6.5 8.5H13.5M6.5 11.5H13.5M6.5 14.5H10.5", class: "thin" }],
    ["path", { d: "M21.5 2Q13.5 5.5 11.5 18L13 16.5Q18.5 10.5 21.5 2Z", class: "feather ink" }],
  ],
  // An hourglass: at the game's end (an expert card's final scoring).
  hourglass: [
    ["path", { d: "M6 2.5H18M6 21.5H18", class: "branch" }],
    ["path", { d: "M7 3Q7 9 12 12Q7 15 7 21H17Q17 15 12 12Q17 9 17 3Z", class: "glass ink" }],
    ["path", { d: "M9 20.5Q9.5 17 12 15.5Q14.5 17 15 20.5ZM9.5 6.5H14.5Q13.5 9.5 12 10.5Q10.5 9.5 9.5 6.5Z", class: "sand" }],
  ],
  // A globe: a continent (publishing animals of one continent's colour).
  continent: [
    ["circle", { cx: 12, cy: 12, r: 9.5, class: "water ink" }],
    ["path", { d: "M7 5.5Q10 6.5 9.5 9.5T12.5 13.5T10 19.5Q6 17.5 4.5 13Q4 8 7 5.5ZM14.5 3.5Q19 5 20.5 9Q18 10.5 16 8.5T14.5 3.5Z", class: "green" }],
  ],
  // The round marker: a dial of four quarters, one a round of the game.
  round: [
    ["circle", { cx: 12, cy: 12, r: 9.5, class: "paper ink" }],
    ["path", { d: "M12 12V2.5A9.5 9.5 0 0 1 21.5 12Z", class: "gold" }],
    ["path", { d: "M12 2.5V21.5M2.5 12H21.5", class: "thin" }],
    ["circle", { cx: 12, cy: 12, r: 9.5, class: "thin" }],
  ],
  // A round tile: a square cardboard tile with a compass rose (what the round brings).
  "round-tile": [
    ["rect", { x: 3, y: 3, width: 18, height: 18, rx: 2.5, class: "canvas ink" }],
    ["path", { d: "M12 6L13.4 10.6L18 12L13.4 13.4L12 18L10.6 13.4L6 12L10.6 10.6Z", class: "red" }],
  ],
  // A cloth bag tied at the neck: the dice still in the bag.
  bag: [
    ["path", { d: "M8.5 8Q3 12.5 4.5 18.5Q5.5 21.5 12 21.5Q18.5 21.5 19.5 18.5Q21 12.5 15.5 8Z", class: "canvas ink" }],
    ["path", { d: "M8.5 8L6.5 3.5Q12 5.5 17.5 3.5L15.5 8", class: "canvas ink" }],
    ["path", { d: "M7.5 8H16.5", class: "branch" }],
  ],
  // The solo AI's level card: three rising bars, as many filled as its level.
  ...Object.fromEntries([1, 2, 3].map((level) => [`level-${level}`, [3, 9.5, 16].map((x, i) => ["rect", {
    x, y: 15 - i * 5, width: 5, height: 6.5 + i * 5, rx: 1, class: i < level ? "gold ink" : "paper ink dashed" }])])),
  // The animals' categories. Habitats: forest, grassland, desert, water.
  forest: [
    ["path", { d: "M16 20.5V22.5M8 19V22.5", class: "stem" }],
    ["path", { d: "M16 5L12.5 12H14.5L11.5 18H20.5L17.5 12H19.5Z", class: "green ink" }],
    ["path", { d: "M8 2.5L4 10H6.5L3 17H13L9.5 10H12Z", class: "green ink" }],
  ],
  grassland: [
    ["path", { d: "M2 21.5H22", class: "stem" }],
    ["path", { d: "M4.5 21Q5.5 15 2.5 10M8 21Q8 13 10.5 7M12 21Q11.5 12 12.5 4M15.5 21Q16 14 19.5 9M19 21Q19.5 17 22 14", class: "grass" }],
  ],
  desert: [
    ["path", { d: "M1.5 21.5V19Q7.5 14.5 13 17.5T22.5 16.5V21.5Z", class: "sand ink" }],
    ["path", { d: "M12 16.5V4.5M12 12.5H8.5V8.5M12 10.5H15.5V7", class: "cactus" }],
  ],
  water: [
    ["path", { d: "M12 2.5Q19 10.5 19 15a7 7 0 0 1-14 0Q5 10.5 12 2.5Z", class: "water ink" }],
    ["path", { d: "M8.5 15.5a3.5 3.5 0 0 0 3 3", class: "shine" }],
  ],
  // Climates: polar, temperate, tropical, arid.
  polar: [
    ["path", { d: "M12 2.5V21.5M3.8 7.25L20.2 16.75M3.8 16.75L20.2 7.25M9.5 3.8L12 6.3L14.5 3.8M9.5 20.2L12 17.7L14.5 20.2M4.2 11.2L7.6 12.1L6.7 15.5M19.8 12.8L16.4 11.9L17.3 8.5M6.7 8.5L7.6 11.9L4.2 12.8M17.3 15.5L16.4 12.1L19.8 11.2", class: "ice" }],
  ],
  temperate: [
    ["circle", { cx: 9, cy: 9, r: 5, class: "gold ink" }],
    ["path", { d: "M7 20H18a3.5 3.5 0 0 0 0-7a5 5 0 0 0-9.5-1A4 4 0 0 0 7 20Z", class: "paper ink" }],
  ],
  tropical: [
    ["path", { d: "M11 22Q11.5 14 14 7.5", class: "trunk" }],
    ["path", { d: "M14 7.5Q9.5 4.5 4.5 8.5M14 7.5Q18.5 4.5 21.5 9M14 7.5Q13 3 8.5 2.5M14 7.5Q16.5 3 20 2.8", class: "frond" }],
    ["circle", { cx: 13, cy: 9.8, r: 1.5, class: "wood" }],
  ],
  arid: [
    ...Array.from({ length: 8 }, (_, k) => {
      const a = Math.PI * k / 4, c = Math.cos(a), s = Math.sin(a);
      return ["path", { d: `M${(12 + 7.2 * c).toFixed(2)} ${(12 + 7.2 * s).toFixed(2)}L${(12 + 10.3 * c).toFixed(2)} ${(12 + 10.3 * s).toFixed(2)}`, class: "ray" }];
    }),
    ["circle", { cx: 12, cy: 12, r: 5, class: "sun ink" }],
  ],
  // Diets: herbivore (a leaf), carnivore (a drumstick), omnivore (a fork and a leaf),
  // insectivore (a beetle).
  herbivore: [
    ["path", { d: "M4 20.5Q3.5 5 20.5 3.5Q20.5 19.5 4 20.5Z", class: "green ink" }],
    ["path", { d: "M4 20.5L15 9", class: "thin" }],
  ],
  carnivore: [
    ["path", { d: "M13.5 13.5L18.5 18.5", class: "bone" }],
    ...[[20, 17.3], [17.3, 20]].map(([cx, cy]) => ["circle", { cx, cy, r: 1.9, class: "bone-end" }]),
    ["ellipse", { cx: 9.5, cy: 9.5, rx: 7, ry: 5.5, transform: "rotate(45 9.5 9.5)", class: "meat ink" }],
  ],
  omnivore: [
    ["path", { d: "M5 2.5V8M7.8 2.5V8M10.6 2.5V8M5 8Q5 11.5 7.8 11.5Q10.6 11.5 10.6 8M7.8 11.5V21.5", class: "cutlery" }],
    ["path", { d: "M13 21Q12.5 9 21.5 6.5Q22 19 13 21Z", class: "green ink" }],
  ],
  insectivore: [
    ["path", { d: "M7.5 10.5L3.5 8.5M7 14H2.5M7.5 17.5L4 20M16.5 10.5L20.5 8.5M17 14H21.5M16.5 17.5L20 20M11 4.5L9 2M13 4.5L15 2", class: "thin" }],
    ["ellipse", { cx: 12, cy: 14, rx: 5.2, ry: 6.8, class: "bug ink" }],
    ["circle", { cx: 12, cy: 6, r: 2.6, class: "solid" }],
    ["path", { d: "M12 8V20.5", class: "thin" }],
  ],
  // Classes: mammal (a paw print) and amphibian (a frog); bird and reptile are above.
  mammal: [
    ["ellipse", { cx: 12, cy: 16, rx: 4.8, ry: 4, class: "kind" }],
    ...[[5.5, 10.5, 2.1], [9.3, 6.2, 2.2], [14.7, 6.2, 2.2], [18.5, 10.5, 2.1]]
      .map(([cx, cy, r]) => ["circle", { cx, cy, r, class: "kind" }]),
  ],
  amphibian: [
    ["path", { d: "M6 17.5L2.5 21H6.5M18 17.5L21.5 21H17.5", class: "limb" }],
    ["ellipse", { cx: 12, cy: 15, rx: 8, ry: 5.5, class: "kind" }],
    ...[8, 16].map((cx) => ["circle", { cx, cy: 8.5, r: 3, class: "kind" }]),
    ...[8, 16].map((cx) => ["circle", { cx, cy: 8.3, r: 1.1, class: "solid" }]),
    ["path", { d: "M9 15Q12 17.2 15 15", class: "limb" }],
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
