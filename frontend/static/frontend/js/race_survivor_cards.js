// The cards of the survivor's screen (js/race_survivor.js), drawn from the entry: the
// head with the status, the time left or the overtime, the lives as flags, the balises
// punched and the scan, the score estimate, a team's carrier, the abandon.
import { t } from "./i18n.js";
import { clockTime, courseDuration, livesFlags, secondsTo, signed, timeWords } from "./race_common.js";
import { confirmButton, formatDuration, h } from "./util.js";

const ENDED = ["finished", "dnf", "disqualified"];

// Racing past the deadline is overtime, before the server says so.
export function statusOf(entry) {
  const key = entry.status.key;
  if (key === "racing" && entry.deadline_at && secondsTo(entry.deadline_at) < 0) return "overtime";
  return key;
}

// `note`: what the last punch, carrier change or abandon answered, and where it goes;
// `scan`: the balise's scan field, kept by the screen; `changeCarrier(name)`, `abandon()`.
export function survivorCards({ id, entry, note, scan, changeCarrier, abandon }) {
  const statusKey = () => statusOf(entry);

  function header() {
    const team = entry.entry.kind === "team";
    return h("section", { class: `card race-head status-${statusKey()}` },
      h("p", { class: "muted race-course" }, t("Course %(name)s · %(duration)s", {
        name: entry.course.name, duration: courseDuration(entry.course.duration_s) })),
      h("h1", { class: "race-name" }, entry.entry.name),
      team ? h("p", { class: "muted" }, entry.entry.members.join(", "), " · ",
        t("Carrier: %(name)s", { name: entry.entry.carrier })) : null,
      h("p", { class: "race-status", id: "race-status" }, statusLabel()),
      noteFor("head"));
  }

  function noteFor(where) {
    if (!note || note.where !== where) return null;
    return h("p", { class: note.ok ? "race-note ok" : "race-note refusal", role: note.ok ? "status" : "alert" }, note.text);
  }

  function statusLabel() {
    const key = statusKey();
    if (key === "overtime" && entry.status.key === "racing") return t("Overtime");
    if (key === "registered") return t("Not started yet");
    return entry.status.label;
  }

  function timeCard() {
    const key = statusKey();
    if (key === "registered") {
      return h("section", { class: "card race-time" }, h("h2", {}, t("Race time")),
        h("p", { class: "big-timer race-clock" }, formatDuration(entry.course.duration_s)),
        h("p", { class: "muted" }, t("The countdown starts with your start.")));
    }
    if (ENDED.includes(key)) {
      const elapsed = entry.finished_at && entry.started_at
        ? (Date.parse(entry.finished_at) - Date.parse(entry.started_at)) / 1000 : null;
      return h("section", { class: "card race-time" }, h("h2", {}, t("Race time")),
        entry.finished_at ? h("p", {}, t("Finished at %(time)s", { time: clockTime(entry.finished_at) }),
          elapsed !== null ? h("strong", { class: "race-elapsed" }, ` · ${formatDuration(elapsed)}`) : null) : null,
        entry.late_minutes ? h("p", { class: "late-words" }, lateWords()) : null);
    }
    const left = secondsTo(entry.deadline_at);
    return h("section", { class: `card race-time${left < 0 ? " overtime" : ""}` },
      h("h2", { id: "race-time-label" }, left < 0 ? t("Overtime") : t("Time left")),
      h("p", { class: "big-timer race-clock", id: "race-time", "aria-labelledby": "race-time-label",
               dataset: { deadline: entry.deadline_at } }, timeWords(left)),
      h("p", { class: "muted" }, t("Deadline %(time)s", { time: clockTime(entry.deadline_at) })),
      h("p", { class: "late-words", id: "race-late" }, left < 0 ? lateWords() : t("Each started minute late costs points.")));
  }

  // "3 started minutes late: −15 points (−5 per started minute)", from the server's numbers.
  function lateWords() {
    const minutes = entry.late_minutes;
    if (!minutes) return t("Late: hurry back to the finish.");
    const per = -entry.breakdown.late / minutes;
    return t("%(n)s minutes late: %(points)s points (%(per)s per started minute)", {
      n: minutes, points: signed(entry.breakdown.late), per: signed(-per) });
  }

  function livesCard() {
    const losses = entry.life_losses;
    return h("section", { class: "card race-lives", id: "race-lives" },
      h("h2", {}, t("Lives")),
      h("div", { class: "lives-row" }, livesFlags(entry.lives, { big: true }),
        h("strong", { class: "lives-count", id: "lives-count" }, `${entry.lives.remaining} / ${entry.lives.initial}`)),
      entry.lives.remaining === 0 ? h("p", { class: "muted" }, t("No flag left: you still race and may finish.")) : null,
      losses.length ? h("ul", { class: "losses" }, losses.map((loss) => h("li", { class: loss.voided ? "voided" : "" },
        h("span", { class: "muted" }, clockTime(loss.at)), " ", loss.cause.label,
        loss.voided ? h("span", {}, " — ", t("voided: the life is back"), loss.void_reason ? ` (${loss.void_reason})` : "")
          : !loss.took_life ? h("span", { class: "muted" }, " — ", t("no life left to take")) : null))) : null);
  }

  function punchesCard() {
    const racing = ["racing", "overtime"].includes(statusKey());
    return h("section", { class: "card race-punches", id: "race-punches" },
      h("h2", {}, t("Balises")),
      h("p", { class: "found" }, h("strong", { id: "found-count" }, `${entry.found} / ${entry.checkpoints}`), " ",
        t("balises found")),
      racing ? scan.element : null,
      noteFor("punch"),
      entry.punches.length ? h("ol", { class: "punch-list" }, entry.punches.map((p) => h("li", { class: p.counted ? "counted" : "not-counted" },
        h("span", { class: "mark", "aria-hidden": "true" }, p.counted ? "✔ " : "✘ "),
        h("strong", {}, p.checkpoint.code), " ", p.checkpoint.name, " ", h("span", { class: "muted" }, clockTime(p.at)),
        p.counted ? null : h("div", { class: "muted" }, t("does not count: %(reason)s", { reason: p.reason }))))) : null);
  }

  function scoreCard() {
    if (entry.score === null || entry.score === undefined) return null;
    const b = entry.breakdown;
    const parts = [[t("balises"), b.points], [t("not found"), b.unfound], [t("late minutes"), b.late], [t("lives lost"), b.lives],
                   [t("exits without a life"), b.exits_without_life], [t("infractions"), b.infractions]]
      .filter(([, value], i) => i < 2 || value);
    const final = statusKey() === "finished";
    return h("section", { class: "card race-score" },
      h("h2", {}, final ? t("Final score") : t("Score estimate")),
      h("p", {}, h("strong", { class: "score", id: "race-score" }, String(entry.score)), " ", t("points")),
      h("p", { class: "muted breakdown" }, parts.map(([label, value]) => `${label} ${signed(value)}`).join(" · ")),
      final ? null : h("p", { class: "muted" }, t("If you finished now; the organisers' ranking is the one that counts.")),
      (entry.warnings || []).map((w) => h("p", { class: "race-warning" }, "⚠ ", w.text)));
  }

  function carrierCard() {
    if (entry.entry.kind !== "team" || ENDED.includes(statusKey())) return null;
    const others = entry.entry.members.filter((m) => m !== entry.entry.carrier);
    const choice = h("select", { name: "carrier", "aria-label": t("New carrier") },
      others.map((name) => h("option", { value: name }, name)));
    return h("section", { class: "card race-carrier" }, h("h2", {}, t("Change the carrier")),
      h("p", { class: "muted" }, t("Whoever carries the finger carries the belt.")),
      h("form", { onsubmit: (e) => { e.preventDefault(); if (choice.value) changeCarrier(choice.value); } },
        choice, h("button", { type: "submit" }, t("Change the carrier"))), noteFor("carrier"));
  }

  function abandonCard() {
    if (!["racing", "overtime"].includes(statusKey())) return null;
    return h("section", { class: "card race-abandon" },
      confirmButton(t("Abandon the race"), t("Tap again: abandon"), abandon, { class: "danger" }, `abandon:${id}`),
      h("p", { class: "muted" }, t("You stay on the safety board until you hand the finger back.")));
  }

  return [header(), timeCard(), livesCard(), punchesCard(), scoreCard(), carrierCard(), abandonCard()];
}
