// Panels that belong to one ruleset or to a feature of the data, registered by the module
// that draws them, so that a screen never asks which game it shows. A screen asks for its
// panel (`panelFor("player", snap.character.ruleset, snap)`) and draws its own when there
// is none. A panel's module registers it when loaded: app.js loads them all.
//
// registerPanel({ screen, ruleset, feature, render, ...extra }):
// - `screen`: the screen and the place in it ("player", "player-top", "narrator");
// - `ruleset`: the key of the ruleset it is for, or `feature(data)`: true when the data
//   (a snapshot) has what the panel shows (a body map, a load) — preferred when it can;
// - `render(...)`: what the screen calls to draw it (each place says with what).
const registered = [];

export function registerPanel(panel) {
  if (!panel.screen || typeof panel.render !== "function" || (!panel.ruleset && !panel.feature)) {
    throw new Error("registerPanel needs a screen, a render, and a ruleset or a feature");
  }
  registered.push(panel);
}

// The first panel registered for this place that fits the ruleset or the data; null if none.
export function panelFor(screen, ruleset, data = null) {
  return registered.find((panel) => panel.screen === screen
    && ((panel.ruleset && panel.ruleset === ruleset) || (panel.feature && data && panel.feature(data)))) || null;
}
