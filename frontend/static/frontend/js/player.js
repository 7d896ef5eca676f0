// The player's screen: state in big type, the countdown to what comes next, what the
// character can and cannot do, points, effects, what the player may declare, a QR code
// for medics and a short history. Everything is drawn from the snapshot, so another
// ruleset shows up without new code here. A snapshot with a body map or a load draws the
// top of the screen with the body figure and the Carga (js/body.js), and a ruleset may
// have its own layout (js/airsoft_player.js), both registered in js/panels.js; an action
// with parameters (where a hit landed, with what) opens a small form (js/player_actions.js).
import { get, send } from "./api.js";
import { keepAwake, warnBeforeDeadline } from "./alerts.js";
import { announce } from "./announce.js";
import { bannerStack } from "./banners.js";
import { startTicking } from "./countdown.js";
import { answerWords, corrected, declaredOffline } from "./declared_offline.js";
import { followEventLanguage, t } from "./i18n.js";
import { fightTools, fightsCard } from "./fights.js";
import { objectPanel } from "./items.js";
import { Live, merge, stamped } from "./live.js";
import { said } from "./outcome.js";
import { panelFor } from "./panels.js";
import { declarations } from "./player_actions.js";
import { abilities, effects, historyList, points, sheet, stateCard } from "./player_cards.js";
import { clarityPanel } from "./player_panels.js";
import { askPanel } from "./requests.js";
import { recall, remember } from "./store.js";
import { formatDuration, h, mount } from "./util.js";

