// The airsoft player's screen (js/airsoft.js, airsoft_heal.js), registered for the ruleset
// in js/panels.js: the player's screen (js/player.js) draws it in place of its own layout.
// From the top: the game being played, the state with the large count, the heal the
// player gives, the declarations, the heal form; then what the player can and cannot do
// (less what a heal they give forbids), the requests to the organisers, the tools, the
// history and the emergency.
import { AIRSOFT, actionsCard, gameBanner, refreshCounts, stateCard } from "./airsoft.js";
import { healPanel, withHealLimits } from "./airsoft_heal.js";
import { stamped } from "./live.js";
import { registerPanel } from "./panels.js";
import { abilities } from "./player_cards.js";

// `parts`: what the player's screen draws with (js/player.js `render`). The declarations'
// buttons and forms are the player screen's own, so a declaration behaves the same in
// every game.
function render(snap, parts) {
  const heals = parts.keep("heals", () => healPanel(parts.id, {
    patient: parts.params ? parts.params.get("patient") : null,
    onAnswer: (answer) => parts.apply(stamped(answer.data.snapshot, answer.data.server_time)) }));
  heals.update(snap);
  const { button, withParams } = parts.declarations;
  return {
    children: [gameBanner(snap), stateCard(snap), heals.runningCard(snap),
      actionsCard(snap, { button, withParams, message: parts.message }), heals.element,
      abilities(withHealLimits(snap)), parts.asks, parts.toolsCard, parts.history, parts.emergency],
    awake: Boolean(snap.next) || heals.busy(snap),
  };
}

// `tick(root)`: at every tick of the screen; true when a count just ended (js/airsoft.js).
registerPanel({ screen: "player", ruleset: AIRSOFT, render, tick: refreshCounts });
