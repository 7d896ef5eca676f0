// The race organisers' imports (js/race_organiser.js): the finger readout after the night,
// the entries registered before it, and the orienteering tools' files (IOF XML). A refused file lists its bad rows and imports nothing.
import { csvImportPanel } from "./csv_import.js";
import { t } from "./i18n.js";
import { h } from "./util.js";

export function importPanel(id, { onImported }) {
  return h("div", {},
    csvImportPanel({
      url: `/api/race/events/${id}/punches/import/`, resultId: "import-result",
      title: t("Finger readout"), fileLabel: t("Readout file (CSV)"), button: t("Import"),
      help: t("A CSV file with the columns doigt, balise, heure (or finger, checkpoint, time), or the card readout export of SPORTident Config+. A file with a bad line imports nothing."),
      done: (data) => t("%(rows)s punches read: %(imported)s imported, %(already)s already there, %(entries)s entries.", {
        rows: data.rows, imported: data.imported, already: data.already_there, entries: data.entries }),
      onImported }),
    csvImportPanel({
      url: `/api/race/events/${id}/entries/import/`, resultId: "entries-import-result",
      title: t("Entries from a file"), fileLabel: t("Entries file (CSV)"), button: t("Register from the file"),
      help: t("A CSV file with the columns nom, parcours, doigt, téléphone (or name, course, finger, phone), and if needed membres, porteur, caution. A file with a bad line imports nothing."),
      done: (data) => t("%(count)s entries registered.", { count: data.imported }),
      onImported }),
    csvImportPanel({
      url: `/api/race/events/${id}/iof/import/`, resultId: "iof-import-result", accept: ".xml,application/xml,text/xml",
      title: t("Orienteering file (IOF XML 3.0)"), fileLabel: t("EntryList or CourseData (XML)"), button: t("Import the IOF file"),
      help: t("Entries from an online entry system (EntryList), courses and balises from course-setting software (CourseData). A file with a bad element imports nothing."),
      extra: h("label", {}, t("Duration of a new course (minutes), if its name is not enfant, famille or sportif"),
        h("input", { type: "number", name: "duration_min", min: "1", max: "1440", inputmode: "numeric" })),
      done: (data) => data.message === "CourseData"
        ? t("%(count)s courses imported.", { count: data.imported })
        : t("%(count)s entries registered.", { count: data.imported }),
      onImported }));
}
