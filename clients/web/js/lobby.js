// The lobby: pick a game, set its options, seat humans and bots, create, hand out the links.

import { api, ApiError } from "./api.js";
import { h, replace } from "./dom.js";
import { t, tOr, withLanguage } from "./i18n.js";
import { automaName, botName, optionLabel, optionValueLabel } from "./names.js";
import { showRecord } from "./game.js";

/** Draw the lobby into `root`. */
export async function showLobby(root) {
  const [catalog, bots, hints] = await Promise.all([
    api("/v1/games-catalog"), api("/v1/bots"),
    fetch("/play/data/games.json").then((r) => r.json()),
  ]);
  const lobby = new Lobby(root, catalog.games, bots.bots, hints);
  lobby.draw();
}

class Lobby {
  constructor(root, games, bots, hints) {
    this.root = root;
    this.games = games;
    this.bots = bots.filter((bot) => !isAutomaOnly(bot, hints));
    this.hints = hints;
    this.game = games[0];
    this.options = {};
    this.seats = [];
    this.resetOptions();
  }

  resetOptions() {
    this.options = {};
    for (const [name, spec] of Object.entries(this.game.options)) {
      if ("default" in spec) this.options[name] = spec.default;
    }
    this.resizeSeats();
  }

  /** The seats the players take (the game's automa seats apart). */
  playerCount() {
    const players = this.options.players;
    return Number.isInteger(players) ? players : this.game.min_players;
  }

  /** seat -> bot name of the seats the game's automa takes with the current options. */
  automaSeats() {
    const rules = this.hints[this.game.name]?.automa || [];
    for (const rule of rules) {
      if (Object.entries(rule.when).every(([k, v]) => this.options[k] === v)) return rule.seats;
    }
    return {};
  }

  resizeSeats() {
    const count = this.playerCount();
    while (this.seats.length < count) this.seats.push({ kind: "human" });
    this.seats.length = count;
  }

  draw() {
    this.created = h("section", { class: "panel created", "aria-live": "polite", hidden: true });
    this.message = h("p", { class: "error", role: "alert", hidden: true });
    this.form = h("form", { class: "panel lobby", onsubmit: (e) => { e.preventDefault(); this.create(); } });
    replace(this.root, h("h1", {}, t("lobby.title")), this.form, this.created, this.recordPanel());
    this.drawForm();
  }

  /** "Replay a game record": a record file (GET /v1/games/{id}/record, from any server), which
   * this server verifies and answers step by step, opened in the game page's replay. */
  recordPanel() {
    const message = h("p", { class: "error", id: "record-error", role: "alert", hidden: true });
    const input = h("input", {
      type: "file", id: "record-file", accept: "application/json,.json", "aria-describedby": "record-help",
      onchange: () => this.replayRecord(input, message),
    });
    return h("section", { class: "panel record", id: "record", "aria-labelledby": "record-title" },
      h("h2", { id: "record-title" }, t("lobby.record_title")),
      h("p", { class: "help", id: "record-help" }, t("lobby.record_help")),
      h("div", { class: "field" }, h("label", { for: "record-file" }, t("lobby.record_file")), input),
      message);
  }

  /** Post the chosen record file (POST /v1/records/replay) and step through the answer. */
  async replayRecord(input, message) {
    const file = input.files?.[0];
    if (!file) return;
    message.hidden = true;
    let record;
    try {
      record = JSON.parse(await file.text());
    } catch (error) {
      message.textContent = t("lobby.record_unreadable", { detail: error.message });
      message.hidden = false;
      return;
    }
    input.disabled = true;
    let replayed;
    try {
      replayed = await api("/v1/records/replay", { method: "POST", body: record });
    } catch (error) {
      message.textContent = error instanceof ApiError
        ? t("lobby.record_refused", { detail: error.message }) : t("error.network");
      message.hidden = false;
      input.disabled = false;
      return;
    }
    await showRecord(this.root, replayed);
  }

