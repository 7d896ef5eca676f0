// The chrony station (docs/airsoft-field.md): register a member's replica, measure it (the
// BB's weight and the speed the chrony reads, or the energy when it shows joules) and read
// the verdict: VALIDÉ, or ÉCHEC with every reason, and the energy the server computed. A
// replica that passed gets a printable pass label; the list shows each replica's latest
// measure. A failed control during the games of a replica that passed at check-in is
// proven cheating: the answer shows the sanction the server recorded. At a control, the
// replica is chosen by scanning its pass label's QR (js/scanner.js) or typing its code.
import { get as apiGet, send as apiSend } from "./api.js";
import { lang, t } from "./i18n.js";
import { said } from "./outcome.js";
import { scanControl } from "./scanner.js";
import { h, mount } from "./util.js";

const TYPES = () => ({ rifle: t("rifle"), pistol: t("pistol"), sniper: t("sniper"), shotgun: t("shotgun"),
                       gl: t("grenade launcher"), other: t("other") });
const number = (value) => Number(value).toLocaleString(lang, { maximumFractionDigits: 3 });

function verdict(passed) {
  if (passed === null || passed === undefined) return h("span", { class: "muted" }, t("not measured"));
  return h("strong", { class: passed ? "pass" : "fail" }, passed ? t("PASSED") : t("FAILED"));
}

