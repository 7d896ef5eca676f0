// Setting up a game from the narrators' screen (js/narrator.js): the roster imported from a
// spreadsheet (one character per row: name, team, then the sheet's fields of the event's
// ruleset), then the sheets to print and the admin for anything else.
import { get } from "./api.js";
import { csvImportPanel } from "./csv_import.js";
import { t } from "./i18n.js";
import { h, mount } from "./util.js";

export function rosterPanel(id, { onImported }) {
  const columns = h("p", { class: "muted roster-columns" });
  get(`/api/events/${id}/roster/`).then((answer) => {
    if (answer && answer.ok) mount(columns, t("Columns: %(columns)s", { columns: answer.data.columns.join(", ") }));
  }).catch(() => {});
  return h("section", { class: "roster-panel" },
    csvImportPanel({
      url: `/api/events/${id}/roster/`, resultId: "roster-result",
      title: t("Set up the characters"), fileLabel: t("Roster file (CSV)"), button: t("Import the roster"),
      help: t("One character per line: the first line names the columns. A file with a bad line imports nothing; a name already in the game is a bad line."),
      extra: columns,
      done: (data) => [h("p", {}, t("%(count)s characters imported.", { count: data.imported })),
        h("a", { class: "button", href: `/events/${id}/sheets/`, target: "_blank" }, t("Print the character sheets"))],
      onImported }),
    h("p", { class: "muted" }, t("Anything else (a character's sheet, a team, who narrates): "),
      h("a", { href: "/admin/", target: "_blank" }, t("the admin, for your events"))));
}
