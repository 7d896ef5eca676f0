// Safe taps (issue: "Safe taps"): a death, a push to everyone and a state correction ask
// first, in a dialog that names who and what will happen, so a slipped thumb on a phone
// in the rain does not kill a character or message 300 players.
import { colon, t } from "./i18n.js";
import { h } from "./util.js";

// Resolves true when the narrator confirms, false when they cancel (or press Escape).
export function askConfirmation({ question, consequence, confirm }) {
  return new Promise((resolve) => {
    let answer = false;
    const dialog = h("dialog", { class: "confirm-dialog", "aria-label": question },
      h("h2", {}, question),
      consequence ? h("p", {}, consequence) : null,
      h("div", { class: "confirm-buttons" },
        h("button", { type: "button", onclick: () => dialog.close() }, t("Cancel")),
        h("button", { type: "button", class: "danger", onclick: () => { answer = true; dialog.close(); } }, confirm)));
    dialog.addEventListener("close", () => { dialog.remove(); resolve(answer); });
    document.body.append(dialog);
    dialog.showModal();
  });
}

export function confirmCorrection(name, stateLabel) {
  return askConfirmation({
    question: t("Set %(name)s to %(state)s?", { name, state: stateLabel }),
    consequence: t("The state changes now and %(name)s's phone shows it; the journal keeps a correction line.", { name }),
    confirm: t("Set to %(state)s", { state: stateLabel }),
  });
}

// `who`: { everyone: count } | { team, count } | { names: [...] }; `entry` a catalogue
// entry that acts by itself (Muerte kills), `stateLabel` a state the push sets. A push
// that sets no state to a few selected characters goes without asking.
export function confirmPush({ who, entry, stateLabel }) {
  const acts = Boolean(entry && (entry.set_state || entry.action)) || Boolean(stateLabel);
  if (!who.everyone && !who.team && !acts) return Promise.resolve(true);
  const target = who.everyone ? t("everyone (%(count)s characters)", { count: who.everyone })
    : who.team ? t("team %(team)s (%(count)s characters)", { team: who.team, count: who.count })
      : who.names.join(", ");
  const what = entry ? entry.label : t("this effect");
  const consequence = [
    entry && entry.explains ? `${entry.label}${colon()}${entry.explains}` : null,
    stateLabel ? t("Their state becomes %(state)s.", { state: stateLabel }) : null,
  ].filter(Boolean).join(" ");
  return askConfirmation({
    question: t("Push %(what)s to %(target)s?", { what, target }),
    consequence,
    confirm: who.everyone ? t("Push to %(count)s characters", { count: who.everyone }) : t("Push"),
  });
}

// After a state change: a toast with "Undo" for the 10 s the server allows. The journal
// line to undo is the character's newest action (the change just made).
export async function offerUndo({ eventId, characterId, said: what }) {
  const { get, send } = await import("./api.js");
  const journal = await get(`/api/events/${eventId}/journal/?character=${characterId}&last=5`).catch(() => null);
  const line = journal && journal.ok ? journal.data.entries.filter((e) => e.kind === "action").pop() : null;
  if (!line) return;
  document.querySelectorAll(".undo-toast").forEach((old) => old.remove());
  const message = h("span", { role: "status" }, what);
  const undo = h("button", { type: "button", class: "primary", onclick: async () => {
    undo.disabled = true;
    const answer = await send(t("Undo"), "POST", `/api/journal/${line.id}/undo/`, {});
    message.textContent = answer.ok ? t("Undone.") : ((answer.data && answer.data.detail) || t("Refused."));
    setTimeout(() => toast.remove(), 4000);
  } }, t("Undo (10 s)"));
  const toast = h("div", { class: "undo-toast" }, message, undo);
  document.body.append(toast);
  setTimeout(() => { if (!undo.disabled) toast.remove(); }, 10000);
}
