// The organisers' entries (js/race_organiser.js), per course: each entry and what an
// organiser does to it: gear, start, punch by number, finish, out of zone or forbidden
// path, then the forms of js/race_org_entry_forms.js.
import { send } from "./api.js";
import { lang, t } from "./i18n.js";
import { said } from "./outcome.js";
import { entryForms } from "./race_org_entry_forms.js";
import { telHref } from "./race_org_safety.js";
import { clockTime, livesFlags } from "./race_common.js";
import { confirmButton, h, mount } from "./util.js";

const ENDED = ["finished", "dnf", "disqualified"];
const GEAR = () => [["vest", t("Yellow vest")], ["light", t("Headlamp or torch")], ["phone", t("Charged phone")]];
const entryUrl = (entryId, path) => `/api/race/entries/${entryId}/${path}/`;

export function entriesPane(org) {
  const { drafts, entries, field, notes, openEntries, panes } = org;
  const forms = entryForms(org, { act: (...args) => act(...args), redraw: () => draw(), entryUrl });

  // -- entries and what organisers do to them ---------------------------------------------------------

  async function act(entryId, label, url, body = {}) {
    const answer = await send(label, "POST", url, body);
    notes.set(entryId, { ok: Boolean(answer.ok), text: said(answer, { done: t("Done: %(what)s", { what: label }) }) });
    if (answer.ok && answer.data.entry && answer.data.entry.phone !== undefined) entries.set(answer.data.entry.id, answer.data);
    if (answer.ok) { for (const key of [...drafts.keys()]) if (key.endsWith(`:${entryId}`)) drafts.delete(key); }
    const focused = document.activeElement;
    if (focused && panes.entries.contains(focused)) focused.blur();
    draw();
    if (answer.ok) org.safetySoon();
    return answer;
  }

  function draw() {
    if (!entries.size) { mount(panes.entries, h("p", { class: "card muted" }, t("No entry yet."))); return; }
    const byCourse = new Map();
    for (const view of entries.values()) {
      if (!byCourse.has(view.course.id)) byCourse.set(view.course.id, { course: view.course, views: [] });
      byCourse.get(view.course.id).views.push(view);
    }
    mount(panes.entries, [...byCourse.values()].map(({ course, views }) => h("section", { class: "card entries-course" },
      h("h2", {}, course.name),
      views.sort((a, b) => a.entry.name.localeCompare(b.entry.name, lang)).map(entryDetails))));
  }

  function entryDetails(view) {
    const eid = view.entry.id;
    const details = h("details", { class: `entry status-${view.status.key}`, open: openEntries.has(eid), dataset: { entry: eid } },
      h("summary", {}, h("strong", {}, view.entry.name), " ",
        h("span", { class: "muted" }, `${view.status.label} · ${view.found}/${view.checkpoints} · `),
        livesFlags(view.lives), h("span", { class: "muted" }, ` · ${t("finger %(n)s", { n: view.entry.finger })}`)),
      openEntries.has(eid) ? entryBody(view) : null);
    details.addEventListener("toggle", () => {
      const had = openEntries.has(eid);
      if (details.open === had) return;
      if (details.open) openEntries.add(eid); else openEntries.delete(eid);
      draw();
    });
    return details;
  }

  function entryBody(view) {
    const eid = view.entry.id;
    const e = view.entry;
    const key = view.status.key;
    const racing = key === "racing" || key === "overtime";
    const note = notes.get(eid);
    const two = (label, confirm, onConfirm, cls = "") => confirmButton(label, confirm, onConfirm, { class: cls }, `${label}:${eid}`);
    return h("div", { class: "entry-body" },
      note ? h("p", { class: note.ok ? "race-note ok" : "race-note refusal", role: note.ok ? "status" : "alert" }, note.text) : null,
      h("p", {}, h("a", { class: "phone-link", href: telHref(e.phone) }, "☎ ", e.phone), " ",
        h("span", { class: "muted" }, t("bib code %(code)s", { code: e.code }))),
      e.kind === "team" ? h("p", { class: "muted" }, e.members.join(", "), " · ", t("carrier: %(name)s", { name: e.carrier })) : null,
      h("p", { class: "muted" },
        view.started_at ? t("started %(time)s", { time: clockTime(view.started_at) }) : t("not started"),
        view.deadline_at ? ` · ${t("deadline %(time)s", { time: clockTime(view.deadline_at) })}` : "",
        view.finished_at ? ` · ${t("finished %(time)s", { time: clockTime(view.finished_at) })}` : "",
        view.score !== null ? ` · ${t("score %(n)s", { n: view.score })}` : ""),
      h("p", { class: "muted" }, t("Deposit: %(state)s", { state: e.deposit_returned_at ? t("returned")
        : e.deposit_taken_at ? t("taken") : t("not taken") }),
        " · ", t("Finger: %(state)s", { state: e.finger_returned_at ? t("back") : t("out") })),
      key === "registered" ? gearAndStart(view, two) : null,
      racing ? raceActions(view, two) : null,
      forms.lossesList(view),
      ENDED.includes(key) && !e.finger_returned_at
        ? two(t("Finger back, deposit returned"), t("Tap again: finger back"), () =>
          act(eid, t("Finger back, deposit returned"), entryUrl(eid, "finger-return"))) : null,
      e.kind === "team" && !ENDED.includes(key) ? forms.carrierForm(view) : null,
      !ENDED.includes(key) ? forms.endForms(view, two) : null,
      forms.infractionForm(view),
      forms.loginQr(view));
  }

  function gearAndStart(view, two) {
    const eid = view.entry.id;
    return h("div", { class: "gear" }, h("h3", {}, t("Mandatory gear")),
      GEAR().map(([item, label]) => h("label", { class: "race-check" },
        h("input", { type: "checkbox", checked: view.entry.gear[item], onchange: (ev) =>
          act(eid, t("Gear check"), entryUrl(eid, "gear"), { [item]: ev.target.checked }) }), " ", label)),
      !view.entry.deposit_taken_at ? h("button", { type: "button", class: "small", onclick: () =>
        act(eid, t("Deposit taken"), entryUrl(eid, "deposit")) }, t("Deposit taken")) : null,
      two(t("Start now"), t("Tap again: start"), () => act(eid, t("Start now"), entryUrl(eid, "start")), "primary"));
  }

  function raceActions(view, two) {
    const eid = view.entry.id;
    const code = field(`punch:${eid}`, { autocomplete: "off", placeholder: "31", "aria-label": t("Balise number, code or QR") });
    const flags = field(`flags:${eid}`, { type: "number", min: 0, max: 10, step: 1, "aria-label": t("Flags on the belt (optional)"),
      placeholder: String(view.lives.remaining) });
    return h("div", { class: "race-actions" },
      h("h3", {}, t("Record the finish")),
      h("label", {}, t("Flags on the belt (optional)"), flags),
      two(t("Record the finish"), t("Tap again: finish"), () => act(eid, t("Record the finish"), entryUrl(eid, "finish"),
        flags.value !== "" ? { flags_on_belt: Number(flags.value) } : {}), "primary"),
      h("h3", {}, t("A marshal saw them")),
      two(t("Out of the race zone"), t("Tap again: a life for leaving the zone"), () =>
        act(eid, t("Out of the race zone"), entryUrl(eid, "zone-losses"), { cause: "out_of_zone" }), "danger"),
      two(t("Forbidden path or fence"), t("Tap again: a life for a forbidden path"), () =>
        act(eid, t("Forbidden path or fence"), entryUrl(eid, "zone-losses"), { cause: "forbidden_path" }), "danger"),
      h("h3", {}, t("Punch a balise")),
      h("form", { class: "race-row", onsubmit: (ev) => { ev.preventDefault(); if (code.value.trim()) act(eid, t("Punch"), entryUrl(eid, "punches"), { checkpoint: code.value.trim() }); } },
        code, h("button", { type: "submit" }, t("Punch"))));
  }

  return { draw };
}
