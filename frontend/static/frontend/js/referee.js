// The staff of an airsoft day (docs/airsoft-field.md): referees (arbitres) and organisers
// (orgas, the event's narrators). One card with tabs: the games of the day, the sanctions
// (pick a player, the kind, the reason, "triche"; the answer may say rule B13 made it
// grave), the check-in of club members (organisers: an excluded member is refused, the
// refusal names the end date) and the chrony (js/chrony.js). Organisers find it on the
// narrators' screen; referees, who have no live view of the players, on their own screen
// (#/referee/<event>), where a player is named by their licence number.
import { get as apiGet, send as apiSend } from "./api.js";
import { AIRSOFT } from "./airsoft.js";
import { gamesPanel } from "./airsoft_games.js";
import { chronyPanel } from "./chrony.js";
import { startTicking } from "./countdown.js";
import { followEventLanguage, lang, t } from "./i18n.js";
import { codeFromLink } from "./items.js";
import { said } from "./outcome.js";
import { registerPanel } from "./panels.js";
import { scanControl } from "./scanner.js";
import { h, mount } from "./util.js";

// Referees of an airsoft day have their own screen; its organisers, the narrators', where
// the staff panels are registered (js/panels.js).
export const refereeOnly = (event) => event.ruleset === AIRSOFT && event.roles.includes("referee")
  && !event.roles.includes("narrator");

const LIGHT = ["warning", "sanction_out"];
const GRAVE = ["removed_from_game", "expelled_rest_of_day", "excluded", "permanent_ban"];
const KINDS = () => ({
  warning: t("Warning"), sanction_out: t("Sanction-out: back to spawn"),
  removed_from_game: t("Removal from the current game"), expelled_rest_of_day: t("Expulsion for the rest of the day"),
  excluded: t("Exclusion from the field until a date"), permanent_ban: t("Permanent ban"),
});

