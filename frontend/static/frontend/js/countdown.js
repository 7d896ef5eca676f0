// Countdowns recomputed from absolute instants at every refresh, never decremented: a
// locked screen, a sleeping tab or a lost signal cannot make them drift.
import { clock } from "./clock.js";
import { t } from "./i18n.js";
import { formatDuration, h } from "./util.js";

// Seconds left for a timer of a snapshot: frozen while the game is paused.
export function secondsLeft(timer, snapshot) {
  if (!snapshot.clock.running || !timer.at) return timer.remaining_s;
  return Math.max(0, clock.secondsUntil(timer.at));
}

export function countdownElement(tag, timer, snapshot, attrs = {}) {
  const el = document.createElement(tag);
  Object.assign(el.dataset, { at: timer.at || "", frozen: snapshot.clock.running ? "" : String(timer.remaining_s) });
  // A timer is not read aloud at each change (js/announce.js says the minute left once).
  el.setAttribute("role", "timer");
  el.setAttribute("aria-live", "off");
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  el.classList.add("countdown");
  el.textContent = formatDuration(secondsLeft(timer, snapshot));
  return el;
}

// The words around a countdown to the state it leads to, in the app's language:
// "Coma dans" + 14:59, "In a coma in" + 14:59, "En coma en" + 14:59. The state is named
// by its `countdown_label` (French says "Dans le coma" but "Coma dans 14:59").
export function phraseParts(leadsTo) {
  const state = leadsTo.countdown_label || leadsTo.label;
  const [before, after = ""] = t("%(state)s in %(time)s", { state, time: "\u0000" }).split("\u0000");
  return { before: before.trim(), after: after.trim() };
}

// "Coma dans 14:59" as one element, its countdown live (refreshCountdowns).
export function countdownPhrase(tag, timer, snapshot, { className = "phrase", attrs = {} } = {}) {
  const { before, after } = phraseParts(timer.leads_to);
  return h(tag, { class: className }, before ? `${before} ` : null,
    countdownElement("strong", timer, snapshot, attrs), after ? ` ${after}` : null);
}

// Refresh every countdown under root; returns the element's seconds left by element.
export function refreshCountdowns(root) {
  for (const el of root.querySelectorAll(".countdown")) {
    const seconds = el.dataset.frozen !== "" ? Number(el.dataset.frozen)
      : Math.max(0, clock.secondsUntil(el.dataset.at) ?? 0);
    el.textContent = formatDuration(seconds);
    el.dataset.left = String(seconds);
  }
}

export function startTicking(root, onTick) {
  const tick = () => { refreshCountdowns(root); if (onTick) onTick(); };
  const timer = setInterval(tick, 250);
  document.addEventListener("visibilitychange", tick);
  window.addEventListener("pageshow", tick);
  tick();
  return () => {
    clearInterval(timer);
    document.removeEventListener("visibilitychange", tick);
    window.removeEventListener("pageshow", tick);
  };
}
