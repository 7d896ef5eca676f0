// The finger readout on the organisers' screen (js/race_organiser.js): a CSV file sent as
// it is (not through the outbox: the import needs the network); a refused file lists its
// bad rows and imports nothing.
import { lang, t } from "./i18n.js";
import { cookie, h, mount, newKey } from "./util.js";

export function importPanel(id, { onImported }) {
  const file = h("input", { type: "file", name: "file", accept: ".csv,text/csv,text/plain", required: true,
                            "aria-label": t("Readout file (CSV)") });
  const result = h("div", { class: "import-result", id: "import-result" });
  const form = h("form", { class: "card import-form", onsubmit: async (ev) => {
    ev.preventDefault();
    if (!file.files.length) return;
    mount(result, h("p", { class: "muted" }, t("Sending the file…")));
    const body = new FormData();
    body.append("file", file.files[0]);
    let response;
    let data = {};
    try {
      response = await fetch(`/api/race/events/${id}/punches/import/`, { method: "POST", body, credentials: "same-origin",
        headers: { Accept: "application/json", "Accept-Language": lang, "X-CSRFToken": cookie("csrftoken"), "Idempotency-Key": newKey() } });
      data = await response.json().catch(() => ({}));
    } catch {
      mount(result, h("p", { class: "race-note refusal", role: "alert" }, t("No network: the import needs the network.")));
      return;
    }
    if (response.ok) {
      mount(result, h("p", { class: "race-note ok", role: "status" }, t("%(rows)s punches read: %(imported)s imported, %(already)s already there, %(entries)s entries.", {
        rows: data.rows, imported: data.imported, already: data.already_there, entries: data.entries })));
      form.reset();
      onImported();
      return;
    }
    mount(result, h("div", { class: "race-note refusal", role: "alert" }, h("p", {}, h("strong", {}, data.detail || t("Refused."))),
      data.rows && data.rows.length ? h("table", { class: "bad-rows" },
        h("thead", {}, h("tr", {}, h("th", {}, t("File line")), h("th", {}, t("Reason")))),
        h("tbody", {}, data.rows.map((row) => h("tr", {}, h("td", { class: "n" }, row.line), h("td", {}, row.reason))))) : null,
      data.rows && data.rows.length ? h("p", {}, t("Nothing was imported: fix these lines and send the file again.")) : null));
  } },
  h("h2", {}, t("Finger readout")),
  h("p", { class: "muted" }, t("A CSV file with the columns doigt, balise, heure (or finger, checkpoint, time). A file with a bad line imports nothing.")),
  h("label", {}, t("Readout file (CSV)"), file),
  h("button", { type: "submit", class: "primary" }, t("Import")), result);
  return form;
}
