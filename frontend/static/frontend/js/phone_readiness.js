// The narrators' view of the players' phones (GET /api/events/<id>/phones/): how many are
// ready, how many fail each check ("27 phones cannot work offline"), how many never
// checked, and per character a mark for its row in the list (js/narrator_list.js). A
// phone's new check arrives on the live channel ({type: "phone"}); the counts are read
// again then, and every few minutes.
import { get } from "./api.js";
import { colon, t } from "./i18n.js";
import { h, mount } from "./util.js";

const REFRESH_MS = 3 * 60 * 1000;

// What each failing check means for the game, as a count of phones says it.
// (No plural forms in the phone's catalogue: the number stands after the words.)
const CANNOT = () => ({
  secure_context: t("Phones not on the secure address: %(n)s"),
  offline: t("Phones that cannot work offline: %(n)s"),
  camera: t("Phones that cannot scan: %(n)s"),
  notifications: t("Phones that will not show notifications: %(n)s"),
  wake_lock: t("Phones that cannot keep the screen on: %(n)s"),
  clock: t("Phones with a wrong clock: %(n)s"),
  storage: t("Phones that may lose their data: %(n)s"),
  battery: t("Phones with a low battery: %(n)s"),
});

const SHORT = () => ({
  secure_context: t("not secure"), offline: t("no offline"), camera: t("no camera"),
  notifications: t("no notifications"), wake_lock: t("screen sleeps"), clock: t("clock"),
  storage: t("data at risk"), battery: t("battery low"),
});

// The mark in a character's row: ready, not ready or never checked; and, for a phone not
// ready, why (shortened), put after the team and code.
export function phoneMark(row) {
  if (!row) return null;
  if (!row.reported) {
    return h("span", { class: "phone-mark phone-unknown", title: t("This phone never checked itself") }, t("Phone –"));
  }
  if (row.ready) return h("span", { class: "phone-mark phone-ready", title: t("Phone ready") }, t("Phone ✓"));
  return h("span", { class: "phone-mark phone-not-ready", title: `${t("Phone not ready")}${colon()}${phoneWhy(row)}` }, t("Phone ✗"));
}

export function phoneWhy(row) {
  if (!row || !row.reported || row.ready) return "";
  const short = SHORT();
  return row.failing.map((key) => short[key] || key).join(", ");
}

// `onChange()`: the rows' marks changed (the list redraws them).
export function phonesPanel(eventId, { onChange }) {
  const rows = new Map();
  let counts = null;
  const element = h("details", { class: "card phones-panel" });

  function render() {
    if (!counts) { mount(element); return; }
    const failing = Object.entries(counts.failing).filter(([, n]) => n > 0);
    const notReady = counts.not_ready + counts.never_reported;
    mount(element,
      h("summary", { class: notReady ? "phones-summary phones-some" : "phones-summary" },
        h("strong", {}, t("Phones")), " — ",
        t("%(ready)s ready, %(not)s not ready, %(never)s never checked",
          { ready: counts.ready, not: counts.not_ready, never: counts.never_reported })),
      h("ul", { class: "phones-failing" },
        failing.map(([key, n]) => h("li", { dataset: { check: key } }, window.interpolate(CANNOT()[key], { n }, true))),
        counts.never_reported ? h("li", { dataset: { check: "never" } },
          t("Characters whose phone never checked itself: %(n)s", { n: counts.never_reported })) : null),
      h("p", { class: "muted" }, t("A player checks their phone from the top bar (“Phone check”); the result comes here.")));
  }

  async function refresh() {
    const answer = await get(`/api/events/${eventId}/phones/`).catch(() => null);
    if (!answer || !answer.ok) return;
    counts = answer.data.counts;
    rows.clear();
    for (const row of answer.data.characters) rows.set(row.character, row);
    render();
    onChange();
  }

  // A phone's new check (live channel): its row at once, the counts from the server once
  // for a burst (a briefing of 300 players checking together), not once per phone.
  let soon = null;
  function receive(row) {
    rows.set(row.character, row);
    onChange();
    if (!soon) soon = setTimeout(() => { soon = null; refresh(); }, 1000 + Math.random() * 2000);
  }

  const timer = setInterval(refresh, REFRESH_MS);
  refresh();
  return { element, receive, refresh, of: (cid) => rows.get(cid), stop() { clearInterval(timer); clearTimeout(soon); } };
}
