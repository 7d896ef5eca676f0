// Fights with other characters, as the ruleset offers them (duel, union, acharnement,
// search, firearm): what the character is in right now, drawn from its snapshot, and the
// forms to start one. Others are named by the code printed under their QR code.
import { countdownElement } from "./countdown.js";
import { t } from "./i18n.js";
import { confirmButton, h } from "./util.js";

const RESULT = () => ({ won: t("won"), lost: t("lost"), tie: t("tie: both lose") });
const STATUS = () => ({ declined: t("declined"), refused: t("refused"), cancelled: t("cancelled"),
                        resolved: t("over"), completed: t("completed"), stopped: t("stopped") });

function duelLine(fight, snap, answer) {
  if (fight.status === "proposed" && fight.can_answer) {
    return h("li", { class: "fight incoming" },
      h("strong", {}, t("%(name)s challenges you to a duel", { name: fight.other })), " ",
      countdownElement("span", fight.ends, snap),
      h("div", { class: "row" },
        h("button", { type: "button", class: "action", onclick: () => answer(fight, { accept: true }) }, t("Fight")),
        h("button", { type: "button", onclick: () => answer(fight, { accept: true, weapon_in_hand: "stunning" }) },
          t("I hold a stunning weapon")),
        h("button", { type: "button", onclick: () => answer(fight, { accept: false }) }, t("Decline"))));
  }
  if (fight.status === "proposed") {
    return h("li", { class: "fight" }, t("Duel: waiting for %(name)s to confirm", { name: fight.other }), " ",
      countdownElement("span", fight.ends, snap));
  }
  const outcome = fight.result ? RESULT()[fight.result] : fight.reason || STATUS()[fight.status];
  return h("li", { class: `fight result-${fight.result || fight.status}` },
    t("Duel against %(name)s:", { name: fight.other }), " ", h("strong", {}, outcome));
}

function unionLine(fight, snap) {
  const sides = t("%(attackers)s against %(defenders)s", fight);
  if (fight.status === "pending") {
    return h("li", { class: "fight" }, t("Strength in numbers"), ` (${sides}) `, countdownElement("strong", fight.ends, snap));
  }
  return h("li", { class: "fight" }, t("Strength in numbers"), ` (${sides}): `,
    h("strong", {}, fight.reason || (fight.role === "defenders" ? t("lost") : t("won"))));
}

function beatingLine(fight, snap, stop) {
  const running = fight.status === "running";
  const text = fight.role === "attacker" ? t("You beat %(name)s", { name: fight.other })
    : t("%(name)s beats you", { name: fight.other });
  return h("li", { class: "fight" }, text, ` — ${fight.type.label} `,
    running ? countdownElement("strong", fight.ends, snap) : h("strong", {}, STATUS()[fight.status]),
    running && fight.role === "attacker"
      ? confirmButton(t("Stop"), t("Tap again to stop"), () => stop(fight), {}, `stop-${fight.id}`) : null);
}

// The fights the character is in, or nothing.
export function fightsCard(snap, { answer, stop }) {
  if (!snap.fights || !snap.fights.length) return null;
  const line = { duel: (f) => duelLine(f, snap, answer), union: (f) => unionLine(f, snap),
                 acharnement: (f) => beatingLine(f, snap, stop) };
  return h("section", { class: "card fights" }, h("h2", {}, t("Fights")),
    h("ul", {}, snap.fights.map((fight) => line[fight.kind](fight))));
}

const field = (name, label, attrs = {}) => h("label", {}, label, h("input", { name, autocomplete: "off", ...attrs }));
const codes = (text) => text.split(/[\s,;]+/).map((c) => c.trim()).filter(Boolean);

// One small form per interaction the ruleset declares. Built once and kept across
// redraws, so that a push arriving while the player types does not wipe the fields.
const FORMS = {
  duel: (go) => form(go, t("Challenge"), [field("opponent", t("Opponent's code"), { required: true })],
    (f) => ["duels/", { opponent_code: f.opponent.value }]),
  union: (go) => form(go, t("Claim it"), [
    field("attackers", t("The other attackers' codes")),
    field("defenders", t("The defenders' codes"), { required: true }),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "bare", required: true }),
      t("Bare hands: nobody has drawn a weapon"))],
  (f) => ["unions/", { attacker_codes: codes(f.attackers.value), defender_codes: codes(f.defenders.value),
                       weapon_drawn: !f.bare.checked }],
  form(go, t("Join the defenders"), [field("defender", t("A defender's code"), { required: true })],
    (f) => ["unions/join/", { defender_code: f.defender.value }])),
  acharnement: (go, spec) => form(go, t("Start"), [
    field("victim", t("Victim's code"), { required: true }),
    h("label", {}, t("How"), h("select", { name: "kind" },
      Object.entries(spec.kinds).map(([key, kind]) => h("option", { value: key }, kind.label))))],
  (f) => ["acharnements/", { victim_code: f.victim.value, kind: f.kind.value }]),
  search: (go) => form(go, t("Search"), [
    field("target", t("Code of the inert character"), { required: true }),
    field("location", t("Where (trousers, boots…)"), { required: true, maxlength: 100 }),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "strip" }), t("Take everything, even the costume"))],
  (f) => ["search/", { target_code: f.target.value, location: f.location.value, strip: f.strip.checked }]),
  firearm: (go, spec) => {
    const gun = field("gun", t("Firearm's code"), { required: true });
    // The ruleset's conditions that make a shot miss (Septenario: moving, one hand...).
    const misses = Object.entries(spec.misses_if || {});
    const verb = (name) => (f) => [`firearms/${encodeURIComponent(f.gun.value.trim())}/${name}/`, {}];
    return h("div", {},
      form(go, t("Take it in hand"), [gun], verb("take")),
      form(go, t("Load it"), [field("gun", t("Firearm's code"), { required: true })], verb("load")),
      form(go, t("Shoot"), [
        field("gun", t("Firearm's code"), { required: true }),
        field("victim", t("Target's code"), { required: true }),
        field("distance", t("Distance (metres)"), { type: "number", min: 0, step: "0.5", required: true }),
        h("label", { class: "check" }, h("input", { type: "checkbox", name: "obstacle" }), t("Something in between")),
        misses.map(([key, miss]) => h("label", { class: "check" },
          h("input", { type: "checkbox", name: `miss-${key}` }), miss.label))],
      (f) => [`firearms/${encodeURIComponent(f.gun.value.trim())}/shoot/`,
        { victim_code: f.victim.value, distance_m: Number(f.distance.value), obstacle: f.obstacle.checked,
          conditions: misses.map(([key]) => key).filter((key) => f[`miss-${key}`].checked) }]));
  },
};

function form(go, label, fields, body, ...more) {
  const el = h("form", { class: "fight-form" }, fields, h("button", { type: "submit" }, label));
  el.addEventListener("submit", (event) => {
    event.preventDefault();
    const [path, payload] = body(el.elements);
    go(label, path, payload, el);
  });
  return more.length ? h("div", {}, el, more) : el;
}

// `go(label, path under /api/characters/<id>/, body, form)` sends it.
export function fightTools(interactions, go) {
  const keys = Object.keys(interactions || {}).filter((key) => FORMS[key]);
  if (!keys.length) return null;
  return h("section", { class: "card fight-tools" }, h("h2", {}, t("Fight")),
    keys.map((key) => h("details", { class: `interaction ${key}` },
      h("summary", {}, interactions[key].label), FORMS[key](go, interactions[key]))));
}
