// The race organisers' imports (js/race_organiser.js): the finger readout after the night,
// the entries registered before it. A refused file lists its bad rows and imports nothing.
import { csvImportPanel } from "./csv_import.js";
import { t } from "./i18n.js";
import { h } from "./util.js";

export function importPanel(id, { onImported }) {
  return h("div", {},
    csvImportPanel({
      url: `/api/race/events/${id}/punches/import/`, resultId: "import-result",
      title: t("Finger readout"), fileLabel: t("Readout file (CSV)"), button: t("Import"),
      help: t("A CSV file with the columns doigt, balise, heure (or finger, checkpoint, time). A file with a bad line imports nothing."),
      done: (data) => t("%(rows)s punches read: %(imported)s imported, %(already)s already there, %(entries)s entries.", {
        rows: data.rows, imported: data.imported, already: data.already_there, entries: data.entries }),
      onImported }),
    csvImportPanel({
      url: `/api/race/events/${id}/entries/import/`, resultId: "entries-import-result",
      title: t("Entries from a file"), fileLabel: t("Entries file (CSV)"), button: t("Register from the file"),
      help: t("A CSV file with the columns nom, parcours, doigt, téléphone (or name, course, finger, phone), and if needed membres, porteur, caution. A file with a bad line imports nothing."),
      done: (data) => t("%(count)s entries registered.", { count: data.imported }),
      onImported }));
}
