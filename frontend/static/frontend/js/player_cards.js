// The cards of the player's screen drawn from the snapshot alone (js/player.js): the
// state and its countdowns, what the character can and cannot do, points, effects, the
// sheet and a short history; and the words of what an action costs and of what the rules
// said back about a declaration.
import { announce } from "./announce.js";
import { countdownElement, countdownPhrase } from "./countdown.js";
import { pendingMark } from "./declared_offline.js";
import { lang, t } from "./i18n.js";
import { h } from "./util.js";

const SEVERITY_MARKS = ["●○○○○", "●●○○○", "●●●○○", "●●●●○", "●●●●●"];

export function stateCard(snap) {
  const { state, next } = snap;
  const card = h("section", { class: `card state severity-${Math.min(state.severity, 4)}` },
    h("div", { class: "severity", "aria-hidden": "true" }, SEVERITY_MARKS[Math.min(state.severity, 4)]),
    h("h1", { class: "state-label", id: "state-label" }, state.label),
    pendingMark(snap));
  if (!snap.clock.running) card.append(h("p", { class: "paused" }, t("Game paused: every countdown is frozen.")));
  if (next) {
    const phrase = countdownPhrase("p", next, snap, { className: "next", attrs: { id: "next-countdown" } });
    card.append(phrase);
    // The countdown is silent for a screen reader; this says it when asked.
    card.append(h("button", { type: "button", class: "read-time",
                              onclick: () => announce(`${state.label}. ${phrase.textContent}`) }, t("Read my time")));
  }
  const others = snap.timers.filter((timer) => !timer.leads_to);
  if (others.length) {
    card.append(h("ul", { class: "timers" }, others.map((timer) =>
      h("li", {}, timer.label, " ", countdownElement("span", timer, snap)))));
  }
  for (const treatment of snap.treatments || []) card.append(treatedLine(treatment, snap));
  if (state.inert) card.append(h("p", { class: "inert" }, t("Inert: stay on the ground.")));
  for (const flag of snap.flags || []) card.append(h("p", { class: "flag" }, flag.label));
  return card;
}

// Words with a live countdown inside them: `t(…, { left: SPOT })` marks where it goes.
const SPOT = "\u2063";
function aroundCountdown(words, countdown) {
  const [before, after = ""] = words.split(SPOT);
  return [before, countdown, after];
}

// "Being treated by Bob, 0:42 left" while a medic's treatment runs on the character (or
// "Golpe Mortal by Bob, 0:20 left" for someone else's timed act), until it is confirmed,
// aborted or closed; counted from its end instant on the server's clock.
function treatedLine(treatment, snap) {
  const countdown = countdownElement("strong", treatment, snap, { class: "treated-countdown" });
  const values = { name: treatment.by, action: treatment.action.label, left: SPOT };
  return h("p", { class: "treated", role: "status", dataset: { treatment: treatment.id } },
    ...(treatment.care
      ? [...aroundCountdown(t("Being treated by %(name)s, %(left)s left", values), countdown),
        h("span", { class: "muted" }, ` — ${treatment.action.label}`)]
      : aroundCountdown(t("%(action)s by %(name)s, %(left)s left", values), countdown)));
}

export function abilities(snap) {
  const list = (items) => items.map((item) => item.label).join(", ");
  return h("section", { class: "card" },
    snap.state.can.length ? h("p", {}, h("span", { class: "yes" }, "✔ "), t("You can:"), " ", list(snap.state.can)) : null,
    snap.state.cannot.length ? h("p", {}, h("span", { class: "no" }, "✘ "), t("You cannot:"), " ", list(snap.state.cannot)) : null);
}

const known = (value) => value !== null && value !== undefined;

export function points(snap) {
  if (!snap.points.length) return null;
  // Out of its maximum when the rules have one (Coraje 2 / 5), else of the sheet's base.
  return h("section", { class: "card points" }, snap.points.map((point) =>
    h("div", { class: "point", dataset: { point: point.key } }, h("span", {}, point.label),
      h("strong", {}, known(point.max) ? `${point.value} / ${point.max}`
        : known(point.base) ? `${point.value} / ${point.base}` : point.value),
      point.recovers ? h("span", { class: "muted recovers" }, " ",
        t("all back in"), " ", countdownElement("span", point.recovers, snap)) : null)));
}

export function effects(snap) {
  if (!snap.effects.length) return null;
  return h("section", { class: "card effects" }, h("h2", {}, t("Active effects")),
    h("ul", {}, snap.effects.map((effect) => h("li", {}, h("span", { class: "effect-text" }, effect.text),
      effect.ends_game_s !== null
        ? h("span", { class: "muted" }, " — ", countdownElement("span", { at: effect.ends_at, remaining_s: effect.remaining_s }, snap))
        : null))));
}

export function sheet(snap) {
  const { skills, kits } = snap.sheet;
  const traits = (snap.sheet.traits || []).filter((trait) => trait.value !== null && trait.value !== undefined);
  if (!skills.length && !kits.length && !traits.length) return null;
  return h("section", { class: "card muted sheet" },
    skills.length ? h("p", {}, skills.map((s) => (s.level === true ? s.label : `${s.label} (${s.level})`)).join(", ")) : null,
    kits.length ? h("p", {}, kits.map((k) => `${k.label} × ${k.count}`).join(", ")) : null,
    traits.length ? h("p", { class: "traits" }, traits.map((trait) => `${trait.label} ${trait.value}`).join(" · ")) : null);
}

// "1 Coraje": what an action costs, named by the points it spends.
export function costText(snap, action) {
  const costs = Object.entries(action.costs || {});
  if (!costs.length) return "";
  const label = (key) => (snap.points.find((point) => point.key === key) || { label: key }).label;
  return t("costs %(cost)s", { cost: costs.map(([key, amount]) => `${amount} ${label(key)}`).join(", ") });
}

// What the rules said back about a declaration: a blow the armour took, a reminder.
export function outcomeOf(events) {
  const said = [];
  for (const event of events || []) {
    if (event.kind === "hit_result" && event.result === "protected") said.push(t("The armour absorbed the blow."));
    else if (event.kind === "hit_result" && event.result === "not_solid") said.push(t("A graze: no damage."));
    else if (event.kind === "reminder" && typeof event.text === "string") said.push(event.text);
  }
  return said.length ? said.join(" ") : null;
}

export function historyList(rows) {
  if (!rows.length) return null;
  const time = (iso) => new Date(iso).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
  return h("section", { class: "card history" }, h("h2", {}, t("What happened")),
    // A declaration sent late is shown at its tap (`at` is when it arrived).
    h("ol", {}, rows.slice(0, 10).map((row) => h("li", { class: row.local ? `local ${row.kind}` : null },
      h("span", { class: "muted" }, time(row.tapped_at || row.at)), " ", row.what,
      row.state_after && row.state_before !== row.state_after ? ` → ${row.state_after}` : ""))));
}
