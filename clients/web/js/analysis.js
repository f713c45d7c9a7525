// The engine's analysis of a finished game on the page: ask for it, follow its progress,
// then an evaluation graph (a line per seat: the expected final-score margin after each of
// its analysed moves), each seat's accuracy, and the marked moves (inaccuracy, mistake,
// blunder) with the better move, each shown on the board at its moment (docs/analysis.md).

import { api } from "./api.js";
import { h, replace } from "./dom.js";
import { t, tOr } from "./i18n.js";
import { humanize, seatName } from "./names.js";

const POLL = 1000; // ms between two reads of an analysis under way
const MARKED = ["inaccuracy", "mistake", "blunder"];
const SVG = "http://www.w3.org/2000/svg";
// The graph's drawing box (the SVG scales to its panel's width).
const WIDTH = 600;
const HEIGHT = 180;
const PAD = 28;

/** The analysis panel of a finished game. `page` is the game page: its body, its seat's
 * token, `replay(version)` and `markBetter(move)` to show a moment and a move on the board. */
export class AnalysisPanel {
  constructor(page) {
    this.page = page;
    this.el = h("section", { class: "panel analysis", id: "analysis", "aria-labelledby": "analysis-title", hidden: true });
    this.analysis = null;
    this.polling = false;
  }

  /** The classification of the move logged at `index`, if the analysis marked it. */
  markOf(index) {
    const found = this.analysis?.moves?.find((m) => m.index === index);
    return found && MARKED.includes(found.classification) ? found.classification : null;
  }

  /** Draw for the game as it is: nothing while it runs; a button, the progress or the
   * results once it is over. Reads an analysis asked for earlier once. */
  async draw() {
    const body = this.page.body;
    // A record's replay is of no game of this server: nothing to analyse here.
    if (body.status === "active" || this.page.recorded) {
      this.el.hidden = true;
      return;
    }
    this.el.hidden = false;
    if (this.analysis === null && !this.polling) {
      try {
        this.analysis = await api(`/v1/games/${this.page.id}/analysis`, { token: this.page.token });
      } catch {
        this.analysis = undefined; // none asked for yet (404), or not allowed: the button says
      }
      if (this.analysis && !["done", "failed"].includes(this.analysis.status)) this.poll();
    }
    this.render();
  }

  render() {
    const title = h("h2", { id: "analysis-title" }, t("analysis.title"));
    const found = this.analysis;
    if (!found) {
      replace(this.el, title, h("p", {}, t("analysis.explain")),
        h("button", { type: "button", id: "analyse", onclick: () => this.ask() }, t("analysis.ask")));
      return;
    }
    if (found.status === "failed") {
      replace(this.el, title, h("p", { class: "error" }, t("analysis.failed", { error: found.error || "" })),
        h("button", { type: "button", id: "analyse", onclick: () => this.ask() }, t("analysis.ask")));
      return;
    }
    if (found.status !== "done") {
      const { done, total } = found.progress;
      replace(this.el, title, h("p", { id: "analysis-progress", "aria-live": "polite" },
        total ? t("analysis.progress", { done, total }) : t("analysis.queued")),
      h("progress", { max: total || 1, value: done, "aria-labelledby": "analysis-progress" }));
      return;
    }
    replace(this.el, title, h("figure", { class: "eval" }, this.graph(found), this.legend(found)),
      this.accuracy(found), this.marked(found));
    this.page.drawLog();
  }

  async ask() {
    try {
      this.analysis = await api(`/v1/games/${this.page.id}/analysis`,
        { method: "POST", token: this.page.token, body: {} });
    } catch (error) {
      this.page.explain(error);
      return;
    }
    this.render();
    this.poll();
  }

  async poll() {
    if (this.polling) return;
    this.polling = true;
    try {
      while (this.analysis && !["done", "failed"].includes(this.analysis.status)) {
        await new Promise((resolve) => setTimeout(resolve, POLL));
        this.analysis = await api(`/v1/games/${this.page.id}/analysis`, { token: this.page.token });
        this.render();
      }
    } catch (error) {
      this.page.explain(error);
    } finally {
      this.polling = false;
    }
  }

