// The organisers' live leaderboard per course (pushed after every punch, life or finish),
// with the "points not confirmed" warning and its confirm button (js/race_organiser.js).
import { send } from "./api.js";
import { t } from "./i18n.js";
import { said } from "./outcome.js";
import { courseDuration } from "./race_common.js";
import { formatDuration, h, mount } from "./util.js";

export function boardPane(org) {
  const { boards, drafts, field, notes, panes } = org;

  // -- leaderboard -------------------------------------------------------------------------------

  function draw() {
    if (!boards.size) { mount(panes.board, h("p", { class: "card muted" }, t("Loading…"))); return; }
    mount(panes.board, [...boards.values()].map((board) => h("section", { class: "card board", dataset: { course: board.course.id } },
      h("h2", {}, board.course.name, " ", h("span", { class: "muted" }, courseDuration(board.course.duration_s))),
      board.warnings.map((w) => h("div", { class: "race-warning", role: "alert", dataset: { warning: w.code } }, "⚠ ", w.text,
        w.code === "points_unconfirmed" ? pointsForm(board.course) : null)),
      board.ranking.length ? h("div", { class: "table-wrap" }, h("table", { class: "ranking" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("Survivor(s)")), h("th", { class: "n" }, t("Balises")),
          h("th", { class: "n", title: t("Late minutes") }, t("Late min")), h("th", { class: "n", title: t("Lives lost") }, t("Lives −")),
          h("th", { class: "n" }, t("Elapsed")), h("th", { class: "n" }, t("Race score")))),
        h("tbody", {}, board.ranking.map((row) => h("tr", { dataset: { entry: row.entry.id } },
          h("td", {}, row.rank), h("td", {}, row.entry.name, row.entry.members.length ? h("div", { class: "muted race-small" }, row.entry.members.join(", ")) : null),
          h("td", { class: "n" }, `${row.found}/${row.checkpoints}`), h("td", { class: "n" }, row.late_minutes),
          h("td", { class: "n" }, row.lives_lost), h("td", { class: "n" }, row.elapsed_s !== null ? formatDuration(row.elapsed_s) : ""),
          h("td", { class: "n" }, h("strong", {}, row.score))))))) : h("p", { class: "muted" }, t("Nobody ranked yet.")),
      board.unranked.length ? [h("h3", {}, t("Not ranked (still out: estimate)")), h("div", { class: "table-wrap" }, h("table", { class: "unranked" },
        h("tbody", {}, board.unranked.map((row) => h("tr", { dataset: { entry: row.entry.id } },
          h("td", {}, h("strong", {}, row.entry.name), h("div", { class: "muted race-small" }, (row.unclassified || row.status).label,
            " · ", t("lives − %(n)s", { n: row.lives_lost }))),
          h("td", { class: "n" }, `${row.found}/${row.checkpoints}`),
          h("td", { class: "n" }, row.score === null ? "" : `≈ ${row.score}`))))))] : null)));
  }

  function pointsForm(course) {
    const input = field(`points:${course.id}`, { type: "number", min: 0, max: 10000, step: 1, required: true,
      "aria-label": t("Points per balise"), value: course.points_per_checkpoint });
    if (!drafts.has(`points:${course.id}`)) input.value = course.points_per_checkpoint;
    const note = notes.get(`points:${course.id}`);
    return h("form", { class: "points-form", onsubmit: async (e) => {
      e.preventDefault();
      const answer = await send(t("Confirm the points"), "POST", `/api/race/courses/${course.id}/points/`,
        { points_per_checkpoint: Number(input.value) });
      notes.set(`points:${course.id}`, answer.ok ? null : { ok: false, text: said(answer) });
      drafts.delete(`points:${course.id}`);
      input.blur();
      if (answer.ok) { org.loadBoard(); org.loadCourses(); } else draw();
    } },
    h("label", {}, t("Points per balise"), h("div", { class: "race-row" }, input,
      h("button", { type: "submit", class: "primary" }, t("Confirm the points")))),
    note ? h("p", { class: "race-note refusal", role: "alert" }, note.text) : null);
  }

  return { draw };
}