export async function show(root, { id, me, params, context }) {
  let snap = null;
  let history = [];
  let historyAt = 0;             // when the server's history was read
  let message = null;
  const character = me.characters.find((c) => c.id === id);

  const qr = h("div", { class: "qr", hidden: true },
    h("img", { src: `/api/characters/${id}/qr.svg`, alt: t("My QR code for a medic") }),
    h("p", { class: "code" }, character ? character.code : ""));

  let active = true;   // a late answer must not draw over the next screen
  let tools = null;    // the fight forms, built once the ruleset is known
  // Scanning an object: kept across redraws (its camera and fields live on).
  const objects = objectPanel({ characterId: id, code: params ? params.get("object") : null,
                                onDone: () => refresh() });
  // Asking the organisers: kept across redraws too (a snapshot must not wipe the question).
  const asks = askPanel(id, { send, t, h });
  const clarity = clarityPanel(id);
  // Banners for what the player must not miss (js/banners.js); declarations waiting for
  // the network, shown at once as not yet confirmed (js/declared_offline.js).
  const banners = bannerStack(id);
  const offline = declaredOffline(id, { render: () => render(), answered: (item, answer) => answeredLate(item, answer) });
  // Panels of a ruleset's own layout kept across redraws (js/panels.js), made when first drawn.
  const kept = new Map();
  const keep = (key, make) => { if (!kept.has(key)) kept.set(key, make()); return kept.get(key); };
  const decl = declarations(id, { current: () => snap, say: (text) => { message = text; },
                                  apply: (fresh) => apply(fresh), render: () => render(),
                                  tapped: (action, params) => { banners.expectOwnChange(); return offline.tap(snap, action, params); } });

  async function loadTools() {
    if (tools !== null || !snap) return;
    tools = false;
    const answer = await get(`/api/rulesets/${snap.character.ruleset}/`).catch(() => null);
    if (answer && answer.ok) { tools = fightTools(answer.data.interactions, fight) || false; render(); } else tools = null;
  }

  async function fight(label, path, body, form) {
    const answer = await send(label, "POST", `/api/characters/${id}/${path}`, body);
    afterFight(answer, () => form.reset());
  }

  function afterFight(answer, onOk) {
    message = said(answer, { done: (data) => (data.hit === false ? data.detail : null) });
    if (!answer.ok) { render(); return; }
    if (onOk) onOk();
    apply(answer.data.snapshot);
  }

  const answerDuel = async (duel, body) =>
    afterFight(await send(t("Duel"), "POST", `/api/duels/${duel.id}/answer/`, body));
  const stopBeating = async (beating) =>
    afterFight(await send(t("Stop"), "POST", `/api/acharnements/${beating.id}/stop/`, {}));


  function render() {
    if (!active) return;
    if (!snap) {
      mount(root, h("p", { class: "card" }, t("Loading…")));
      return;
    }
    decl.sync(snap);
    const actions = decl.card(snap, message);
    const figure = decl.figure();
    objects.setLoad(snap.load);
    clarity.update(snap);
    // With a declaration waiting for the network: the state it leads to, not confirmed.
    const shown = offline.shown(snap);
    const toolsCard = h("section", { class: "card tools" },
      h("button", { type: "button", onclick: () => { qr.hidden = !qr.hidden; } }, t("Show my QR code")),
      character && character.medic ? h("a", { class: "button", href: `#/medic/${id}` }, t("Treat a patient")) : null,
      h("button", { type: "button", onclick: enableNotifications }, t("Notifications")),
      qr);
    // What a ruleset's own layout or the top of the screen is drawn with (js/panels.js).
    const parts = { id, params, message, keep, apply: (fresh) => apply(fresh), declarations: decl, actions, figure,
                    dropItem, asks: asks.element, toolsCard, history: historyList(banners.history(history, historyAt)),
                    emergency: null };   // Emergencia is in the top bar of every screen (js/emergency.js)
    const layout = panelFor("player", snap.character.ruleset, snap);
    const { children, awake } = layout ? layout.render(shown, parts) : defaultLayout(shown, parts);
    mount(root, children);
    keepAwake(awake);
  }

  function defaultLayout(snap, parts) {
    const top = panelFor("player-top", snap.character.ruleset, snap);
    return {
      children: [stateCard(snap), fightsCard(snap, { answer: answerDuel, stop: stopBeating }),
        top ? top.render(snap, parts) : [parts.actions, effects(snap), points(snap)],
        abilities(snap), clarity.element, objects.element, asks.element, tools || null,
        parts.toolsCard, sheet(snap), parts.history],
      awake: Boolean(snap.next),
    };
  }

  async function dropItem(item) {
    const answer = await send(item.name, "POST", `/api/characters/${id}/items/${encodeURIComponent(item.code)}/drop/`, {});
    message = said(answer);
    if (answer.ok) { refresh(); return; }
    render();
  }

  async function enableNotifications() {
    try {
      const { enablePush } = await import("./push.js");
      const result = await enablePush();
      message = { enabled: t("Notifications are on."), denied: t("Notifications were refused."),
                  unsupported: t("This phone cannot receive notifications.") }[result] || result;
    } catch {
      message = t("This phone cannot receive notifications.");
    }
    render();
  }

  function apply(fresh, { fromCache = false, withHistory = true } = {}) {
    if (snap && fresh.version < snap.version) return;       // an older answer arrived late
    if (followEventLanguage(fresh.character.language)) return;   // reloads in the game's language
    banners.notice(snap, fresh, { own: offline.waiting() });
    // Said once, the player's own change too (the banner is only for news).
    if (snap && fresh.state.key !== snap.state.key) announce(t("Your state: %(state)s", { state: fresh.state.label }));
    snap = fresh;
    loadTools();
    if (!fromCache) {
      remember(`character:${id}`, fresh);
      context.synced();
      offline.sync(fresh);
    }
    render();
    if (!fromCache && withHistory) loadHistory();
  }

  async function refresh() {
    try {
      const answer = await get(`/api/characters/${id}/`);
      if (answer.ok) apply(answer.data, { fromCache: answer.fromCache });
      if (answer.ok && !answer.fromCache) live.hold(answer.data);
    } catch { /* offline: keep showing the last snapshot */ }
  }

  // The server's answer to a declaration that waited for the network: it confirms or
  // corrects what the screen showed.
  function answeredLate(item, answer) {
    message = answerWords(item, answer);
    if (!corrected(item, answer)) banners.expectOwnChange();   // what the player declared
    if (answer.ok && answer.data.snapshot) apply(stamped(answer.data.snapshot, answer.data.server_time));
    else render();
  }

  async function loadHistory() {
    try {
      const asked = Date.now();
      const answer = await get(`/api/characters/${id}/history/`);
      if (answer.ok) { history = answer.data.history; historyAt = answer.fromCache ? historyAt : asked; render(); }
    } catch { /* offline */ }
  }

  const saved = recall(`character:${id}`);
  if (saved) {
    snap = saved.value;
    context.synced(saved.savedAt);
  }
  render();
  const live = new Live(`character=${id}`, {
    onMessage: (msg) => {
      if (msg.type === "snapshot") apply(merge(snap, msg));
      // Not a history fetch per effect: a push to everyone would bring every phone at once.
      else if (msg.type === "effect" && snap) apply(merge(snap, msg), { withHistory: false });
    },
    onStatus: (state) => { context.setOnline(state === "online"); if (state === "online") refresh(); },
  });
  refresh();
  const stopTicking = startTicking(root, () => {
    const layout = snap && panelFor("player", snap.character.ruleset, snap);
    if (layout && layout.tick && layout.tick(root)) refresh();   // a count of that layout just ended
    const el = root.querySelector("#next-countdown");
    const view = offline.shown(snap);
    if (el && view && view.next && view.clock.running) {
      const left = Number(el.dataset.left);
      const leadsTo = view.next.leads_to || {};
      warnBeforeDeadline(`${view.next.key}:${view.next.game_s}`, left,
        t("%(state)s in %(time)s", { state: leadsTo.countdown_label || leadsTo.label || "", time: formatDuration(left) }));
    }
  });
  return () => {
    active = false; live.close(); stopTicking(); keepAwake(false); objects.stop(); asks.stop();
    banners.release(); offline.release();
    for (const panel of kept.values()) if (panel.release) panel.release();
  };
}
