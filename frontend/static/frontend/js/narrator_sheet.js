// The narrators' sheet: what acts on the characters selected in the list (an effect to
// push to them, to a team or to everyone; for one character, its state and traits),
// opened from anywhere on the screen by a floating button that says how many are
// selected. A sheet from the bottom on a phone, a panel on the right on a tablet (the
// stylesheet decides), beside a list that stays usable: rows may be ticked while it is open.
import { confirmCorrection, confirmPush, offerUndo } from "./confirm.js";
import { countdownPhrase } from "./countdown.js";
import { colon, t } from "./i18n.js";
import { psychPanel } from "./narrator_panels.js";
import { reissueButton } from "./reissue.js";
import { h, mount } from "./util.js";

// `characters`: the screen's Map of snapshots; `selected`: the ids ticked in the list;
// `write(label, url, body, {say, done})`: sends a write and shows its outcome with `say`.
// `selectNone()`: unticks every row of the list (a phone's sheet covers the list's own button).
export function actionSheet({ eventId, characters, selected, ruleset, write, selectNone }) {
  const title = t("Push an effect");
  const status = h("p", { class: "message sheet-status", role: "status", hidden: true });
  const say = (words) => { status.textContent = words || ""; status.hidden = !words; };
  const one = h("div", { class: "one-character" });
  const body = h("div", { class: "sheet-body" });
  const heading = h("h2", { id: "action-sheet-title", tabindex: "-1" }, title);
  const element = h("aside", { class: "action-sheet", hidden: true, role: "dialog", "aria-labelledby": "action-sheet-title" },
    h("div", { class: "sheet-head" }, heading,
      h("button", { type: "button", class: "sheet-close", "aria-label": t("Close"), onclick: () => close() }, "✕")),
    body);
  const badge = h("span", { class: "badge", hidden: true });
  const button = h("button", { type: "button", class: "sheet-fab primary", "aria-haspopup": "dialog",
    onclick: () => open() }, title, badge);
  element.addEventListener("keydown", (event) => { if (event.key === "Escape") close(); });

  function open() {
    element.hidden = false;
    button.hidden = true;
    sync();
    heading.focus({ preventScroll: true });
  }

  function close() {
    element.hidden = true;
    button.hidden = false;
    button.focus({ preventScroll: true });
  }

  const teams = () => [...new Set([...characters.values()].map((s) => s.character.team).filter(Boolean))].sort();
  const stateOptions = () => (ruleset ? Object.entries(ruleset.states) : []).map(([key, s]) => h("option", { value: key }, s.label));

  // -- who receives the effect: the selection, a team or everyone, always said in words --
  let targetChosen = false;   // a team or everyone picked since the selection last changed
  let targetsKey = "";
  const target = h("select", { name: "target", "aria-label": t("Send to"),
    onchange: () => { targetChosen = true; showTarget(); } });
  const summary = h("p", { class: "sheet-target" });
  const untick = h("button", { type: "button", class: "sheet-untick", hidden: true, onclick: () => selectNone() },
    t("Untick them all"));

  function fillTargets() {
    const key = `${selected.size}|${teams().join("|")}`;
    if (key === targetsKey) return;
    targetsKey = key;
    const previous = target.value;
    mount(target,
      h("option", { value: "selected", disabled: !selected.size }, t("The selected characters (%(n)s)", { n: selected.size })),
      teams().map((team) => h("option", { value: `team:${team}` }, t("Team %(team)s", { team }))),
      h("option", { value: "everyone" }, t("Everyone")));
    const still = [...target.options].some((o) => o.value === previous && !o.disabled);
    target.value = targetChosen && still ? previous : (selected.size ? "selected" : "everyone");
  }

  function showTarget() {
    const all = characters.size;
    if (target.value === "selected") {
      const names = [...selected].map((cid) => characters.get(cid)).filter(Boolean).map((s) => s.character.name);
      summary.textContent = names.length > 3
        ? t("To %(names)s (+%(n)s).", { names: names.slice(0, 3).join(", "), n: names.length - 3 })
        : t("To %(names)s.", { names: names.join(", ") });
    } else if (target.value.startsWith("team:")) {
      const team = target.value.slice(5);
      const n = [...characters.values()].filter((s) => s.character.team === team).length;
      summary.textContent = t("To team %(team)s (characters: %(n)s).", { team, n });
    } else {
      summary.textContent = selected.size ? t("To everyone (characters: %(n)s).", { n: all })
        : t("No one is selected: this effect goes to everyone (characters: %(n)s).", { n: all });
    }
    summary.classList.toggle("everyone", target.value === "everyone");
    untick.hidden = !selected.size;
  }

  function effectForm() {
    const catalogue = Object.entries((ruleset && ruleset.catalogue) || {});
    const conflictLong = ruleset && ruleset.options && ruleset.options.conflict_gap_s !== undefined;
    const text = h("textarea", { name: "text", rows: 2, placeholder: t("Effect: …"), required: true });
    const minutes = h("input", { name: "minutes", type: "number", min: 1, step: 1,
      placeholder: conflictLong ? t("Minutes (empty: one Conflict)") : t("Minutes (empty: until removed)") });
    const state = h("select", { name: "state" }, h("option", { value: "" }, t("No change of state")), stateOptions());
    // A named effect of the ruleset: its text defaults to its name and explanation, and it
    // says itself what happens to the character (Muerte kills): no state is chosen then.
    const named = catalogue.length ? h("select", { name: "catalogue", "aria-label": t("Effect from the catalogue"),
      onchange: () => {
        const entry = named.value ? ruleset.catalogue[named.value] : null;
        text.required = !entry;
        text.placeholder = entry ? `${entry.label}${colon()}${entry.explains}` : t("Effect: …");
        state.disabled = Boolean(entry && (entry.set_state || entry.action));
        if (state.disabled) state.value = "";
      } },
      h("option", { value: "" }, t("Typed effect (no catalogue)")),
      catalogue.map(([key, entry]) => h("option", { value: key }, entry.label))) : null;
    return h("form", { class: "effect-form", onsubmit: async (e) => {
      e.preventDefault();
      const data = { text: text.value.trim(), set_state: state.value };
      if (named && named.value) data.catalogue = named.value;
      if (minutes.value) data.duration_s = Number(minutes.value) * 60;
      if (target.value === "everyone") data.everyone = true;
      else if (target.value.startsWith("team:")) data.team = target.value.slice(5);
      else data.character_ids = [...selected];
      say("");
      // Safe taps (js/confirm.js): a push to a team or everyone, or one that changes a
      // state, names who and what before it goes.
      const who = data.everyone ? { everyone: characters.size }
        : data.team ? { team: data.team, count: [...characters.values()].filter((c) => c.character.team === data.team).length }
          : { names: [...selected].map((cid) => characters.get(cid)?.character.name).filter(Boolean) };
      const entry = named && named.value ? ruleset.catalogue[named.value] : null;
      if (!(await confirmPush({ who, entry, stateLabel: state.value ? ruleset.states[state.value].label : null }))) return;
      const answer = await write(t("Push an effect"), `/api/events/${eventId}/effects/`, data, { say,
        done: (sent) => (sent.everyone ? t("Sent to everyone.") : t("Sent. Characters reached: %(n)s.", { n: sent.characters.length })) });
      if (answer.ok) text.value = "";
    } }, named, text, minutes, state, target, summary, untick,
      h("button", { type: "submit", class: "primary" }, t("Push")));
  }

  // -- exactly one character selected: its state, a correction and its traits ---------------
  let oneShown = null;   // the snapshot it was drawn from
  function showOne() {
    const snap = selected.size === 1 ? characters.get([...selected][0]) : null;
    if (snap === oneShown) return;
    // A newer snapshot of the same character must not wipe the traits being typed.
    if (snap && oneShown && snap.character.id === oneShown.character.id && one.contains(document.activeElement)) return;
    oneShown = snap;
    if (!snap) { mount(one); return; }
    const cid = snap.character.id;
    const correction = h("select", { "aria-label": t("Set the state of %(name)s", { name: snap.character.name }),
      onchange: async (e) => {
        const key = e.target.value;
        if (!key) return;
        if (!(await confirmCorrection(snap.character.name, ruleset.states[key].label))) { e.target.value = ""; return; }
        const answer = await write(t("Set state"), `/api/characters/${cid}/actions/`, { action: "set_state", params: { state: key } }, { say });
        if (answer.ok) offerUndo({ eventId, characterId: cid, said: `${snap.character.name} → ${ruleset.states[key].label}` });
      } },
      h("option", { value: "" }, t("Correct…")), stateOptions());
    mount(one, h("section", { class: "one" },
      h("h3", {}, snap.character.name, " ", h("span", { class: "muted" }, [snap.character.team, snap.character.code].filter(Boolean).join(" · "))),
      h("p", { class: `row-state severity-${Math.min(snap.state.severity, 4)}` }, snap.state.label,
        snap.next ? [" — ", countdownPhrase("span", snap.next, snap)] : null),
      correction, reissueButton(snap.character)),
      ruleset ? psychPanel(snap, ruleset.traits, (label, url, data) => write(label, url, data, { say })) : null);
  }

  // After any change of the selection or the snapshots.
  function sync({ selection = false } = {}) {
    // Ticking or unticking a row is the latest word on who receives the effect.
    if (selection) { targetsKey = ""; targetChosen = false; }
    badge.textContent = selected.size ? String(selected.size) : "";
    badge.hidden = !selected.size;
    button.setAttribute("aria-label", selected.size ? t("%(title)s (selected: %(n)s)", { title, n: selected.size }) : title);
    fillTargets();
    showTarget();
    showOne();
  }

  mount(body, one, effectForm(), status);
  sync();
  return { element, button, open, close, sync, isOpen: () => !element.hidden };
}
