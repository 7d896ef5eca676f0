// The top of the player's screen for a snapshot with a body map or a load (Septenario),
// registered in js/panels.js on those features: the body figure (a limb tapped opens the
// hit's form), the points, the Carga, then the declarations and the effects.
import { bodyCard, loadCard } from "./body.js";
import { registerPanel } from "./panels.js";
import { effects, points } from "./player_cards.js";

// `parts`: what the player's screen draws with (js/player.js `render`).
function render(snap, parts) {
  const { figure } = parts;
  return [bodyCard(snap, figure.onTap, figure.chosen, figure.places), points(snap), loadCard(snap, parts.dropItem), parts.actions, effects(snap)];
}

registerPanel({ screen: "player-top", feature: (snap) => Boolean(snap.body || snap.load), render });