  drawForm() {
    const gameSelect = h("select", {
      id: "game-select", name: "game",
      onchange: () => {
        this.game = this.games.find((g) => g.name === gameSelect.value);
        this.resetOptions();
        this.drawForm();
      },
    }, this.games.map((g) => h("option", { value: g.name, selected: g === this.game },
      tOr(`game.${g.name}`, g.title))));
    replace(this.form,
      h("div", { class: "field" }, h("label", { for: "game-select" }, t("lobby.game")), gameSelect),
      h("fieldset", {}, h("legend", {}, t("lobby.options")), this.optionFields()),
      h("fieldset", { class: "seats" }, h("legend", {}, t("lobby.seats")), this.seatFields()),
      this.message,
      h("button", { type: "submit", class: "primary", id: "create-game" }, t("lobby.create")));
  }

  /** Whether option `name` applies with the other options chosen (e.g. Alfred only solo). */
  applies(name) {
    const when = this.hints[this.game.name]?.options_when?.[name];
    return !when || Object.entries(when).every(([k, v]) => this.options[k] === v);
  }

  /** The options to send: those that apply and differ from the game's defaults. */
  chosenOptions() {
    const chosen = {};
    for (const [name, spec] of Object.entries(this.game.options)) {
      if (this.applies(name) && this.options[name] !== spec.default) chosen[name] = this.options[name];
    }
    return chosen;
  }

  optionFields() {
    return Object.entries(this.game.options).filter(([name]) => this.applies(name)).map(([name, spec]) => {
      const id = `option-${name}`;
      const help = tOr(`option.${this.game.name}.${name}.help`, spec.description || "");
      const label = optionLabel(this.game.name, name);
      const onchange = (value) => {
        this.options[name] = value;
        if (name === "players") this.resizeSeats();
        this.drawForm();
        document.getElementById(id)?.focus();
      };
      return field(id, label, help, spec, this.options[name], onchange,
        (value) => optionValueLabel(this.game.name, name, value));
    });
  }

  seatFields() {
    const automa = this.automaSeats();
    const rows = [];
    const total = this.seats.length + Object.keys(automa).length;
    let player = 0;
    for (let seat = 0; seat < total; seat++) {
      if (seat in automa) {
        rows.push(h("div", { class: "seat" },
          h("span", { class: "seat-name" }, t("seat.number", { n: seat + 1 })),
          h("span", { class: "automa" }, t("lobby.automa", { bot: automaName(this.game.name, automa[seat]) }))));
        continue;
      }
      rows.push(this.seatRow(seat, player));
      player++;
    }
    return rows;
  }

  seatRow(seat, index) {
    const spec = this.seats[index];
    const id = `seat-${seat}`;
    const select = h("select", {
      id,
      onchange: () => {
        this.seats[index] = select.value === "human" ? { kind: "human" }
          : { kind: "bot", bot: select.value, params: {} };
        this.drawForm();
        document.getElementById(id)?.focus();
      },
    },
    h("option", { value: "human", selected: spec.kind === "human" }, t("lobby.human")),
    this.bots.map((bot) => h("option", { value: bot.name, selected: spec.bot === bot.name },
      t("lobby.bot", { bot: botName(bot.name) }))));
    const row = h("div", { class: "seat" },
      h("label", { class: "seat-name", for: id }, t("seat.number", { n: seat + 1 })), select);
    if (spec.kind !== "bot") return row;
    const bot = this.bots.find((b) => b.name === spec.bot);
    const help = h("p", { class: "help" }, tOr(`bot.${bot.name}.help`, bot.description));
    const params = Object.entries(bot.params).map(([name, p]) =>
      field(`${id}-${name}`, tOr(`bot.param.${name}`, name), tOr(`bot.param.${name}.help`, p.description),
        p, spec.params[name] ?? p.default, (value) => { spec.params[name] = value; }));
    if (!params.length) return h("div", { class: "seat-block" }, row, help);
    return h("div", { class: "seat-block" }, row, help,
      h("details", { class: "params" }, h("summary", {}, t("lobby.parameters")), params));
  }

