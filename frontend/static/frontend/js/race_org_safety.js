// The organisers' safety board (js/race_organiser.js): the overdue alerts and the count of
// who is still out, always on top, and per course who is out, the most overdue first, with
// the time left or how late and the phone number given at registration.
import { t } from "./i18n.js";
import { clockTime, secondsTo } from "./race_common.js";
import { formatDuration, h, mount } from "./util.js";

export const telHref = (phone) => `tel:${String(phone).replace(/[^+\d]/g, "")}`;

// `org`: the organisers' screen (its alert box, alerts, safety board, tabs, loaders).
export function safetyPanes(org) {
  const { alertBox, alerts, panes } = org;

  // -- the alerts, always on top ---------------------------------------------------------------------

  function drawAlerts() {
    const { safety } = org;
    const overdue = safety ? safety.courses.reduce((n, c) => n + c.overdue, 0) : 0;
    mount(alertBox,
      alerts.map((alert) => h("section", { class: "card race-alert", role: "alert", dataset: { entry: alert.entry.id } },
        h("h2", {}, t("Overdue alert")),
        h("p", { class: "alert-text" }, alert.text),
        h("p", {}, h("a", { class: "button primary phone-link", href: telHref(alert.phone) }, "☎ ", alert.phone),
          h("button", { type: "button", onclick: () => { alerts.splice(alerts.indexOf(alert), 1); drawAlerts(); } }, t("Dismiss"))))),
      safety ? h("p", { class: `card race-summary${overdue ? " has-overdue" : ""}`, id: "race-summary" },
        h("strong", {}, t("Still out: %(n)s", { n: safety.still_out })), " · ",
        overdue ? h("strong", { class: "race-late" }, t("overdue: %(n)s", { n: overdue })) : t("overdue: %(n)s", { n: 0 }),
        h("button", { type: "button", class: "small", onclick: () => org.tabBar.choose("safety") }, t("Safety board"))) : null);
  }

  // -- safety ---------------------------------------------------------------------------------------

  function drawSafety() {
    const { safety } = org;
    if (!safety) { mount(panes.safety, h("p", { class: "card muted" }, t("Loading…"))); return; }
    mount(panes.safety,
      h("p", { class: "muted" }, t("Alert %(minutes)s min after the deadline. Phone numbers are for the organisers only.",
        { minutes: Math.round(safety.alert_after_s / 60) }),
      " ", h("button", { type: "button", class: "small", onclick: org.loadSafety }, t("Refresh"))),
      safety.courses.map((course) => h("section", { class: "card safety-course", dataset: { course: course.course.id } },
        h("h2", {}, course.course.name, " — ", t("%(out)s out, %(late)s overdue", { out: course.still_out, late: course.overdue })),
        course.entries.length ? h("ul", { class: "safety-list" }, course.entries.map(safetyRow))
          : h("p", { class: "muted" }, t("Nobody out on this course.")))));
  }

  function safetyRow(row) {
    const team = row.entry.kind === "team";
    return h("li", { class: `safety-row${row.overdue_s > 0 ? " overdue" : ""}${row.alert ? " alerted" : ""}`, dataset: { entry: row.entry.id } },
      h("div", { class: "who" }, h("strong", {}, row.entry.name),
        team ? h("span", { class: "muted" }, " — ", t("carrier: %(name)s", { name: row.entry.carrier })) : null,
        row.alert ? h("span", { class: "race-badge" }, t("ALERT")) : null),
      h("a", { class: "phone-link", href: telHref(row.phone) }, "☎ ", row.phone),
      h("div", { class: "due" },
        row.deadline_at ? h("span", { class: "race-due", dataset: { deadline: row.deadline_at } }, dueWords(row.deadline_at)) : null,
        h("span", { class: "muted" }, " · ", row.status.label, " · ", t("deadline %(time)s", { time: clockTime(row.deadline_at) }),
          " · ", (row.lives === 1 ? t("%(n)s life", { n: 1 }) : t("%(n)s lives", { n: row.lives })), " · ", t("finger %(n)s", { n: row.entry.finger }))));
  }

  function dueWords(deadline) {
    const left = secondsTo(deadline);
    return left >= 0 ? t("%(time)s left", { time: formatDuration(left) }) : t("%(time)s overdue", { time: formatDuration(-left) });
  }

  return { drawAlerts, drawSafety, dueWords };
}
