// The organisers' courses (js/race_organiser.js): the mass start of each, what it
// answered (who started, who did not and why), and its balises: number, name, the code
// printed under the QR (what a phone that cannot scan types) and the QR's content; the
// labels to print (/race/<event>/balises/).
import { send } from "./api.js";
import { t } from "./i18n.js";
import { said } from "./outcome.js";
import { clockTime, courseDuration } from "./race_common.js";
import { confirmButton, h, mount } from "./util.js";

export function coursesPane(org) {
  const { courses, panes, starts } = org;

  // -- courses: mass start and balises -----------------------------------------------------------------

  function draw() {
    if (!courses.size) { mount(panes.courses, h("p", { class: "card muted" }, t("Loading…"))); return; }
    mount(panes.courses, h("p", {}, h("a", { class: "button", id: "print-balises", href: `/race/${org.id}/balises/`, target: "_blank" },
      t("Print the balises"))), [...courses.values()].map((course) => {
      const answer = starts.get(course.id);
      return h("section", { class: "card course", dataset: { course: course.id } },
        h("h2", {}, course.name, " ", h("span", { class: "muted" }, courseDuration(course.duration_s))),
        h("p", { class: "muted" }, t("%(points)s points per balise", { points: course.points_per_checkpoint }),
          course.points_confirmed ? "" : ` (${t("not confirmed")})`,
          course.mass_started_at ? ` · ${t("mass start at %(time)s", { time: clockTime(course.mass_started_at) })}` : ""),
        confirmButton(t("Mass start: %(course)s", { course: course.name }), t("Tap again: everyone ready starts now"),
          () => massStart(course), { class: "primary" }, `mass:${course.id}`),
        answer ? startAnswer(answer) : null,
        h("details", { class: "balises" }, h("summary", {}, t("Balises (%(n)s)", { n: course.checkpoints.length })),
          h("ul", {}, course.checkpoints.map((cp) => h("li", { dataset: { balise: cp.code } }, h("strong", {}, cp.code), " ", cp.name, " ",
            h("span", { class: "typed-code", title: t("Code under the QR") }, cp.typed_code), " ",
            h("span", { class: "muted" }, cp.qr))))));
    }));
  }

  function startAnswer(answer) {
    if (answer.refused) return h("p", { class: "race-note refusal", role: "alert" }, answer.refused);
    return h("div", { class: "start-answer", role: "status" },
      h("p", { class: "race-note ok" }, startedWords(answer.started.map((e) => e.name))),
      answer.not_started.length ? h("div", {}, h("p", { class: "message" }, t("Not started (still registered):")),
        h("ul", {}, answer.not_started.map((e) => h("li", {}, h("strong", {}, e.name), " — ", e.detail)))) : null);
  }

  function startedWords(names) {
    if (!names.length) return t("Nobody started.");
    const values = { n: names.length, names: names.join(", ") };
    return names.length === 1 ? t("One started: %(names)s", values) : t("%(n)s started: %(names)s", values);
  }

  async function massStart(course) {
    const answer = await send(t("Mass start: %(course)s", { course: course.name }), "POST", `/api/race/courses/${course.id}/start/`, {});
    starts.set(course.id, answer.ok ? answer.data : { refused: said(answer) });
    draw();
    if (answer.ok) { org.loadCourses(); org.safetySoon(); }
  }

  return { draw };
}