  async create() {
    this.message.hidden = true;
    const automa = this.automaSeats();
    const body = { game: this.game.name, options: this.chosenOptions() };
    if (this.seats.some((s) => s.kind === "bot")) {
      const seats = [];
      const queue = [...this.seats];
      const total = this.seats.length + Object.keys(automa).length;
      for (let seat = 0; seat < total; seat++) {
        seats.push(seat in automa ? { kind: "bot", bot: automa[seat] } : queue.shift());
      }
      body.seats = seats;
    }
    const button = document.getElementById("create-game");
    button.disabled = true;
    try {
      const game = await api("/v1/games", { method: "POST", body });
      this.showCreated(game);
    } catch (error) {
      this.message.textContent = error instanceof ApiError
        ? t("error.refused", { detail: error.message }) : t("error.network");
      this.message.hidden = false;
    } finally {
      button.disabled = false;
    }
  }

  showCreated(game) {
    const base = withLanguage(`${location.origin}/play/games/${game.id}`);
    const items = game.seats.map((seat) => {
      const name = t("seat.number", { n: seat.seat + 1 });
      if (seat.kind !== "human") {
        const automa = this.automaSeats()[seat.seat];
        return h("li", {}, h("span", { class: "seat-name" }, name), " ",
          automa ? automaName(this.game.name, seat.bot) : botName(seat.bot));
      }
      const link = `${base}#token=${encodeURIComponent(seat.token)}`;
      return h("li", { class: "join" },
        h("span", { class: "seat-name" }, name), " ",
        h("a", { href: link, class: "button primary", dataset: { seat: seat.seat } }, t("lobby.play_as", { seat: name })),
        copyButton(link));
    });
    replace(this.created,
      h("h2", {}, t("lobby.created")),
      h("p", { class: "help" }, t("lobby.links_secret")),
      h("ul", { class: "links" }, items),
      h("p", {}, h("a", { href: base, class: "spectate" }, t("lobby.spectate")), " ", copyButton(base)));
    this.created.hidden = false;
    this.created.querySelector("a")?.focus();
  }
}

function isAutomaOnly(bot, hints) {
  return Object.values(hints).some((game) => typeof game === "object" &&
    (game.automa || []).some((rule) => Object.values(rule.seats).includes(bot.name)));
}

function copyButton(text) {
  const button = h("button", {
    type: "button", class: "copy",
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = t("lobby.copied");
      } catch {
        window.prompt(t("lobby.copy"), text);
      }
    },
  }, t("lobby.copy"));
  return button;
}

/** A labelled input for an option or a bot parameter described by `spec`. */
function field(id, label, help, spec, value, onchange, valueLabel = String) {
  let input;
  if (spec.type === "bool") {
    input = h("input", { id, type: "checkbox", checked: Boolean(value), onchange: () => onchange(input.checked) });
    return h("div", { class: "field check" }, input, h("label", { for: id }, label),
      help && h("p", { class: "help" }, help));
  }
  if (spec.choices) {
    input = h("select", {
      id, onchange: () => onchange(spec.choices[input.selectedIndex]),
    }, spec.choices.map((c) => h("option", { selected: c === value }, valueLabel(c))));
  } else if (spec.type === "int" || spec.type === "float") {
    input = h("input", {
      id, type: "number", value: value ?? "", min: spec.min, max: spec.max,
      step: spec.type === "int" ? 1 : "any",
      onchange: () => onchange(spec.type === "int" ? parseInt(input.value, 10) : parseFloat(input.value)),
    });
  } else {
    input = h("input", { id, type: "text", value: value ?? "", onchange: () => onchange(input.value) });
  }
  return h("div", { class: "field" }, h("label", { for: id }, label), input,
    help && h("p", { class: "help" }, help));
}
