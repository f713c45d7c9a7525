// Building DOM nodes without innerHTML: every text from the server lands as a text node.

/** An element: h("p", {class: "x", onclick: f, "aria-label": "…"}, child, "text", [more]). */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") el.className = value;
    else if (name === "text") el.textContent = String(value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name in el && typeof value !== "string") el[name] = value;
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/** Append children (nodes, strings, numbers, nested arrays; null and false skipped). */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Replace every child of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** A table in a box that scrolls sideways when the screen is narrow: a named region a
 * keyboard can reach (Tab, then the arrow keys) to scroll it. */
export function tableWrap(label, table) {
  return h("div", { class: "table-wrap", role: "region", tabindex: "0", "aria-label": label }, table);
}
