// The forms of an entry on the organisers' screen (js/race_org_entries.js): void a lost
// life, change a team's carrier, abandon or disqualify, record an infraction, and the
// survivor's login QR. `act(entryId, label, url, body)` sends and notes the answer.
import { t } from "./i18n.js";
import { INFRACTIONS, INFRACTIONS_FROM_CALLS, clockTime, signed } from "./race_common.js";
import { confirmButton, cookie, h, mount } from "./util.js";

export function entryForms(org, { act, redraw, entryUrl }) {
  const { field, notes } = org;

  function lossesList(view) {
    if (!view.life_losses.length) return null;
    const eid = view.entry.id;
    return h("div", { class: "losses-org" }, h("h3", {}, t("Lives lost")),
      h("ul", { class: "losses" }, view.life_losses.map((loss) => {
        const reason = field(`void:${loss.id}:${eid}`, { autocomplete: "off", "aria-label": t("Why void it"), placeholder: t("Why void it") });
        return h("li", { class: loss.voided ? "voided" : "", dataset: { loss: loss.id } },
          h("span", { class: "muted" }, clockTime(loss.at)), " ", loss.cause.label,
          loss.review ? h("div", { class: "message" }, "⚠ ", loss.review.text) : null,
          loss.voided ? h("div", { class: "muted" }, t("voided: %(reason)s", { reason: loss.void_reason }))
            : loss.took_life ? h("div", { class: "race-row void-form" }, reason,
              confirmButton(t("Void the loss"), t("Tap again: give the life back"), () => {
                if (!reason.value.trim()) { notes.set(eid, { ok: false, text: t("Give the reason first.") }); redraw(); return; }
                act(eid, t("Void the loss"), `/api/race/life-losses/${loss.id}/void/`, { reason: reason.value.trim() });
              }, { class: "small" }, `void:${loss.id}`))
              : h("div", { class: "muted" }, t("no life left to take")));
      })));
  }

  function carrierForm(view) {
    const eid = view.entry.id;
    const choice = h("select", { name: "carrier", "aria-label": t("New carrier") },
      view.entry.members.map((name) => h("option", { value: name, selected: name === view.entry.carrier }, name)));
    return h("form", { class: "race-row", onsubmit: (ev) => { ev.preventDefault(); act(eid, t("Change the carrier"), entryUrl(eid, "carrier"), { carrier: choice.value }); } },
      choice, h("button", { type: "submit", class: "small" }, t("Change the carrier")));
  }

  function endForms(view, two) {
    const eid = view.entry.id;
    const reason = field(`end:${eid}`, { autocomplete: "off", maxlength: 300, "aria-label": t("Reason"), placeholder: t("Reason") });
    const needReason = (then) => () => {
      if (!reason.value.trim()) { notes.set(eid, { ok: false, text: t("Give the reason first.") }); redraw(); return; }
      then(reason.value.trim());
    };
    return h("details", { class: "end-forms" }, h("summary", {}, t("Abandon or disqualification")),
      h("label", {}, t("Reason"), reason),
      two(t("Abandon (DNF)"), t("Tap again: abandon"), () =>
        act(eid, t("Abandon (DNF)"), entryUrl(eid, "abandon"), { reason: reason.value.trim() }), "danger"),
      two(t("Disqualify"), t("Tap again: disqualify"), needReason((why) =>
        act(eid, t("Disqualify"), entryUrl(eid, "disqualify"), { reason: why })), "danger"));
  }

  function infractionForm(view) {
    const eid = view.entry.id;
    const form = h("form", { class: "infraction-form", onsubmit: (ev) => {
      ev.preventDefault();
      act(eid, t("Record the infraction"), entryUrl(eid, "infractions"), { kind: form.elements.kind.value,
        note: form.elements.note.value.trim(), penalty_points: Number(form.elements.penalty_points.value || 0) });
    } },
    h("label", {}, t("Which infraction"), h("select", { name: "kind" }, INFRACTIONS().map(([k, label]) => h("option", { value: k }, label)))),
    h("label", {}, t("Note (optional)"), field(`note:${eid}`, { name: "note", maxlength: 300, autocomplete: "off" })),
    h("label", {}, t("Penalty points"), field(`penalty:${eid}`, { name: "penalty_points", type: "number", min: 0, max: 1000, step: 1 })),
    h("button", { type: "submit" }, t("Record the infraction")));
    const listed = (view.infractions || []).map((i) => h("li", {}, h("span", { class: "muted" }, clockTime(i.at)), " ",
      ([...INFRACTIONS(), ...INFRACTIONS_FROM_CALLS()].find(([k]) => k === i.kind) || [i.kind, i.kind])[1], i.note ? ` — ${i.note}` : "",
      i.penalty_points ? ` (${signed(-i.penalty_points)})` : ""));
    return h("details", { class: "infractions" }, h("summary", {}, t("Infractions (%(n)s)", { n: listed.length })),
      listed.length ? h("ul", {}, listed) : null, form);
  }

  function loginQr(view) {
    const box = h("div", { class: "qr", hidden: true });
    // A POST: showing the code issues a new link (and revokes the older ones), so nothing
    // that merely loads a page mints one.
    return h("div", {}, h("button", { type: "button", class: "small", onclick: async () => {
      if (!box.hidden) { box.hidden = true; return; }
      const response = await fetch(`/api/characters/${view.entry.character}/login-qr.svg`, {
        method: "POST", credentials: "same-origin", headers: { "X-CSRFToken": cookie("csrftoken") } });
      if (!response.ok) return;
      const src = URL.createObjectURL(await response.blob());
      mount(box, h("img", { src, alt: t("Login QR code of %(name)s", { name: view.entry.name }) }),
        h("p", { class: "muted" }, t("A one-time login: scanned, it opens the survivor's screen on their phone.")));
      box.hidden = false;
    } }, t("Survivor's login QR code")), box);
  }

  return { lossesList, carrierForm, endForms, infractionForm, loginQr };
}
