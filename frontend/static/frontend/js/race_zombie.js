// The zombie's screen of the zombie race (#/zombie/<event>): "Arracher un drapeau". Scan
// the survivor's bib (or type its code): the server answers the survivor's name, status,
// lives left and the rules the zombie confirms (`confirmations`, each a required box:
// exactly those keys are sent back). The grab's answer says how many lives are left; a
// refusal says what is missing. A zombie may also report an infraction that costs no life.
// Zombies have no score and see no ranking.
import { get, send } from "./api.js";
import { t } from "./i18n.js";
import { codeFromLink } from "./items.js";
import { INFRACTIONS, followRaceLanguage, livesFlags, raceEvent, scanField } from "./race_common.js";
import { said } from "./outcome.js";
import { h, mount } from "./util.js";

const POSITION_KEY = "race-zombie-position";

const livesLeft = (n) => (n === 1 ? t("%(n)s life left", { n }) : t("%(n)s lives left", { n }));

// The bib's QR holds the survivor's code, or a link with ?patient=CODE (a character's QR).
const bibCode = (text) => codeFromLink(text, "patient");

// The phone's position, if the zombie allowed it: a grab too near a balise is marked for
// the organisers to review. Never waits more than a few seconds.
function position() {
  if (localStorage.getItem(POSITION_KEY) !== "1" || !navigator.geolocation) return Promise.resolve(null);
  return Promise.race([
    new Promise((resolve) => navigator.geolocation.getCurrentPosition(
      (p) => resolve({ lat: p.coords.latitude, lon: p.coords.longitude }), () => resolve(null),
      { enableHighAccuracy: true, timeout: 4000, maximumAge: 15000 })),
    new Promise((resolve) => setTimeout(() => resolve(null), 4500)),
  ]);
}

