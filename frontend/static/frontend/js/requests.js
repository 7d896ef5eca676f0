// Asking the organisers (GA17): what only they can settle, such as breaking or damaging an
// object, which is never really done. The player writes; the narrators' screen lists the
// open requests and answers each with an effect, which reaches the player's effects.
import { get as apiGet, send as apiSend } from "./api.js";
import { lang, t as translate } from "./i18n.js";
import { said } from "./outcome.js";
import { h as element } from "./util.js";

const SHOWN_CHARS = 140;   // of a request's text in its banner; the card has all of it

// The narrators' panel: the open requests, read when the screen opens and whenever its
// live channel (re)connects (what came meanwhile); in between, each new or answered
// request arrives on the live channel (`receive`) and a new one raises `onNew`. A
// request's card is made once and never moved (only added or removed): an update must
// not wipe, nor take the focus from, an answer being typed.
export function requestsPanel(eventId, { get = apiGet, send = apiSend, t = translate, h = element,
                                         onNew = () => {} } = {}) {
  const list = h("div", { class: "requests" });
  const none = h("p", { class: "muted" }, t("No request waiting."));
  const status = h("p", { class: "requests-status", role: "alert", hidden: true });
  const root = h("section", { class: "card requests-panel" },
    h("h2", {}, t("Requests to the organisers")), none, list, status);
  const cards = new Map();     // request id -> its card
  const answered = new Set();  // answered while a read was on its way: not added back
  let active = true;
  let loaded = false;          // the first read: what already waited rings no banner

  async function load() {
    if (!active) return;
    const answer = await get(`/api/events/${eventId}/requests/?status=open`).catch(() => null);
    if (active && answer && answer.ok && !answer.fromCache) {
      show(answer.data.requests, { announce: loaded });
      loaded = true;
    }
  }

  // A request that came while the screen was cut off rings like one from the live channel.
  function show(open, { announce = false } = {}) {
    const wanted = new Set(open.map((request) => request.id));
    for (const id of [...cards.keys()]) if (!wanted.has(id)) drop(id);
    for (const request of open) if (add(request) && announce) onNew(request);
  }

  function add(request) {       // oldest first: a new one goes last
    if (cards.has(request.id) || answered.has(request.id)) return false;
    cards.set(request.id, card(request));
    list.append(cards.get(request.id));
    none.hidden = true;
    return true;
  }

  function drop(id) {
    if (cards.has(id)) cards.get(id).remove();
    cards.delete(id);
    none.hidden = cards.size > 0;
  }

  // One request from the live channel: a new one is added and announced, an answered
  // one (by this narrator or another) leaves the list.
  function receive(request) {
    if (!active) return;
    if (request.status !== "open") { answered.add(request.id); drop(request.id); return; }
    if (add(request)) onNew(request);
  }

  function say(text) {
    status.textContent = text || "";
    status.hidden = !text;
  }

  async function reply(request, text, minutes) {
    const body = { text: text.value.trim() };
    if (minutes.value) body.duration_s = Number(minutes.value) * 60;
    const answer = await send(t("Answer"), "POST", `/api/requests/${request.id}/answer/`, body);
    say(said(answer));
    if (answer.ok || (answer.data && answer.data.error === "request_answered")) {
      answered.add(request.id);
      drop(request.id);
    }
  }

  function card(request) {
    const text = h("textarea", { rows: 2, required: true, maxlength: 2000, placeholder: translate("Effect: …"),
                                 "aria-label": t("Answer to %(name)s", { name: request.character.name }) });
    const minutes = h("input", { type: "number", min: 1, step: 1, placeholder: t("Minutes (empty: until removed)"),
                                 "aria-label": t("Minutes (empty: until removed)") });
    return h("article", { class: "request", dataset: { request: request.id } },
      h("p", {}, h("strong", {}, request.character.name), " ",
        h("span", { class: "muted" }, new Date(request.created_at).toLocaleTimeString(lang))),
      h("p", { class: "request-text" }, request.text),
      h("form", { onsubmit: (e) => { e.preventDefault(); reply(request, text, minutes); } },
        text, minutes, h("button", { type: "submit", class: "primary" }, t("Answer"))));
  }

  show([]);
  load();
  return { element: root, refresh: load, receive, stop() { active = false; } };
}

// The words of a new request's banner on the narrators' screen: who asks, and what.
export function requestBanner(request, t = translate) {
  const text = request.text.length > SHOWN_CHARS ? `${request.text.slice(0, SHOWN_CHARS - 1)}…` : request.text;
  return { kind: "request", text: t("Request from %(name)s: %(text)s", { name: request.character.name, text }) };
}

// The player's form: one question at a time; the answer comes back as an effect.
export function askPanel(characterId, { send = apiSend, t = translate, h = element } = {}) {
  const status = h("p", { class: "ask-status", role: "status" });
  const text = h("textarea", { rows: 3, maxlength: 1000, required: true, "aria-label": t("Your request"),
                               placeholder: t("E.g. I break the old chest open with my axe.") });
  const form = h("form", { onsubmit: async (e) => {
    e.preventDefault();
    const answer = await send(t("Ask the organisers"), "POST", `/api/characters/${characterId}/requests/`,
                              { text: text.value.trim() });
    status.textContent = said(answer, { done: t("Sent: the organisers' answer will appear in your effects.") });
    if (answer.ok || answer.queued) text.value = "";
  } }, text, h("button", { type: "submit" }, t("Send")));
  const root = h("details", { class: "card ask-panel" }, h("summary", {}, t("Ask the organisers")),
    h("p", { class: "muted" }, t("To break or damage an object, or anything only the organisers can settle.")),
    form, status);
  return { element: root, stop() {} };
}
