// The narrators' list of characters, made for an event of hundreds: a search by name, code
// or team, one chip per state with its count (a tap filters), the selection the push sheet
// acts on, the "next to fall" strip, and one compact row per character. Only the rows on
// screen (and a margin) are in the page: every row has the same height, so the position of
// the n-th is known without drawing the others, and 3,000 characters scroll like 30. That
// height is the stylesheet's (--row-h): taller when a name shown needs two lines.
import { limbStatus } from "./body.js";
import { countdownElement, phraseParts } from "./countdown.js";
import { colon, lang, t } from "./i18n.js";
import { nextToFall } from "./next_to_fall.js";
import { phoneMark, phoneWhy } from "./phone_readiness.js";
import { h, mount } from "./util.js";

const FALLBACK_ROW_HEIGHT = 80;   // px, if the stylesheet is not there yet
const MARGIN_ROWS = 8;          // drawn above and below the visible rows: a fast flick shows no gap

// "Vipères" is found by "viperes": searches ignore case and accents.
const fold = (text) => String(text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
const searchText = new WeakMap();   // snapshot -> its folded name, code and team

function haystack(snap) {
  if (!searchText.has(snap)) {
    const { name, code, team } = snap.character;
    searchText.set(snap, fold(`${name} ${code || ""} ${team || ""}`));
  }
  return searchText.get(snap);
}

// `characters()`: the snapshots; `ruleset()`: the ruleset (states, their order and severity)
// or null offline; `selected`: the ids the sheet acts on (a Set shared with the screen);
// `onSelection()`: called when it changes.
// `phone(cid)`: the character's phone check (js/phone_readiness.js), marked in its row.
export function liveList({ characters, ruleset, selected, onSelection, phone = () => null }) {
  let query = "";
  let state = "";
  let sortBy = "deadline";
  let shown = [];
  let drawn = new Map();   // character id -> { snap, el }: the rows in the page
  let flashed = null;      // the row a tap on the strip pointed at, outlined for a moment
  let frame = 0;

  const search = h("input", { type: "search", class: "list-search", enterkeyhint: "search", autocomplete: "off",
    placeholder: t("Name, code or team"), "aria-label": t("Find a character"),
    oninput: () => { query = search.value; refresh({ toTop: true }); },
    onkeydown: (e) => { if (e.key === "Enter") search.blur(); } });
  const sort = h("button", { type: "button", class: "sort", onclick: () => {
    sortBy = sortBy === "deadline" ? "name" : "deadline";
    refresh({ toTop: true });
  } });
  const chips = h("div", { class: "chips", role: "group", "aria-label": t("Filter by state") });
  const counts = h("span", { class: "count", role: "status" });
  // Ticks every row the search and the filter show (or unticks them when all are ticked).
  const all = h("input", { type: "checkbox", class: "select-shown", "aria-label": t("Select all shown"),
    onchange: () => {
      const every = shown.length && shown.every((snap) => selected.has(snap.character.id));
      for (const snap of shown) { if (every) selected.delete(snap.character.id); else selected.add(snap.character.id); }
      changed();
    } });
  const none = h("button", { type: "button", class: "select-none", onclick: () => { selected.clear(); changed(); } }, t("Untick all"));
  // Rows ticked earlier that the search or the filter now hides: still on the sheet's list,
  // so said, with "Untick all" beside.
  const hiddenTicked = h("span", { class: "hidden-ticked", role: "status", hidden: true });
  const bar = h("div", { class: "selection-bar" }, h("label", { class: "select-all" }, all, counts), none, hiddenTicked);
  const strip = nextToFall({ onPick: (cid) => reveal(cid) });
  const spacer = h("div", { class: "list-spacer" });
  const box = h("div", { class: "list-box", role: "list", "aria-label": t("Characters") }, spacer);
  const element = h("section", { class: "card live-list" },
    h("div", { class: "list-tools" }, search, sort), chips, bar, strip.element, box);

  let rowHeight = FALLBACK_ROW_HEIGHT;
  box.addEventListener("scroll", () => {
    if (!frame) frame = requestAnimationFrame(() => { frame = 0; draw(); });
  }, { passive: true });
  const resized = new ResizeObserver(() => { draw(); fitNames(); });
  resized.observe(box);
  // The list is as tall as the screen under the sticky top bar, whose height varies (links
  // wrap, a waiting write adds a line).
  const topbar = document.getElementById("topbar");
  const barResized = new ResizeObserver(() => document.documentElement.style.setProperty("--topbar-h", `${topbar.offsetHeight}px`));
  if (topbar) barResized.observe(topbar);

  function stateList() {
    const rs = ruleset();
    const known = rs ? Object.entries(rs.states).map(([key, s]) => [key, s.label]) : [];
    for (const snap of characters()) {   // offline, or a state the ruleset does not list
      if (!known.some(([key]) => key === snap.state.key)) known.push([snap.state.key, snap.state.label]);
    }
    return known;
  }

  function matching() {
    const words = fold(query).split(/\s+/).filter(Boolean);
    return characters().filter((snap) => words.every((word) => haystack(snap).includes(word)));
  }

  function order(rows) {
    const deadline = (s) => (s.next ? s.next.game_s : Infinity);
    return rows.sort((a, b) => (sortBy === "deadline" ? deadline(a) - deadline(b) : 0)
      || a.character.name.localeCompare(b.character.name, lang));
  }

  let chipsKey = "";
  function showChips(found) {
    const perState = new Map();
    for (const snap of found) perState.set(snap.state.key, (perState.get(snap.state.key) || 0) + 1);
    // Redrawn only when a count or the filter changes: a chip being tapped stays in place.
    const key = `${state}|${found.length}|${[...perState].join(",")}`;
    if (key === chipsKey) return;
    chipsKey = key;
    const chip = (key, label, n) => h("button", { type: "button", class: "chip", dataset: { state: key },
      "aria-pressed": String(state === key), onclick: () => { state = state === key ? "" : key; refresh({ toTop: true }); } },
      label, h("span", { class: "n" }, String(n)));
    mount(chips, chip("", t("All"), found.length),
      stateList().filter(([key]) => perState.get(key) || state === key)
        .map(([key, label]) => chip(key, label, perState.get(key) || 0)));
  }

  // Everything the list shows follows from the snapshots, the search and the filter.
  function refresh({ toTop = false } = {}) {
    const found = matching();
    shown = order(state ? found.filter((snap) => snap.state.key === state) : found);
    // Its name is what it shows (WCAG 2.5.3): a voice command says what the eyes read.
    sort.textContent = sortBy === "deadline" ? t("By deadline") : t("By name");
    showChips(found);
    showCounts();
    strip.update(characters(), ruleset());
    if (toTop) box.scrollTop = 0;
    draw();
    fitNames();
  }

  // Rows grow taller for all (their height must be one) when a name shown does not fit on one
  // line of the name's column: it then takes two, never an ellipsis. Measured on a canvas in
  // the name's font, a few hundred names at a time in well under a millisecond.
  const ruler = document.createElement("canvas").getContext("2d");
  function fitNames() {
    const name = spacer.querySelector(".char-row .who strong");
    if (!name || !name.clientWidth) return;
    ruler.font = getComputedStyle(name).font;
    const room = name.clientWidth;
    const tall = shown.some((snap) => ruler.measureText(snap.character.name).width > room);
    if (tall === spacer.classList.contains("tall-names")) return;
    spacer.classList.toggle("tall-names", tall);
    draw();
  }

  function details(snap) {
    const limbs = snap.body ? snap.body.locations.filter((loc) => loc.status !== "ok" && loc.status !== "wounded") : [];
    return [...(snap.flags || []).map((flag) => flag.label),
      ...limbs.map((loc) => `${loc.label}${colon()}${limbStatus(loc.status)}`),
      snap.load && snap.load.status !== "normal" ? snap.load.label : null,
      ...snap.effects.map((effect) => effect.text)].filter(Boolean).join(" · ");
  }

  // "Coma dans" over "14:59": the countdown phrased in the app's language, on two lines.
  function whenParts(snap) {
    const { before, after } = phraseParts(snap.next.leads_to);
    return [before ? h("span", { class: "line sub muted" }, before) : null,
      countdownElement("strong", snap.next, snap, { class: "line" }),
      after ? h("span", { class: "line sub muted" }, after) : null];
  }

  function rowElement(snap, phoneRow) {
    const cid = snap.character.id;
    const box_ = h("input", { type: "checkbox", "aria-label": snap.character.name,
      onchange: () => { if (box_.checked) selected.add(cid); else selected.delete(cid); changed(); } });
    const severity = Math.min(snap.state.severity, 4);
    const more = details(snap);
    // Out of the game for real (a real injury, safety board): apart from the game's states,
    // its timers stopped.
    const real = snap.out_for_real;
    return h("label", { class: `char-row severity-${severity}${real ? " out-for-real" : ""}`, role: "listitem", dataset: { character: cid } },
      box_,
      h("span", { class: "who" }, h("strong", { class: "line" }, snap.character.name),
        h("span", { class: "line sub muted" }, phoneMark(phoneRow), " ",
          [snap.character.team, snap.character.code, phoneWhy(phoneRow)].filter(Boolean).join(" · "))),
      h("span", { class: "what" }, real
        ? [h("span", { class: "line real-injury" }, t("Out for real")), h("span", { class: "line sub muted" }, real.reason)]
        : [h("span", { class: `line row-state severity-${severity}` }, snap.state.label),
          more ? h("span", { class: "line sub muted hurt" }, more) : null]),
      h("span", { class: "when" }, real ? h("span", { class: "muted" }, t("timers stopped")) : snap.next
        ? whenParts(snap)
        : h("span", { class: "muted" }, "—")));
  }

  function draw() {
    rowHeight = parseFloat(getComputedStyle(spacer).getPropertyValue("--row-h")) || FALLBACK_ROW_HEIGHT;
    spacer.style.height = `${shown.length * rowHeight}px`;
    const height = box.clientHeight || window.innerHeight;
    const first = Math.max(0, Math.floor(box.scrollTop / rowHeight) - MARGIN_ROWS);
    const last = Math.min(shown.length, Math.ceil((box.scrollTop + height) / rowHeight) + MARGIN_ROWS);
    const kept = new Map();
    for (let i = first; i < last; i += 1) {
      const snap = shown[i];
      const cid = snap.character.id;
      const phoneRow = phone(cid);
      const held = drawn.get(cid);
      const row = held && held.snap === snap && held.phone === phoneRow ? held : { snap, phone: phoneRow, el: rowElement(snap, phoneRow) };
      const picked = selected.has(cid);
      row.el.querySelector("input").checked = picked;
      row.el.classList.toggle("picked", picked);
      row.el.classList.toggle("flash", flashed === cid);
      row.el.style.transform = `translateY(${i * rowHeight}px)`;
      kept.set(cid, row);
    }
    for (const [cid, row] of drawn) if (kept.get(cid) !== row) row.el.remove();
    drawn = kept;
    // Rows already in the page stay where they are (a row moved out and back while a
    // finger is on it would lose the tap); new ones go in order among them.
    let cursor = spacer.firstChild;
    for (const row of kept.values()) {
      if (row.el === cursor) cursor = cursor.nextSibling;
      else spacer.insertBefore(row.el, cursor);
    }
  }

  function showCounts() {
    counts.textContent = t("Shown: %(shown)s · selected: %(selected)s", { shown: shown.length, selected: selected.size });
    const ticked = shown.filter((snap) => selected.has(snap.character.id)).length;
    all.checked = ticked > 0 && ticked === shown.length;
    all.indeterminate = ticked > 0 && ticked < shown.length;
    none.hidden = !selected.size;
    const hidden = selected.size - ticked;
    hiddenTicked.hidden = hidden <= 0;
    hiddenTicked.textContent = hidden > 0 ? t("Ticked but hidden by the search or the filter: %(n)s", { n: hidden }) : "";
  }

  function changed() {
    showCounts();
    draw();
    onSelection();
  }

  // Bring a character's row into the middle of the list (the search and filter give way
  // when they hide it) and outline it for a moment.
  function reveal(cid) {
    if (!shown.some((snap) => snap.character.id === cid)) {
      query = ""; state = ""; search.value = "";
      refresh();
    }
    const index = shown.findIndex((snap) => snap.character.id === cid);
    if (index < 0) return;
    box.scrollTop = Math.max(0, index * rowHeight - (box.clientHeight - rowHeight) / 2);
    flashed = cid;
    draw();
    setTimeout(() => { if (flashed === cid) { flashed = null; draw(); } }, 1600);
  }

  return {
    element,
    refresh,
    reveal,
    shown: () => shown,
    selectNone() { selected.clear(); changed(); },
    stop() { resized.disconnect(); barResized.disconnect(); cancelAnimationFrame(frame); },
  };
}
