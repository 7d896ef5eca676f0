// A spreadsheet (CSV) sent to an import of the organisers' screens: the finger readout and
// the entries of a race (js/race_org_import.js), the roster of a game (js/roster.js). The
// file goes as it is, not through the outbox (an import needs the network) and with an
// Idempotency-Key, so a retried upload is applied once. An orienteering file (IOF XML) goes
// through the same panel (js/race_org_import.js). A refused file imports nothing and
// lists its bad lines with their numbers as the spreadsheet shows them (the header is 1).
import { lang, t } from "./i18n.js";
import { cookie, h, mount, newKey } from "./util.js";

export function csvImportPanel({ url, title, help, fileLabel, button, resultId, done, onImported, extra = null,
  accept = ".csv,text/csv,text/plain" }) {
  const file = h("input", { type: "file", name: "file", accept, required: true, "aria-label": fileLabel });
  const result = h("div", { class: "import-result", id: resultId });
  const form = h("form", { class: "card import-form", onsubmit: async (ev) => {
    ev.preventDefault();
    if (!file.files.length) return;
    mount(result, h("p", { class: "muted" }, t("Sending the file…")));
    const body = new FormData(form);   // the file, and any field of `extra`
    let response;
    let data = {};
    try {
      response = await fetch(url, { method: "POST", body, credentials: "same-origin",
        headers: { Accept: "application/json", "Accept-Language": lang, "X-CSRFToken": cookie("csrftoken"), "Idempotency-Key": newKey() } });
      data = await response.json().catch(() => ({}));
    } catch {
      mount(result, h("p", { class: "race-note refusal", role: "alert" }, t("No network: the import needs the network.")));
      return;
    }
    if (response.ok) {
      mount(result, h("div", { class: "race-note ok", role: "status" }, done(data)));
      form.reset();
      onImported(data);
      return;
    }
    const rows = data.rows || [];
    mount(result, h("div", { class: "race-note refusal", role: "alert" }, h("p", {}, h("strong", {}, data.detail || t("Refused."))),
      rows.length ? h("table", { class: "bad-rows" },
        h("thead", {}, h("tr", {}, h("th", {}, t("File line")), h("th", {}, t("Reason")))),
        h("tbody", {}, rows.map((row) => h("tr", {}, h("td", { class: "n" }, row.line), h("td", {}, row.reason))))) : null,
      rows.length ? h("p", {}, t("Nothing was imported: fix these lines and send the file again.")) : null));
  } },
  h("h2", {}, title), h("p", { class: "muted" }, help), extra,
  h("label", {}, fileLabel, file),
  h("button", { type: "submit", class: "primary" }, button), result);
  return form;
}
