// Tap-to-explain (issue 30): a board drawn as icons and numbers keeps its words in each
// thing's tooltip and accessible name (a `title`, an SVG <title>, an aria-label). A mouse
// hovers for the tooltip; a finger has none. So, on any game's board: a tap (a click) on a
// thing that carries words and chooses nothing shows its words in a small panel; a long-press
// (or "?", the context-menu key) on a choosable place shows its words and how many moves it
// holds instead of choosing it. The panel plays nothing; Escape, a tap elsewhere and a redraw
// of the board close it; a screen reader hears it (a polite live region).

import { h, replace } from "./dom.js";
import { t, tCount } from "./i18n.js";

const LONG_PRESS = 500; // ms a finger rests on a place to have it explained, not chosen
const SLOP = 10; // px a resting finger may drift (a scroll moves more, and cancels)
const SWALLOW = 1000; // ms after a long-press during which its click is not a choice
// What a tap works itself: its own words are no explanation, and the tap stays its own.
const INTERACTIVE = "button, a[href], input, select, textarea, summary, label, [role=button], "
  + "[contenteditable]:not([contenteditable=false]), .choosable, [data-picks]";
const CHOOSABLE = ".choosable, [data-picks]";

/** The words an element shows as its tooltip: its `title`, or (SVG) its <title> children. */
function tooltipOf(el) {
  if (el instanceof SVGElement) {
    const titles = [...el.children].filter((c) => c.localName === "title")
      .map((c) => c.textContent.trim()).filter(Boolean);
    if (titles.length) return titles.join(" · ");
  }
  return el.getAttribute("title")?.trim() || null;
}

/** The words an image (role img) is named by. */
function imageName(el) {
  return el.getAttribute("role") === "img" ? el.getAttribute("aria-label")?.trim() || null : null;
}

/** What an element says to a reader, drawn words and named images alike ("Worker 1 Green
 * seal"): what is hidden, an SVG's tooltip and the words only a screen reader gets left out
 * (the page adds the count of moves there, which the panel says itself). */
function readText(el) {
  const parts = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { parts.push(node.textContent); return; }
    if (!(node instanceof Element)) return;
    if (node.localName === "title" || node.getAttribute("aria-hidden") === "true"
      || node.classList.contains("sr-only") || node.hidden) return;
    const named = imageName(node);
    if (named) { parts.push(` ${named} `); return; }
    for (const child of node.childNodes) walk(child);
  };
  walk(el);
  return parts.join("").replace(/\s+/g, " ").trim();
}

/** The words of a choosable place: its tooltip, else what it shows, else its name (less the
 * count of moves the page adds to it: the panel says that on a line of its own). */
function placeWords(el, count) {
  const own = tooltipOf(el) || readText(el);
  if (own) return own;
  const named = el.getAttribute("aria-label")?.trim() || "";
  const suffix = ` · ${t("game.place_moves", { count })}`;
  return named.endsWith(suffix) ? named.slice(0, -suffix.length) : named;
}

/** The thing a tap at `target` explains, below `board`, or null: the outermost element with a
 * tooltip (a space's words name everything drawn on it, a piece's only itself), else the
 * nearest named image; null when the tap chooses, opens or presses something. */
function explained(target, board) {
  let outer = null;
  let image = null;
  for (let el = target instanceof Element ? target : target?.parentElement; el && el !== board;
    el = el.parentElement) {
    if (el.matches(INTERACTIVE)) return null;
    if (tooltipOf(el)) outer = el;
    else if (!image && imageName(el)) image = el;
  }
  return outer || image;
}

