// What came of a write sent through the outbox (api.js `send`), in the words every screen
// shows next to the control: saved for later when the phone is offline, the server's
// refusal, or done.
import { t } from "./i18n.js";

// `done`: the words of a success (a function of the answer's data, or null: nothing to
// say); `refused`: the words of a refusal the server gave no detail for; `queued`: other
// words for a write that waits for the network.
export function said(answer, { done = null, refused = t("Refused."), queued = null } = {}) {
  if (answer.queued) return queued || t("No network: saved, it will be sent when the network is back.");
  if (!answer.ok) return (answer.data && answer.data.detail) || refused;
  return typeof done === "function" ? done(answer.data) : done;
}