const when = (iso) => new Date(iso).toLocaleString(lang, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
const cleanCode = (text) => String(text || "").trim().toUpperCase().replace(/[^A-Z0-9]/g, "");

// -- sanctions -------------------------------------------------------------------------------

// `players()`: the live list (organisers), each a snapshot; empty for referees.
function sanctionsPanel(eventId, { organiser, players, get, send }) {
  const result = h("div", { class: "sanction-result", role: "status" });
  const list = h("div", { class: "sanctions-list" });
  const picker = h("select", { name: "character", "aria-label": t("Player") });
  const referenceLabel = organiser ? t("Or their code or licence number") : t("Player's licence number");
  const reference = h("input", { name: "reference", autocomplete: "off", autocapitalize: "characters",
    "aria-label": referenceLabel, placeholder: organiser ? t("Code or licence number") : t("Licence number, e.g. RAT-0042") });
  const kind = h("select", { name: "kind", "aria-label": t("Sanction") },
    h("optgroup", { label: t("Light fault") }, LIGHT.map((key) => h("option", { value: key }, KINDS()[key]))),
    organiser ? h("optgroup", { label: t("Grave fault (organisers)") },
      GRAVE.map((key) => h("option", { value: key }, KINDS()[key]))) : null);
  const endsAt = h("input", { type: "datetime-local", name: "ends_at", "aria-label": t("Excluded until") });
  const endsLabel = h("label", { hidden: true }, t("Excluded until"), endsAt);
  const reason = h("textarea", { name: "reason", rows: 2, required: true, maxlength: 2000, "aria-label": t("Reason (required)") });
  const cheating = h("input", { type: "checkbox", name: "cheating" });
  // A player's QR scanned (their phone shows it, `?patient=CODE`) names their character.
  let scannedCode = null;
  const scan = scanControl({ label: t("Scan their QR code"), say: (words) => show(h("p", { class: "message" }, words)),
    onText: (text) => { scannedCode = codeFromLink(text, "patient"); reference.value = scannedCode; } });
  const form = h("form", { class: "sanction-form" },
    organiser ? h("label", {}, t("Player"), picker) : null,
    scan.button, scan.box,
    h("label", {}, referenceLabel, reference),
    h("label", {}, t("Sanction"), kind), endsLabel,
    h("label", {}, t("Reason (required)"), reason),
    h("label", { class: "check" }, cheating, " ", t("Proven cheating")),
    h("button", { type: "submit", class: "primary" }, t("Record the sanction")));
  const root = h("div", { class: "sanctions-panel" }, form, result,
    h("h3", {}, t("Sanctions of this day")),
    h("button", { type: "button", class: "small", onclick: () => load() }, t("Refresh")), list);
  let shownPlayers = null;

  kind.addEventListener("change", () => { endsLabel.hidden = kind.value !== "excluded"; endsAt.required = !endsLabel.hidden; });

  function updatePlayers() {
    if (!organiser) return;
    const rows = players().map((snap) => snap.character).sort((a, b) => a.name.localeCompare(b.name, lang));
    const signature = JSON.stringify(rows.map((c) => [c.id, c.name, c.team]));
    if (signature === shownPlayers) return;
    shownPlayers = signature;
    const chosen = picker.value;
    mount(picker, h("option", { value: "" }, t("Choose…")), rows.map((c) =>
      h("option", { value: c.id, selected: String(c.id) === chosen }, c.team ? `${c.name} (${c.team})` : c.name)));
  }

  // A character of this event (the list, or a code printed under a QR), else a member's
  // licence number.
  function target() {
    const typed = reference.value.trim();
    if (typed && organiser) {
      const found = players().find((snap) => snap.character.code === cleanCode(typed));
      if (found) return { character: found.character.id };
    }
    if (typed && scannedCode && cleanCode(typed) === scannedCode) return { character_code: scannedCode };
    if (typed) return { member: typed };
    if (organiser && picker.value) return { character: Number(picker.value) };
    return null;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const who = target();
    if (!who) { show(h("p", { class: "message" }, organiser ? t("Choose a player, or type their code or licence number.") : t("Type the player's licence number."))); return; }
    const body = { ...who, kind: kind.value, reason: reason.value.trim(), cheating: cheating.checked };
    if (kind.value === "excluded" && endsAt.value) body.ends_at = new Date(endsAt.value).toISOString();
    const answer = await send(t("Record the sanction"), "POST", `/api/events/${eventId}/sanctions/`, body);
    if (!answer.ok) { show(h("p", { class: "message refusal", role: "alert" }, said(answer))); return; }
    const { sanction, escalated } = answer.data;
    show(h("p", { class: "recorded" }, h("strong", {}, t("Recorded:")), " ", sanction.kind_label, " — ", sanction.member.name),
      escalated ? h("p", { class: "escalated", role: "alert" }, h("strong", {}, t("Grave fault (repeated cheating):")), " ",
        sanction.escalation.why) : null);
    reason.value = "";
    reference.value = "";
    scannedCode = null;
    cheating.checked = false;
    load();
  });

  function show(...children) { mount(result, children); }

  function line(sanction) {
    return h("li", { class: `sanction level-${sanction.level}${sanction.revoked_at ? " revoked" : ""}`, dataset: { sanction: sanction.id } },
      h("span", { class: "muted" }, when(sanction.decided_at)), " ",
      h("strong", {}, sanction.kind_label), " — ", sanction.member.name,
      sanction.member.licence_number ? h("span", { class: "muted" }, ` (${sanction.member.licence_number})`) : null,
      sanction.cheating ? h("span", { class: "badge" }, t("cheating")) : null,
      h("div", {}, sanction.reason),
      sanction.ends_at ? h("div", { class: "muted" }, t("until %(date)s", { date: when(sanction.ends_at) })) : null,
      sanction.escalation ? h("div", { class: "escalated" }, sanction.escalation.why) : null,
      h("div", { class: "muted" }, t("by %(who)s", { who: sanction.decided_by || "?" }),
        sanction.revoked_at ? ` · ${t("revoked")}` : ""));
  }

  async function load() {
    const answer = await get(`/api/events/${eventId}/sanctions/`).catch(() => null);
    if (!answer || !answer.ok) return;
    mount(list, answer.data.sanctions.length ? h("ol", { class: "sanctions" }, answer.data.sanctions.map(line))
      : h("p", { class: "muted" }, t("No sanction recorded in this day.")));
  }

  updatePlayers();
  return { element: root, load, updatePlayers, stop: scan.stop };
}

// -- check-in (organisers) --------------------------------------------------------------------