  /** The evaluation graph: per seat, its expected margin after each analysed decision
   * (log index on x), the marked moves as dots; words for a screen reader in its name. */
  graph(found) {
    const body = this.page.body;
    const points = found.moves.filter((m) => m.played_margin !== null);
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
    svg.setAttribute("class", "eval-graph");
    svg.setAttribute("id", "eval-graph");
    svg.setAttribute("role", "img");
    const marked = found.moves.filter((m) => MARKED.includes(m.classification)).length;
    svg.setAttribute("aria-label", t("analysis.graph", { count: points.length, marked }));
    if (!points.length) return svg;
    const last = Math.max(...this.page.log.map((e) => e.index), ...points.map((m) => m.index), 1);
    const values = points.map((m) => m.played_margin);
    let low = Math.min(0, ...values);
    let high = Math.max(0, ...values);
    if (high - low < 1) high = low + 1;
    const x = (index) => PAD + (index / last) * (WIDTH - 2 * PAD);
    const y = (value) => HEIGHT - PAD - ((value - low) / (high - low)) * (HEIGHT - 2 * PAD);
    const add = (tag, attrs, text) => {
      const el = document.createElementNS(SVG, tag);
      for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
      if (text !== undefined) el.textContent = text;
      svg.append(el);
      return el;
    };
    add("line", { x1: PAD, x2: WIDTH - PAD, y1: y(0), y2: y(0), class: "zero" });
    add("text", { x: 2, y: y(high) + 4, class: "axis" }, `${high > 0 ? "+" : ""}${Math.round(high)}`);
    add("text", { x: 2, y: y(low) + 4, class: "axis" }, `${Math.round(low)}`);
    for (const seat of found.seats) {
      const mine = points.filter((m) => m.seat === seat);
      if (!mine.length) continue;
      add("polyline", {
        class: `seat-line p${seat % 5}`, "data-seat": seat, fill: "none",
        points: mine.map((m) => `${x(m.index).toFixed(1)},${y(m.played_margin).toFixed(1)}`).join(" "),
      }).append(titleOf(seatName(body, seat)));
      // Every decision a dot (a line of one point draws nothing), the marked ones larger.
      for (const m of mine.filter((m) => !MARKED.includes(m.classification))) {
        add("circle", { cx: x(m.index).toFixed(1), cy: y(m.played_margin).toFixed(1), r: 2.5,
          class: `point p${seat % 5}` });
      }
      for (const m of mine.filter((m) => MARKED.includes(m.classification))) {
        const dot = add("circle", { cx: x(m.index).toFixed(1), cy: y(m.played_margin).toFixed(1), r: 4,
          class: `mark ${m.classification}`, "data-index": m.index });
        dot.append(titleOf(`${t("analysis.move", { n: m.index + 1 })}: ${t(`analysis.${m.classification}`)}`));
      }
    }
    return svg;
  }

  /** What the graph's axes and lines are: the seats' colours, in words. */
  legend(found) {
    const body = this.page.body;
    return h("figcaption", { class: "legend" }, t("analysis.axes"), " ",
      found.seats.map((seat) => h("span", { class: "legend-seat" },
        h("span", { class: `swatch p${seat % 5}`, "aria-hidden": "true" }), ` ${seatName(body, seat)} `)));
  }

  accuracy(found) {
    const body = this.page.body;
    return h("p", { class: "accuracy", id: "analysis-accuracy" }, found.seats.map((seat) => {
      const value = found.accuracy[String(seat)];
      return t("analysis.accuracy", { seat: seatName(body, seat), value: value === null || value === undefined ? "—" : Math.round(value) });
    }).join(" · "));
  }

  /** The marked moves, worst first within the game's order: what was played, what was
   * better, the points lost, and a button that shows the moment on the board. */
  marked(found) {
    const body = this.page.body;
    const moves = found.moves.filter((m) => MARKED.includes(m.classification));
    if (!moves.length) return h("p", { id: "analysis-marked" }, t("analysis.none"));
    return h("ol", { class: "analysis-marked", id: "analysis-marked" }, moves.map((m) => h("li", {
      class: m.classification, dataset: { index: m.index },
    },
    h("span", { class: `badge ${m.classification}` }, t(`analysis.${m.classification}`)), " ",
    t("analysis.line", {
      n: m.index + 1, seat: seatName(body, m.seat), played: label(m.move), better: label(m.best),
      loss: m.loss.toFixed(1),
    }), " ",
    h("button", {
      type: "button", class: "show-better", dataset: { version: m.version - 1 },
      onclick: async () => {
        await this.page.replay(m.version - 1);
        this.page.markBetter(m.best);
      },
    }, t("analysis.show")))));
  }
}

function titleOf(text) {
  const title = document.createElementNS(SVG, "title");
  title.textContent = text;
  return title;
}

function label(move) {
  return move.label || tOr(`move.${move.type}`, humanize(move.type));
}
