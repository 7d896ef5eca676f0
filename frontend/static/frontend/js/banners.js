// What matters reaches the player (js/player.js): an incoming effect, a change of state
// and an announcement of the day's games show as a banner at the top of the screen, with
// the phone's vibration and sound (js/alerts.js: the phone's own silent and vibration
// settings apply), until the player taps "OK". They are kept on the phone, so a banner
// not yet acknowledged is still there after a reload, and each stays in the screen's
// history after it is acknowledged. The narrators' screen raises its own (a player's new
// request to the organisers) through `raise`, kept under its own key.
import { alertNow } from "./alerts.js";
import { announce } from "./announce.js";
import { lang, t } from "./i18n.js";
import { h, mount } from "./util.js";

const KEPT = 30;           // history entries kept on the phone
const OWN_CHANGE_MS = 8000; // a state change this soon after the player's own tap is theirs

const time = (ms) => new Date(ms).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });

function gameWords(game) {
  return [game.scenario, game.description].filter(Boolean).join(" — ");
}

// What changed between two snapshots of the same character that the player must not miss.
function news(before, after, ownChange) {
  const found = [];
  if (after.state.key !== before.state.key && !ownChange) {
    // Coma, death, unconscious (lying, the gravest states): their own buzz.
    const grave = Boolean(after.state.inert) && after.state.severity >= 3;
    found.push({ kind: "state", grave, text: t("Your state changed: %(state)s", { state: after.state.label }) });
  }
  const held = new Set((before.effects || []).map((effect) => effect.push));
  for (const effect of after.effects || []) {
    if (!held.has(effect.push)) found.push({ kind: "effect", text: effect.text });
  }
  const was = before.clock || {};
  const now = after.clock || {};
  const next = now.next_game;
  if (next && (!was.next_game || was.next_game.id !== next.id || was.next_game.start_at !== next.start_at
               || was.next_game.scenario !== next.scenario)) {
    found.push({ kind: "game", text: t("Next game at %(time)s: %(scenario)s", { time: time(Date.parse(next.start_at)), scenario: gameWords(next) }) });
  }
  if (now.game && (!was.game || was.game.id !== now.game.id)) {
    found.push({ kind: "game", text: t("Game %(number)s has started: %(scenario)s", { number: now.game.number, scenario: gameWords(now.game) }) });
  }
  return found;
}

// The one buzz for several news at once: the gravest.
function strongest(found) {
  if (found.some((item) => item.grave)) return "grave";
  for (const kind of ["effect", "state", "request", "game"]) if (found.some((item) => item.kind === kind)) return kind;
  return "state";
}

// `owner`: a character's id, or another screen's own name ("narrator-<event>").
export function bannerStack(owner) {
  const key = `banners:${owner}`;
  let kept = { open: [], log: [] };
  try { kept = { ...kept, ...JSON.parse(localStorage.getItem(key) || "{}") }; } catch { /* a fresh start */ }
  let ownUntil = 0;
  const root = h("div", { id: "banners", class: "banners" });
  document.body.prepend(root);

  const save = () => { try { localStorage.setItem(key, JSON.stringify(kept)); } catch { /* full */ } };

  function draw() {
    mount(root, kept.open.slice().reverse().map((banner) => h("div", {
      class: `banner banner-${banner.kind}`, dataset: { banner: banner.id } },
    h("p", { class: "banner-text" }, banner.text),
    h("span", { class: "banner-time muted" }, time(banner.at)),
    h("button", { type: "button", class: "banner-ok", "aria-label": t("OK: seen"), onclick: () => acknowledge(banner.id) }, t("OK")))));
    root.hidden = !kept.open.length;
    // At the top of the page the banners push it down: the state under them stays readable.
    document.body.style.paddingTop = kept.open.length ? `${root.offsetHeight}px` : "";
  }

  function acknowledge(id) {
    kept.open = kept.open.filter((banner) => banner.id !== id);
    save();
    draw();
    // The tapped OK is gone: the keyboard goes on to the next banner, else to the screen's heading.
    const next = root.querySelector(".banner-ok") || document.querySelector("#app h1");
    if (next) { if (next.tagName === "H1") next.setAttribute("tabindex", "-1"); next.focus({ preventScroll: true }); }
  }

  function add(found) {
    if (!found.length) return;
    const at = Date.now();
    for (const [i, item] of found.entries()) {
      const banner = { ...item, id: `${at}-${i}`, at };
      kept.open.push(banner);
      kept.log.unshift(banner);
    }
    kept.log = kept.log.slice(0, KEPT);
    save();
    draw();
    alertNow(strongest(found));
    // Said once, when raised (a redraw of the banners says nothing); a change of state
    // is said by the screen that shows it, the player's own change too.
    announce(found.filter((item) => item.kind !== "state").map((item) => item.text).join(" "));
  }

  draw();
  return {
    // A new snapshot replaces `before` on the screen (null: the first one, nothing to
    // compare); `own`: a declaration of the player's is on its way (its outcome is theirs).
    notice(before, after, { own = false } = {}) {
      if (before) add(news(before, after, own || Date.now() < ownUntil));
    },
    // Banners of the screen's own: [{ kind, text }].
    raise(found) { add(found); },
    // The player just tapped a declaration: the state it brings is no news to them.
    expectOwnChange() { ownUntil = Date.now() + OWN_CHANGE_MS; },
    // The history rows of the screen with what the banners brought: the server's history
    // has the state changes and effects it recorded by `loadedAt`; the announcements of the
    // day's games, and what came after it, only the phone has.
    history(rows, loadedAt) {
      const extra = kept.log.filter((banner) => banner.kind === "game" || (banner.kind === "effect" && banner.at > (loadedAt || 0)))
        .map((banner) => ({ at: new Date(banner.at).toISOString(), what: banner.text, kind: banner.kind, local: true }));
      return [...rows, ...extra].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
    },
    release() { root.remove(); document.body.style.paddingTop = ""; },
  };
}
