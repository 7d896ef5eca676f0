// How the screen looks, chosen on each phone (docs/accessibility.md, "Sun and night"):
// - dark: the app's own, dim for the night (the default);
// - night: red on black, every colour turned into red light (an SVG colour matrix in
//   app.html), so that a runner or a player in the woods keeps their night vision;
// - day: black on white with strong edges, for sunlight.
// "auto" follows the phone's high-contrast setting (prefers-contrast: more gives day), else
// the event's own choice (its organisers set it: a night race may start in night mode).
// Forced colours (Windows high contrast) override every mode (app.css). Also the app's own
// text size. Both are chosen on the phone's check screen (js/phone_check_screen.js).
import { h } from "./util.js";
import { lang, t } from "./i18n.js";

const KEY = "display";
const CHOICES = ["auto", "dark", "night", "day"];
const THEME_COLOUR = { dark: "#0b0d10", night: "#000000", day: "#ffffff" };
const contrastMore = window.matchMedia ? window.matchMedia("(prefers-contrast: more)") : null;
const EVENT_KEY = "display_event";
// The event's choice, kept from the last screen of a game so that a reload starts in it.
let eventDisplay = (() => {
  try { return THEME_COLOUR[localStorage.getItem(EVENT_KEY)] ? localStorage.getItem(EVENT_KEY) : "dark"; }
  catch { return "dark"; }
})();

export function displayChosen() {
  try {
    const kept = localStorage.getItem(KEY);
    return CHOICES.includes(kept) ? kept : "auto";
  } catch { return "auto"; }
}

export function displayApply(choice = displayChosen()) {
  const mode = choice === "auto" ? (contrastMore && contrastMore.matches ? "day" : eventDisplay) : choice;
  document.documentElement.dataset.display = mode;
  const meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.content = THEME_COLOUR[mode];
  return mode;
}

// The event of the screen shown: its organisers' choice is the phone's "automatic". A
// screen of no event (the phone's check) keeps the last one's.
export function displayFollowEvent(event) {
  if (!event || !THEME_COLOUR[event.display] || event.display === eventDisplay) return;
  eventDisplay = event.display;
  try { localStorage.setItem(EVENT_KEY, eventDisplay); } catch { /* private mode */ }
  displayApply();
}

function displayChoose(choice) {
  try { localStorage.setItem(KEY, choice); } catch { /* private mode: for this page only */ }
  displayApply(choice);
}

// The chooser: one radio per mode, each label the finger's target.
export function displayChooser() {
  const words = { auto: t("Automatic (the phone's or the game's)"), dark: t("Dark"),
                  night: t("Night: red on black"), day: t("Day: high contrast") };
  const chosen = displayChosen();
  return h("fieldset", { class: "display-chooser" },
    h("legend", {}, t("Display")),
    CHOICES.map((choice) => h("label", {},
      h("input", { type: "radio", name: "display", value: choice, checked: choice === chosen,
                   onchange: () => displayChoose(choice) }),
      " ", words[choice])));
}

// The text size, on top of the phone's own setting (the app's text is in rem): for a player
// who wants it larger in this app only.
const SIZE_KEY = "text_size";
const SIZES = [100, 125, 150, 200];

function textSizeChosen() {
  try {
    const kept = Number(localStorage.getItem(SIZE_KEY));
    return SIZES.includes(kept) ? kept : 100;
  } catch { return 100; }
}

function textSizeApply(size = textSizeChosen()) {
  // 112.5 % is the app's own root (app.css): 18 px at the phone's default.
  document.documentElement.style.fontSize = size === 100 ? "" : `${112.5 * size / 100}%`;
}

export function textSizeChooser() {
  const chosen = textSizeChosen();
  return h("fieldset", { class: "display-chooser" },
    h("legend", {}, t("Text size")),
    SIZES.map((size) => h("label", {},
      h("input", { type: "radio", name: "text-size", value: String(size), checked: size === chosen,
                   onchange: () => {
                     try { localStorage.setItem(SIZE_KEY, String(size)); } catch { /* private mode */ }
                     textSizeApply(size);
                   } }),
      " ", new Intl.NumberFormat(lang, { style: "percent" }).format(size / 100))));
}

if (contrastMore) contrastMore.addEventListener("change", () => displayApply());
displayApply();
textSizeApply();
