// Small DOM and formatting helpers shared by the screens.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// A redraw keeps the user's place: a keyboard, switch or screen-reader user must not be
// sent back to the top of the page in the middle of an action. A panel kept across
// redraws (an object's code, a question being typed) is moved and given its focus back;
// a control drawn anew gets it if the new screen has the same one (same place, or same
// kind and words); one that is gone leaves the focus on the screen's heading.
export function mount(root, ...children) {
  const focused = document.activeElement;
  const place = focused && focused !== document.body && root.contains(focused) ? placeOf(root, focused) : null;
  root.replaceChildren(...children.flat(Infinity).filter(Boolean));
  if (!place || document.activeElement === focused) return;
  const again = root.contains(focused) ? focused : findPlace(root, place);
  if (again) again.focus({ preventScroll: true });
  if (again && document.activeElement === again) return;    // not hidden nor disabled
  const heading = root.querySelector("h1, h2");
  if (heading) { heading.setAttribute("tabindex", "-1"); heading.focus({ preventScroll: true }); }
}

// A field is known by its label, not by what is typed in it.
const FIELDS = new Set(["INPUT", "SELECT", "TEXTAREA"]);
const wordsOf = (el) => (el.getAttribute("aria-label") || (FIELDS.has(el.tagName) ? "" : el.textContent) || "").trim().slice(0, 120);

function placeOf(root, el) {
  const path = [];
  for (let node = el; node && node !== root; node = node.parentElement) {
    path.unshift(Array.prototype.indexOf.call(node.parentElement.children, node));
  }
  return { path, tag: el.tagName, name: el.getAttribute("name"), words: wordsOf(el) };
}

function findPlace(root, place) {
  const same = (el) => el && el.tagName === place.tag && el.getAttribute("name") === place.name && wordsOf(el) === place.words;
  let node = root;
  for (const index of place.path) node = node ? node.children[index] : null;
  if (same(node)) return node;
  return Array.from(root.querySelectorAll(place.tag)).find(same) || null;
}

// 754 s -> "12:34", 3725 s -> "1:02:05"; never negative.
export function formatDuration(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const secs = String(s % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

// A cookie's value ("" when it is not set): the CSRF token, the chosen language.
export function cookie(name) {
  const found = document.cookie.split("; ").find((row) => row.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.split("=")[1]) : "";
}

export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// A button that asks for a second tap before it acts: one thumb, no accidental hit. The
// armed state outlives a redraw of the screen (a snapshot may arrive between the taps).
const armedUntil = new Map();

export function confirmButton(label, confirmLabel, onConfirm, attrs = {}, key = label) {
  const isArmed = () => (armedUntil.get(key) || 0) > Date.now();
  const show = (armed) => {
    button.textContent = armed ? confirmLabel : label;
    button.classList.toggle("armed", armed);
  };
  const button = h("button", { ...attrs, type: "button" });
  show(isArmed());
  button.addEventListener("click", () => {
    if (isArmed()) {
      armedUntil.delete(key);
      show(false);
      onConfirm();
      return;
    }
    armedUntil.set(key, Date.now() + 4000);
    show(true);
    setTimeout(() => { if (!isArmed()) show(false); }, 4100);
  });
  return button;
}

// A top-bar link to one of the person's screens in an event: "Le Manoir — Narrator".
export function eventLink(event, href, role) {
  return h("a", { href, class: "event-link", title: `${event.name} — ${role}` },
    h("span", { class: "event-name" }, event.name), " — ", h("span", { class: "event-role" }, role));
}