/** The explain panel of a board: built once by the game page, which puts `el` on the page. */
export class Explainer {
  /** `board`: the element the page draws boards in (kept across redraws); `confirmBar`: the
   * bar fixed at the bottom of the screen, which the panel sits above. */
  constructor(board, confirmBar) {
    this.board = board;
    this.confirmBar = confirmBar;
    // The live region stays on the page (a region added with its words is not always read);
    // the panel comes and goes inside it.
    this.el = h("div", { class: "explain-live", id: "explain-live", role: "status", "aria-live": "polite" });
    this.about = null; // the element explained now
    this.press = null; // a finger resting on a place: { timer, x, y }
    this.swallowUntil = 0; // the click ending a long-press (until then) is not a choice
    this.pointer = null; // the last pointer's kind: a mouse's right-click keeps its menu
    this.openedBy = null; // the event that opened the panel (not a tap elsewhere)
    board.addEventListener("click", (event) => this.swallow(event), true);
    board.addEventListener("click", (event) => this.tap(event));
    board.addEventListener("contextmenu", (event) => this.longPress(event));
    board.addEventListener("pointerdown", (event) => this.pressStart(event));
    board.addEventListener("pointermove", (event) => this.pressMove(event));
    for (const name of ["pointerup", "pointercancel", "pointerleave"]) {
      board.addEventListener(name, () => this.pressEnd());
    }
    board.addEventListener("keydown", (event) => this.key(event));
    document.addEventListener("click", (event) => {
      if (this.about && event !== this.openedBy && !this.el.contains(event.target)) this.close();
    });
    // Escape closes the panel first (the confirmation or a move being built stay).
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !this.about) return;
      event.preventDefault();
      event.stopPropagation();
      this.close();
    }, true);
    // The page redraws the board (a new version, a replay): what was explained is gone.
    new MutationObserver(() => { if (this.about) this.close(); }).observe(board, { childList: true });
    // The confirm bar comes, goes or wraps: the panel stays above it.
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(() => this.lift()).observe(confirmBar);
  }

  /** A tap (a click) on a thing that carries words and chooses nothing: its words. */
  tap(event) {
    const el = explained(event.target, this.board);
    if (!el) return;
    this.openedBy = event;
    this.show(el, null);
  }

  /** The click a long-press ends with (if the browser sends one) chooses nothing. */
  swallow(event) {
    if (Date.now() > this.swallowUntil) return;
    this.swallowUntil = 0;
    event.preventDefault();
    event.stopPropagation();
    this.openedBy = event; // nor does it close the panel it opened
  }

  /** The browser's long-press (Chromium on a touch screen sends contextmenu) or the
   * context-menu key: the place explained instead of the browser's menu. A mouse's
   * right-click keeps its menu (the tooltip is its explanation). */
  longPress(event) {
    if ((event.pointerType || this.pointer) === "mouse") return;
    if (this.explainAt(event.target)) {
      event.preventDefault();
      this.pressEnd();
      this.swallowUntil = Date.now() + SWALLOW;
    }
  }

  /** A finger (a pen) put on a choosable place: explained if it rests there LONG_PRESS ms. */
  pressStart(event) {
    this.pointer = event.pointerType;
    this.swallowUntil = 0; // a new touch: a click now is the tap of this one
    this.pressEnd();
    if (event.pointerType === "mouse" || !event.isPrimary) return;
    const place = event.target instanceof Element ? event.target.closest(CHOOSABLE) : null;
    if (!place || !this.board.contains(place)) return;
    const timer = setTimeout(() => {
      this.press = null;
      if (!place.isConnected) return;
      this.explainAt(place);
      this.swallowUntil = Date.now() + SWALLOW;
    }, LONG_PRESS);
    this.press = { timer, x: event.clientX, y: event.clientY };
  }

  pressMove(event) {
    if (this.press && Math.hypot(event.clientX - this.press.x, event.clientY - this.press.y) > SLOP) this.pressEnd();
  }

  pressEnd() {
    if (this.press) clearTimeout(this.press.timer);
    this.press = null;
  }

  /** "?" or the context-menu key (Shift+F10) on a focused place: explained, as a long-press. */
  key(event) {
    const asked = event.key === "?" || event.key === "ContextMenu" || (event.shiftKey && event.key === "F10");
    if (asked && this.explainAt(event.target)) event.preventDefault();
  }

  /** Explain the choosable place at `target`, else the thing carrying words there; whether
   * there was anything to explain. */
  explainAt(target) {
    const start = target instanceof Element ? target : target?.parentElement;
    const place = start?.closest(CHOOSABLE);
    if (place && this.board.contains(place)) {
      const count = Number(place.dataset.moves) || 1; // a place the renderer adds picks one
      this.show(place, count);
      return true;
    }
    const el = explained(start, this.board);
    if (!el) return false;
    this.show(el, null);
    return true;
  }

  /** The panel with `el`'s words; `count`: the moves at a choosable place (null: none). */
  show(el, count) {
    const words = count === null ? tooltipOf(el) || imageName(el) : placeWords(el, count);
    if (!words) return;
    if (this.about === el && this.el.firstChild) return; // said already (a long-press's two signals)
    this.about?.classList.remove("explained");
    this.about = el;
    el.classList.add("explained"); // which thing the panel speaks of
    // "Ocean space 3: 2 points, …": the name before the colon stands out.
    const colon = words.indexOf(": ");
    const said = colon > 0 && colon < 60
      ? [h("strong", {}, words.slice(0, colon + 1)), words.slice(colon + 1)] : [words];
    replace(this.el, h("div", { class: "explain", id: "explain" },
      h("p", { class: "explain-words", id: "explain-words" }, said),
      count === null ? null : h("p", { class: "explain-moves", id: "explain-moves" },
        tCount("explain.moves", count, { count }), " ", t("explain.choose")),
      h("button", {
        type: "button", class: "close", id: "explain-close", "aria-label": t("explain.close"),
        onclick: () => this.close(),
      }, "×")));
    this.lift();
  }

  /** Put the panel above the confirm bar while it shows (it is as tall as its words). */
  lift() {
    const bar = this.confirmBar;
    const height = bar && !bar.hidden ? bar.getBoundingClientRect().height : 0;
    this.el.style.setProperty("--explain-lift", `${Math.ceil(height)}px`); // CSSOM: the CSP allows it
  }

  /** Take the panel away. */
  close() {
    this.about?.classList.remove("explained");
    this.about = null;
    this.openedBy = null;
    replace(this.el);
  }
}
