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

// A panel kept across redraws (an object's code, a question being typed) is moved, and a
// moved element loses the focus: it is given back, or the next keystrokes go nowhere.
export function mount(root, ...children) {
  const focused = document.activeElement;
  root.replaceChildren(...children.flat(Infinity).filter(Boolean));
  if (focused && focused !== document.activeElement && root.contains(focused)) focused.focus({ preventScroll: true });
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