export async function show(root, { id, me, context }) {
  const event = raceEvent(me, id) || { id, name: "", roles: [] };
  if (followRaceLanguage(event.language)) return () => {};
  let bib = null;           // what the bib scan answered
  let lookupNote = null;
  let result = null;        // the last grab recorded
  let refusal = null;
  let reportNote = null;
  let busy = false;
  let active = true;

  const scan = scanField({
    id: "bib-code", label: t("Bib code"), placeholder: "K7PQ2M", button: t("Find"),
    scanLabel: t("Scan the bib"), onCode: lookup, clean: bibCode, autocapitalize: "characters",
  });

  async function lookup(code) {
    refusal = null;
    lookupNote = null;
    bib = null;
    try {
      const answer = await get(`/api/race/events/${id}/bibs/${encodeURIComponent(code)}/`);
      if (answer.ok) bib = answer.data;
      else lookupNote = answer.data.detail || t("Unknown code.");
    } catch {
      lookupNote = t("No network: finding a bib needs the network.");
    }
    render();
  }

  async function grab(form) {
    if (busy) return;
    busy = true;
    const confirmations = bib.confirmations.filter((c) => form.elements[`confirm-${c.key}`].checked).map((c) => c.key);
    const where = await position();
    const answer = await send(t("Pull a flag"), "POST", `/api/race/events/${id}/grabs/`,
      { code: bib.entry.code, confirmations, ...(where || {}) });
    busy = false;
    if (answer.ok) {
      result = answer.data;
      refusal = null;
      bib = null;
      scan.clear();
      context.synced();
    } else if (answer.queued) {
      result = null;
      refusal = said(answer);
      bib = null;
      scan.clear();
    } else {
      refusal = said(answer);
    }
    render();
  }

  async function report(form) {
    const body = { kind: form.elements.kind.value, note: form.elements.note.value.trim() };
    const answer = await send(t("Report an infraction"), "POST", `/api/race/entries/${bib.entry.id}/infractions/`, body);
    reportNote = answer.ok ? { ok: true, text: t("Infraction reported to the organisers.") } : { ok: false, text: said(answer) };
    if (answer.ok) form.reset();
    render();
  }

  function grabForm() {
    const possible = bib.racing && bib.lives > 0;
    const form = h("form", { class: "grab-form", id: "grab-form", onsubmit: (e) => { e.preventDefault(); grab(form); } },
      h("p", {}, t("Confirm each rule of the grab:")),
      bib.confirmations.map((c) => h("label", { class: "race-check" },
        h("input", { type: "checkbox", name: `confirm-${c.key}`, required: true, dataset: { confirmation: c.key } }), " ", c.label)),
      h("button", { type: "submit", class: "primary huge" }, t("Record the flag pulled")));
    return h("section", { class: "card bib", id: "bib" },
      h("h2", {}, t("Survivor")),
      h("p", { class: "bib-name" }, h("strong", {}, bib.entry.name), " ", h("span", { class: "muted" }, bib.status.label)),
      h("div", { class: "lives-row" }, livesFlags({ remaining: bib.lives, initial: Math.max(bib.lives, 2) }),
        h("strong", { class: "lives-count" }, livesLeft(bib.lives))),
      !bib.racing ? h("p", { class: "message" }, t("This survivor is not racing: no flag to pull."))
        : bib.lives <= 0 ? h("p", { class: "message" }, t("No flag left on this belt.")) : null,
      possible ? form : null,
      reportPanel());
  }

  function reportPanel() {
    const form = h("form", { class: "report-form", onsubmit: (e) => { e.preventDefault(); report(form); } },
      h("label", {}, t("Which infraction"), h("select", { name: "kind" }, INFRACTIONS().map(([key, label]) => h("option", { value: key }, label)))),
      h("label", {}, t("Note (optional)"), h("input", { name: "note", maxlength: 300, autocomplete: "off" })),
      h("button", { type: "submit" }, t("Send the report")));
    return h("details", { class: "report" }, h("summary", {}, t("Report an infraction (no life)")), form,
      reportNote ? h("p", { class: reportNote.ok ? "race-note ok" : "race-note refusal" }, reportNote.text) : null);
  }

  function positionToggle() {
    const box = h("input", { type: "checkbox", checked: localStorage.getItem(POSITION_KEY) === "1", onchange: () => {
      localStorage.setItem(POSITION_KEY, box.checked ? "1" : "0");
      if (box.checked && navigator.geolocation) navigator.geolocation.getCurrentPosition(() => {}, () => {}, { timeout: 8000 });
    } });
    return h("label", { class: "race-check muted" }, box, " ", t("Send my position with each grab (optional)"));
  }

  function render() {
    if (!active) return;
    mount(root,
      h("h1", {}, t("Zombie")),
      h("p", { class: "muted" }, event.name, " — ", t("no score, no ranking: you pull flags.")),
      result ? h("section", { class: "card grab-result", role: "status", id: "grab-result" },
        h("p", {}, h("strong", {}, t("Flag pulled: %(name)s", { name: result.entry.name }))),
        h("div", { class: "lives-row" }, livesFlags({ remaining: result.lives, initial: Math.max(result.lives, 2) }),
          h("strong", { class: "lives-count" }, livesLeft(result.lives))),
        result.grab.review ? h("p", { class: "message" }, t("Marked for review: %(why)s", { why: result.grab.review.text || t("too near a balise") })) : null) : null,
      refusal ? h("p", { class: "card race-note refusal", role: "alert", id: "grab-refusal" }, refusal) : null,
      h("section", { class: "card" }, h("h2", {}, t("Pull a flag")),
        h("p", { class: "muted" }, t("Scan the QR code on the survivor's bib, or type the code under it.")),
        scan.element, lookupNote ? h("p", { class: "message", role: "alert" }, lookupNote) : null,
        positionToggle()),
      bib ? grabForm() : null);
  }

  render();
  context.setOnline(navigator.onLine);
  return () => { active = false; scan.stop(); };
}
