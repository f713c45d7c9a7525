// The page's entry point: language first, then the lobby or a game by the path.

import { chooseLanguage, language, LANGUAGES, loadLanguage, saveLanguage, t, translateStatic, withLanguage } from "./i18n.js";
import { h, replace } from "./dom.js";
import { showLobby } from "./lobby.js";
import { showGame } from "./game.js";

function languageSwitch() {
  const select = document.getElementById("lang-select");
  replace(select, Object.entries(LANGUAGES).map(([code, name]) =>
    h("option", { value: code, selected: code === language() }, name)));
  select.addEventListener("change", () => {
    saveLanguage(select.value);
    const url = new URL(location.href);
    url.searchParams.set("lang", select.value);
    location.replace(url.href); // the fragment (a seat's token) is kept
  });
}

async function start() {
  await loadLanguage(chooseLanguage());
  translateStatic();
  document.title = t("app.title");
  languageSwitch();
  document.querySelector(".brand")?.setAttribute("href", withLanguage("/play/"));
  const app = document.getElementById("app");
  const match = location.pathname.match(/^\/play\/games\/([A-Za-z0-9_-]{1,64})\/?$/);
  try {
    if (match) await showGame(app, match[1]);
    else await showLobby(app);
  } catch (error) {
    const known = { 401: "error.bad_link", 404: "error.no_game" };
    const key = known[error.status] || "error.load";
    replace(app, h("p", { class: "error", role: "alert" }, t(key, { detail: error.message })),
      h("p", {}, h("a", { href: withLanguage("/play/") }, t("error.to_lobby"))));
  }
}

start();
