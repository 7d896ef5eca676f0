// One vibration per meaning, learnable in a pocket: the same table for the open app
// (js/alerts.js) and for Web Push on a locked screen (sw-push.js, by the payload's
// `kind`). A classic script, so that the service worker can importScripts it.
// Each pattern is vibrate/pause/vibrate... in milliseconds; no two kinds share one.
self.HAPTICS = Object.freeze({
  state: [250, 120, 250],                         // your state changed: two medium
  effect: [120, 80, 120, 80, 120],                // an effect reached you: three short
  game: [600],                                    // game news (announced, started): one long
  minute: [100, 100, 100, 100, 700],              // a minute before a deadline: two short, one long
  grave: [900, 250, 900, 250, 900],               // coma, death, a life lost: three long
  medic_done: [150, 100, 500],                    // a treatment's time is done: short, long
  game_stop: [1200, 300, 1200],                   // the game stops (Urgence / Emergencia): two very long
  help_call: [400, 150, 400, 150, 400, 150, 800], // a call for help reaches an organiser
  help_coming: [200, 100, 200, 100, 200, 100, 200], // your call was taken: four short
  overdue: [700, 200, 150, 200, 700],             // a runner overdue (race organisers): long, short, long
});
// How many beeps go with each (the sound for a phone with no vibration, or out of the pocket).
self.HAPTIC_BEEPS = Object.freeze({
  state: 2, effect: 3, game: 1, minute: 2, grave: 4, medic_done: 2, game_stop: 4,
  help_call: 4, help_coming: 3, overdue: 3,
});
