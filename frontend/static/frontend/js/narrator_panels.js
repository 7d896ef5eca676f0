// Narrators' panels that do not change during play: the event's rule options (every
// reading of an ambiguous rule, with its default) and a character's psychological traits.
import { get } from "./api.js";
import { t } from "./i18n.js";
import { h } from "./util.js";

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
