// Narrators' panels that do not change during play: the event's rule options (every
// reading of an ambiguous rule, with its default), a character's psychological traits,
// and the game's dawns and day ends.
import { get, send } from "./api.js";
import { limbStatus } from "./body.js";
import { colon, lang, t } from "./i18n.js";
import { said } from "./outcome.js";
import { confirmButton, h, mount } from "./util.js";

const shown = (value) => (Array.isArray(value) ? value.join(", ") : String(value));

// Loaded when opened: a long list nobody needs during play.
export function optionsPanel(eventId) {
  const list = h("dl", { class: "options" });
  const panel = h("details", { class: "card options-panel" }, h("summary", {}, t("Rule options of this event")), list);
  panel.addEventListener("toggle", async () => {
    if (!panel.open || list.childElementCount) return;
    const answer = await get(`/api/events/${eventId}/options/`).catch(() => null);
    if (!answer || !answer.ok) { list.append(h("dd", {}, t("Not available offline."))); return; }
    for (const option of answer.data.options) {
      list.append(h("dt", { class: option.changed ? "changed" : "" }, option.key),
        h("dd", {}, shown(option.value),
          option.changed ? h("span", { class: "muted" }, " ", t("(default: %(value)s)", { value: shown(option.default) })) : null,
          option.choices ? h("span", { class: "muted" }, " — ", t("choices: %(list)s", { list: option.choices.join(", ") })) : null));
    }
  });
  return panel;
}

// Traits of the one selected character ({key: {label}} from the ruleset); `write(label,
// url, body)` sends the change.
export function psychPanel(snap, traitLabels, write) {
  const traits = Object.keys(traitLabels || {});
  if (!snap || !traits.length) return null;
  const inputs = traits.map((trait) => h("label", {}, traitLabels[trait].label,
    h("input", { type: "number", name: trait, step: 1, min: -100, max: 100, value: snap.sheet.psych[trait] ?? "" })));
  const form = h("form", { class: "card psych" }, h("h2", {}, t("Traits of %(name)s", { name: snap.character.name })),
    inputs, h("button", { type: "submit" }, t("Save the traits")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const psych = {};
    for (const trait of traits) {
      const value = form.elements[trait].value;
      if (value !== "") psych[trait] = Number(value);
    }
    write(t("Save the traits"), `/api/characters/${snap.character.id}/psych/`, { psych });
  });
  return form;
}

// Dawns and day ends (rulesets with days: Septenario): schedule one at a wall-clock
// instant, cancel one that has not run, and read who waits for a decision on wounds left
// untreated at day end. Hidden for rulesets without days. Kept across redraws: the
// instant being typed stays; a "day" message of the live channel updates it.
const DAY_STATUS = () => ({ scheduled: t("scheduled"), due: t("due"), running: t("running"), done: t("done") });
const DAY_KIND = () => ({ dawn: t("Dawn"), day_end: t("Day end") });

export function daysPanel(eventId, { get: read = get, send: write = send } = {}) {
  const list = h("div", { class: "days-list" });
  const untreated = h("div", { class: "untreated" });
  const status = h("p", { class: "message", role: "alert", hidden: true });
  const kind = h("select", { name: "kind", "aria-label": t("Which") });
  const when = h("input", { type: "datetime-local", name: "due_at", required: true, "aria-label": t("When") });
  const form = h("form", { class: "day-form" }, kind, when, h("button", { type: "submit", class: "primary" }, t("Schedule")));
  const root = h("section", { class: "card days-panel", hidden: true },
    h("h2", {}, t("Days: dawn and day end")), list, form, status, untreated);
  let active = true;
  let kinds = null;

  function say(text) {
    status.textContent = text || "";
    status.hidden = !text;
  }

  async function load() {
    const answer = await read(`/api/events/${eventId}/days/`).catch(() => null);
    if (!active || !answer || !answer.ok) return;
    show(answer.data);
  }

  function show(data) {
    root.hidden = !data.kinds.length;
    if (!data.kinds.length) return;
    if (JSON.stringify(data.kinds) !== JSON.stringify(kinds)) {
      kinds = data.kinds;
      mount(kind, kinds.map((key) => h("option", { value: key }, DAY_KIND()[key] || key)));
    }
    const days = [...data.days].sort((a, b) => a.due_at.localeCompare(b.due_at));
    mount(list, days.length ? h("ul", {}, days.map(dayLine)) : h("p", { class: "muted" }, t("No dawn or day end scheduled.")));
    showUntreated(data.untreated);
  }

  const instant = (iso) => new Date(iso).toLocaleString(lang, { weekday: "short", day: "numeric", month: "short",
                                                              hour: "2-digit", minute: "2-digit" });

  function dayLine(day) {
    const cancellable = day.status === "scheduled" || day.status === "due";
    return h("li", { dataset: { day: day.id } }, h("strong", {}, day.label), " — ", instant(day.due_at), " ",
      h("span", { class: "muted" }, DAY_STATUS()[day.status] || day.status,
        day.status === "done" ? ` (${t("%(n)s characters changed", { n: day.characters_changed })})` : ""),
      cancellable ? confirmButton(t("Cancel"), t("Tap again to cancel it"), () => cancel(day), { class: "small" }, `day-${day.id}`) : null);
  }

  function showUntreated(rows) {
    if (!rows || !rows.length) { mount(untreated); return; }
    mount(untreated, h("h3", {}, t("Untreated wounds: your decision")), h("ul", {}, rows.map((row) => {
      const limbs = (row.wounds.limbs || []).map((limb) => `${limb.label}${colon()}${limbStatus(limb.status)}`);
      const points = (row.wounds.damage || []).length;
      return h("li", {}, h("strong", {}, row.character.name), ` (${row.state.label})`,
        limbs.length ? ` — ${limbs.join(", ")}` : "",
        points ? h("span", { class: "muted" }, " — ", t("Damage points: %(n)s", { n: points })) : null);
    })));
  }

  async function cancel(day) {
    const answer = await write(t("Cancel"), "DELETE", `/api/events/${eventId}/days/${day.id}/`);
    say(said(answer));
    load();
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const due = new Date(when.value);
    if (Number.isNaN(due.getTime())) return;
    const answer = await write(t("Schedule"), "POST", `/api/events/${eventId}/days/`,
                               { kind: kind.value, due_at: due.toISOString() });
    say(said(answer));
    if (answer.ok) when.value = "";
    load();
  });

  load();
  return {
    element: root,
    refresh: load,
    // The live channel: a day has run; its untreated list is the news.
    onDay(message) { showUntreated(message.untreated); load(); },
    stop() { active = false; },
  };
}