export function chronyPanel(eventId, { get = apiGet, send = apiSend } = {}) {
  let replicas = [];
  const input = (name, label, attrs = {}) => h("label", {}, label, h("input", { name, autocomplete: "off", "aria-label": label, ...attrs }));

  // Register a replica.
  const register = h("form", { class: "replica-form" },
    h("h3", {}, t("Register a replica")),
    input("member", t("Owner's licence number"), { required: true, placeholder: t("Licence number, e.g. RAT-0042") }),
    input("label", t("Name of the replica"), { required: true, maxlength: 100, placeholder: "M4 CQB" }),
    h("label", {}, t("Type"), h("select", { name: "type", "aria-label": t("Type") },
      Object.entries(TYPES()).map(([key, label]) => h("option", { value: key }, label)))),
    input("calibre_mm", t("Calibre (mm)"), { type: "number", min: 1, max: 50, step: "any", value: 6, required: true }),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "full_auto_capable" }), " ", t("Can fire full-auto")),
    h("button", { type: "submit" }, t("Register")));
  const registered = h("p", { class: "muted", role: "status" });

  // Measure one: chosen in the list, or by its pass label (the QR holds its code).
  const replicaSelect = h("select", { name: "replica", required: true, "aria-label": t("Replica") });
  const passCode = h("input", { name: "pass_code", autocomplete: "off", autocapitalize: "characters",
    "aria-label": t("Code on the pass label"), placeholder: t("Code on the pass label"),
    onkeydown: (event) => { if (event.key === "Enter") { event.preventDefault(); choosePass(passCode.value); } } });
  const passNote = h("p", { class: "muted pass-note", role: "status" });
  const passScan = scanControl({ label: t("Scan the pass label"), onText: (text) => choosePass(text),
    say: (words) => { passNote.textContent = words; } });
  const measure = h("form", { class: "check-form" },
    h("h3", {}, t("Measure")),
    passScan.button, passScan.box,
    h("label", {}, t("Code on the pass label"), h("div", { class: "race-row" }, passCode,
      h("button", { type: "button", onclick: () => choosePass(passCode.value) }, t("Find")))), passNote,
    h("label", {}, t("Replica"), replicaSelect),
    h("label", {}, t("When"), h("select", { name: "kind", "aria-label": t("When") },
      h("option", { value: "check_in" }, t("At check-in")), h("option", { value: "recheck" }, t("Control during the games")))),
    input("bb_weight_g", t("BB weight (g)"), { type: "number", min: 0.05, max: 2, step: "any", value: "0.20", required: true }),
    input("speed_mps", t("Speed (m/s)"), { type: "number", min: 1, max: 400, step: "any" }),
    input("energy_j", t("or energy (J), if the chrony shows joules"), { type: "number", min: 0, max: 100, step: "any" }),
    input("calibre_mm", t("Calibre (mm), if not the registered one"), { type: "number", min: 1, max: 50, step: "any" }),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "full_auto_used" }), " ", t("Full-auto used")),
    h("button", { type: "submit", class: "primary" }, t("Record the measure")));
  const result = h("div", { class: "chrony-result-box", role: "status" });
  const list = h("div", { class: "replicas" });
  const root = h("div", { class: "chrony-panel" },
    h("p", { class: "muted" }, t("Eye protection on at the chrony, for the referees too.")),
    measure, result, register, registered, h("h3", {}, t("Replicas of this day")), list);
  let active = true;

  register.addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = register.elements;
    const answer = await send(t("Register a replica"), "POST", `/api/events/${eventId}/replicas/`, {
      member: f.member.value.trim(), label: f.label.value.trim(), type: f.type.value,
      calibre_mm: Number(f.calibre_mm.value), full_auto_capable: f.full_auto_capable.checked });
    if (!answer.ok) { registered.textContent = said(answer); registered.className = "message"; return; }
    const { replica } = answer.data;
    registered.className = "recorded";
    registered.textContent = t("Registered: %(label)s of %(owner)s, label code %(code)s. Measure it now.",
      { label: replica.label, owner: replica.member.name, code: replica.code });
    register.reset();
    await load(replica.id);
    measure.scrollIntoView({ block: "nearest" });
  });

  measure.addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = measure.elements;
    const replica = replicas.find((r) => String(r.id) === replicaSelect.value);
    if (!replica) return;
    const body = { kind: f.kind.value, bb_weight_g: Number(f.bb_weight_g.value), full_auto_used: f.full_auto_used.checked };
    if (f.speed_mps.value) body.speed_mps = Number(f.speed_mps.value);
    if (f.energy_j.value) body.energy_j = Number(f.energy_j.value);
    if (f.calibre_mm.value) body.calibre_mm = Number(f.calibre_mm.value);
    const answer = await send(t("Record the measure"), "POST", `/api/replicas/${replica.id}/checks/`, body);
    if (!answer.ok) { mount(result, h("p", { class: "message", role: "alert" }, said(answer))); return; }
    showCheck(replica, answer.data);
    f.speed_mps.value = "";
    f.energy_j.value = "";
    f.calibre_mm.value = "";
    f.full_auto_used.checked = false;
    load(replica.id);
  });

  function choosePass(text) {
    const code = String(text || "").trim().toUpperCase().replace(/[^A-Z0-9]/g, "");
    if (!code) return;
    passCode.value = code;
    const found = replicas.find((r) => r.code === code);
    if (found) replicaSelect.value = String(found.id);
    passNote.textContent = found ? t("Chosen: %(label)s of %(owner)s.", { label: found.label, owner: found.member.name })
      : t("No replica of this day has the code %(code)s.", { code });
  }

  function showCheck(replica, { check, passed, sanction, escalated }) {
    const limits = check.limits || {};
    mount(result, h("div", { class: `chrony-result ${passed ? "pass" : "fail"}`, id: "chrony-result" },
      h("p", { class: "verdict" }, passed ? t("PASSED") : t("FAILED")),
      h("p", {}, h("strong", {}, `${replica.label} — ${replica.member.name}`)),
      h("p", { class: "energy" }, h("strong", {}, `${number(check.energy_j)} J`),
        limits.max_power_joule !== undefined ? h("span", { class: "muted" }, " ", t("(limit %(max)s J)", { max: number(limits.max_power_joule) })) : null,
        check.speed_mps ? h("span", { class: "muted" }, ` — ${number(check.bb_weight_g)} g, ${number(check.speed_mps)} m/s`) : null),
      check.reasons.length ? h("ul", { class: "reasons" }, check.reasons.map((reason) => h("li", {}, reason))) : null,
      passed ? h("a", { class: "button", href: `/replicas/${replica.id}/label/`, target: "_blank" }, t("Print the pass label"))
        : h("p", {}, t("This replica may not play: adjust it and measure it again.")),
      sanction ? h("p", { class: "escalated", role: "alert" }, h("strong", {}, t("Proven cheating:")), " ",
        t("%(kind)s recorded for %(name)s.", { kind: sanction.kind_label, name: sanction.member.name }),
        escalated && sanction.escalation ? ` ${sanction.escalation.why}` : "") : null));
  }

  function row(replica) {
    const check = replica.latest_check;
    return h("li", { dataset: { replica: replica.id } },
      h("strong", {}, replica.code), " ", replica.label, " — ", replica.member.name, " ",
      h("span", { class: "muted" }, TYPES()[replica.type] || replica.type, `, ${number(replica.calibre_mm)} mm`), " · ",
      check ? `${number(check.energy_j)} J ` : "", verdict(replica.passed),
      replica.passed ? [" ", h("a", { href: replica.label_url, target: "_blank" }, t("label"))] : null);
  }

  async function load(select = null) {
    const answer = await get(`/api/events/${eventId}/replicas/`).catch(() => null);
    if (!active || !answer || !answer.ok) return;
    replicas = answer.data.replicas;
    const chosen = select !== null ? String(select) : replicaSelect.value;
    mount(replicaSelect, replicas.length ? replicas.map((r) => h("option", { value: r.id, selected: String(r.id) === chosen },
      `${r.code} — ${r.label} (${r.member.name})`)) : h("option", { value: "" }, t("Register a replica first")));
    mount(list, replicas.length ? h("ul", { class: "replica-list" }, replicas.map(row))
      : h("p", { class: "muted" }, t("No replica registered yet.")));
  }

  return { element: root, load, stop() { active = false; passScan.stop(); } };
}