function checkInPanel(eventId, { players, get, send, onCheckedIn }) {
  const reference = h("input", { name: "member", autocomplete: "off", required: true,
    "aria-label": t("Licence number or name"), placeholder: t("Licence number, e.g. RAT-0042") });
  const team = h("input", { name: "team", autocomplete: "off", list: `teams-${eventId}`, "aria-label": t("Team") });
  const teams = h("datalist", { id: `teams-${eventId}` });
  const result = h("div", { class: "checkin-result", role: "status" });
  const found = h("div", { class: "members-found" });
  const form = h("form", { class: "checkin-form" },
    h("label", {}, t("Licence number or name"), reference), h("label", {}, t("Team"), team), teams,
    h("button", { type: "submit", class: "primary" }, t("Check in")),
    h("button", { type: "button", onclick: () => search() }, t("Search the register")));
  const root = h("div", { class: "checkin-panel" }, form, found, result);

  async function checkIn(member, name) {
    const answer = await send(t("Check in"), "POST", `/api/events/${eventId}/check-in/`, { member, team: team.value.trim() });
    if (!answer.ok) {
      mount(result, h("p", { class: "refusal", role: "alert" }, said(answer)));
      return;
    }
    const { character, created } = answer.data;
    mount(result, h("p", { class: "recorded" },
      h("strong", {}, created ? t("%(name)s is checked in.", { name: character.name }) : t("%(name)s was already checked in.", { name: character.name || name })),
      character.team ? ` ${t("Team %(team)s", { team: character.team })}.` : "",
      " ", t("Code: %(code)s", { code: character.code })));
    reference.value = "";
    mount(found);
    onCheckedIn();
  }

  async function search() {
    const answer = await get(`/api/events/${eventId}/members/?q=${encodeURIComponent(reference.value.trim())}`).catch(() => null);
    if (!answer || !answer.ok) { mount(found, h("p", { class: "message" }, t("Not available offline."))); return; }
    const members = answer.data.members;
    mount(found, members.length ? h("ul", { class: "members" }, members.map((member) => h("li", {},
      h("strong", {}, member.name), member.nickname ? ` « ${member.nickname} »` : "", " ",
      h("span", { class: "muted" }, member.licence_number), " ",
      h("button", { type: "button", class: "small", onclick: () => checkIn(member.id, member.name) }, t("Check in")))))
      : h("p", { class: "muted" }, t("Nobody found in the register.")));
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = reference.value.trim();
    if (typed) checkIn(typed, typed);
  });

  return {
    element: root,
    updatePlayers() {
      const names = [...new Set(players().map((snap) => snap.character.team).filter(Boolean))].sort();
      if (teams.childElementCount !== names.length) mount(teams, names.map((name) => h("option", { value: name })));
    },
  };
}

// -- the card with its tabs ----------------------------------------------------------------------

// `onCheckedIn()`: a player was created (the narrators' screen reads its list again).
export function staffPanels(eventId, { organiser, players = () => [], get = apiGet, send = apiSend, tab = "games",
                                       onCheckedIn = () => {} }) {
  const games = gamesPanel(eventId, { organiser, get, send });
  const sanctions = sanctionsPanel(eventId, { organiser, players, get, send });
  const checkIn = organiser ? checkInPanel(eventId, { players, get, send, onCheckedIn }) : null;
  const chrony = chronyPanel(eventId, { get, send });
  const panes = [["games", t("Games"), games.element], ["sanctions", t("Sanctions"), sanctions.element],
                 checkIn ? ["checkin", t("Check-in"), checkIn.element] : null, ["chrony", t("Chrony"), chrony.element]]
    .filter(Boolean);
  const tabs = h("div", { class: "tabs", role: "tablist" });
  const body = h("div", { class: "tab-body" });
  const root = h("section", { class: "card staff-panels", id: "staff-panels" }, tabs, body);
  let current = panes.some(([key]) => key === tab) ? tab : "games";

  function choose(key) {
    current = key;
    mount(tabs, panes.map(([name, label]) => h("button", { type: "button", role: "tab", class: name === key ? "tab chosen" : "tab",
      "aria-selected": String(name === key), dataset: { tab: name }, onclick: () => choose(name) }, label)));
    mount(body, panes.find(([name]) => name === key)[2]);
    if (key === "sanctions") sanctions.load();
    if (key === "chrony") chrony.load();
  }

  choose(current);
  return {
    element: root,
    // Organisers: the live channel's clock and players.
    update({ clock, characters } = {}) {
      if (clock) games.update(clock);
      if (characters) { sanctions.updatePlayers(); if (checkIn) checkIn.updatePlayers(); }
    },
    stop() { games.stop(); chrony.stop(); sanctions.stop(); },
  };
}

// -- the referees' screen --------------------------------------------------------------------------

export async function show(root, { id, me, params, context }) {
  const event = me.events.find((e) => e.id === id) || { id, roles: [] };
  if (event.language) followEventLanguage(event.language);
  const organiser = event.roles.includes("narrator");
  const staff = staffPanels(id, { organiser, tab: params ? params.get("tab") || "games" : "games" });
  mount(root,
    h("h1", {}, event.name || t("Referee")),
    h("p", { class: "muted" }, organiser ? t("Organiser") : t("Referee"), " — ",
      organiser ? t("every sanction, the check-in and the chrony") : t("warnings and sanction-outs, the chrony")),
    staff.element);
  context.setOnline(navigator.onLine);
  const stopTicking = startTicking(root);
  return () => { staff.stop(); stopTicking(); };
}

// On the narrators' screen (js/narrator.js): `render(eventId, options)`, the organisers' staff panels.
registerPanel({ screen: "narrator", ruleset: AIRSOFT, render: (eventId, options) => staffPanels(eventId, { ...options, organiser: true }) });
