// Objects with a tag ("étiquettes"): scan an object's QR code (or type its code), read its
// tag, then touch it, ingest it (oneself, or make someone else ingest it) or open it; or
// unlock / lock a lock (its padlock moves between a red and a green loop). The verso is
// shown only when this character is the one it reached: the server never sends it to
// anyone else. Where the rules have a Carga (Septenario), an object is also picked up
// ("carry") or put down ("drop") by its code: it then counts in the character's load.
import { get as apiGet, send as apiSend } from "./api.js";
import { t as translate } from "./i18n.js";
import { said } from "./outcome.js";
import { startScanner } from "./scanner.js";
import { confirmButton, formatDuration, h as element, mount } from "./util.js";

// A scanned QR holds a link with ?<param>=CODE; a typed code is the code itself.
export function codeFromLink(text, param) {
  const value = String(text || "").trim();
  try {
    const fromUrl = new URL(value).searchParams.get(param);
    if (fromUrl) return fromUrl.toUpperCase();
  } catch { /* not a link */ }
  return value.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

// An object's label holds {PUBLIC_URL}/?object=CODE.
export const codeFromObjectLink = (text) => codeFromLink(text, "object");

// The panel for one character: returns its element, `lookup(code)` (e.g. for a link
// opened with ?object=CODE) and `stop()` (releases the camera when the screen changes).
export function objectPanel({ characterId, code = null, get = apiGet, send = apiSend,
                              t = translate, h = element, onDone = () => {} }) {
  const root = h("div", { class: "object-panel" });
  const base = `/api/characters/${characterId}/items`;
  let item = null;        // what the scan answered: name, tag, actions; never the verso
  let result = null;      // the answer of a use
  let message = null;
  let choosingTarget = false;
  let scanner = null;
  let active = true;
  let load = null;        // the character's Carga (snapshot.load), null without one
  let carryNote = null;   // what a carry or a drop answered
  let shownHeld = null;

  async function lookup(value) {
    const wanted = codeFromObjectLink(value);
    message = null;
    result = null;
    carryNote = null;
    choosingTarget = false;
    if (!wanted) return;
    try {
      const answer = await get(`${base}/${encodeURIComponent(wanted)}/`);
      if (answer.ok) item = answer.data;
      else { item = null; message = answer.data.detail || t("Unknown code."); }
    } catch {
      message = t("No network: identifying an object needs the network.");
    }
    render();
  }

  // `extra`: a lock's wanted position, so that a lock someone else just moved is not
  // moved back by a tap on what this phone showed before.
  async function use(targetCode, extra = {}) {
    const body = targetCode ? { target_code: targetCode, ...extra } : { ...extra };
    const answer = await send(item.name, "POST", `${base}/${item.code}/use/`, body);
    choosingTarget = false;
    message = said(answer);
    if (answer.ok) { result = answer.data; item = answer.data.item; onDone(answer.data); }
    render();
  }

  const held = () => Boolean(load && item && load.items.some((carried) => carried.code === item.code));

  async function carry(verb) {
    const answer = await send(item.name, "POST", `${base}/${item.code}/${verb}/`, {});
    message = said(answer);
    if (answer.ok) {
      result = null;
      item = answer.data.item;
      if (answer.data.load) load = answer.data.load;
      carryNote = answer.data.carried ? t("You carry it.") : t("You put it down.");
      onDone(answer.data);
    }
    render();
  }

  function carryButtons() {
    if (!load || item.kind === "lock") return null;
    return held()
      ? h("button", { type: "button", class: "carry", onclick: () => carry("drop") }, t("Drop it"))
      : h("button", { type: "button", class: "carry", onclick: () => carry("carry") }, t("Carry it"));
  }

  async function scan(param, then) {
    stopScan();
    try {
      scanner = await startScanner((text) => { scanner = null; then(codeFromLink(text, param)); });
      if (!scanner) message = t("This phone cannot scan: type the code printed under the QR code.");
    } catch {
      message = t("The camera could not start: type the code.");
    }
    render();
  }

  function stopScan() {
    if (scanner) scanner.stop();
    scanner = null;
  }

  function codeForm(id, placeholder, submitLabel, onCode) {
    const input = h("input", { id, autocomplete: "off", autocapitalize: "characters",
                               placeholder, "aria-label": placeholder });
    return h("form", { onsubmit: (e) => { e.preventDefault(); onCode(input.value); } },
      input, h("button", { type: "submit" }, submitLabel));
  }

  function finder() {
    return h("section", { class: "card" }, h("h2", {}, t("Scan an object")),
      h("button", { type: "button", class: "primary", onclick: () => scan("object", lookup) },
        t("Scan the object's QR code")),
      scanner && !choosingTarget ? h("div", { class: "scanner" }, scanner.video) : null,
      codeForm("object-code", t("Object code"), t("Find"), lookup));
  }

  function actionButton(action) {
    if (action === "ingest") {
      return h("button", { type: "button", class: "primary", onclick: () => { choosingTarget = true; render(); } }, t("Ingest"));
    }
    const [label, again] = {
      open: [t("Open it"), t("Tap again to open it")],
      unlock: [t("Unlock it"), t("Tap again to unlock it")],
      lock: [t("Lock it"), t("Tap again to lock it")],
    }[action] || [t("I touched it"), t("Tap again: I touched it")];
    const extra = item.kind === "lock" ? { closed: action === "lock" } : {};
    return confirmButton(label, again, () => use(null, extra), { class: "primary" }, `${item.code}:${action}`);
  }

  function whoIngests() {
    return h("section", { class: "card" }, h("h2", {}, t("Who ingests it?")),
      h("button", { type: "button", class: "primary", onclick: () => use(null) }, t("Me")),
      h("button", { type: "button", onclick: () => scan("patient", use) }, t("Scan their QR code")),
      scanner ? h("div", { class: "scanner" }, scanner.video) : null,
      codeForm("target-code", t("Their code"), t("Make them ingest it"),
        (value) => use(codeFromLink(value, "patient"))),
      h("button", { type: "button", onclick: () => { stopScan(); choosingTarget = false; render(); } }, t("Cancel")));
  }

  function described() {
    const firearm = item.kind === "firearm";
    return h("section", { class: "card object" }, h("h2", {}, item.name),
      item.tag_text ? h("p", { class: "effect-text tag-text" }, item.tag_text) : null,
      firearm ? h("p", {}, item.loaded ? t("Loaded") : t("Not loaded"),
        item.holder ? ` — ${t("Held by %(name)s", { name: item.holder })}` : "") : null,
      item.kind === "lock" ? h("p", { class: "lock-position" }, item.closed
        ? t("Closed: the padlock is on the red loop.") : t("Open: the padlock is on the green loop.")) : null,
      item.used ? h("p", { class: "muted" }, t("Already used.")) : null,
      item.actions.map(actionButton), carryButtons(),
      carryNote && load ? h("p", { class: "carry-note", role: "status" }, carryNote, " ",
        t("Load: %(total)s / %(capacity)s", load), " — ", load.label) : null);
  }

  function outcome() {
    if (!result) return null;
    if (result.closed !== undefined) {
      return h("section", { class: "card", role: "status" }, h("p", {}, result.closed
        ? t("Locked: now move the padlock to the red loop.") : t("Unlocked: now move the padlock to the green loop.")));
    }
    if (!result.revealed) return h("section", { class: "card", role: "status" }, h("p", {}, result.done));
    const lasts = result.effect && result.effect.duration_s;
    return h("section", { class: "card effects", role: "status" }, h("h2", {}, t("Read this now:")),
      h("p", { class: "effect-text" }, result.revealed),
      lasts ? h("p", { class: "muted" }, t("For %(time)s", { time: formatDuration(lasts) })) : null);
  }

  function render() {
    if (!active) return;
    shownHeld = `${Boolean(load)}:${held()}`;
    mount(root, finder(), item ? described() : null, choosingTarget ? whoIngests() : null,
      outcome(), message ? h("p", { class: "card message", role: "alert" }, message) : null);
  }

  // The player's screen hands every snapshot's load over; redrawn only when it changes
  // what this panel offers (a redraw would wipe a code being typed).
  function setLoad(fresh) {
    load = fresh || null;
    if (item && shownHeld !== `${Boolean(load)}:${held()}`) render();
  }

  render();
  if (code) lookup(code);
  return { element: root, lookup, setLoad, stop() { active = false; stopScan(); } };
}
