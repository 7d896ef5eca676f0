// The safety board's site plan (js/safety.js): the event's map image, placed by two or
// three reference points, with every call for help not closed that gave a position (its
// marker and accuracy circle), and, when the event tracks its races, each runner's last
// position (a small square, apart from the calls' dots). Leaflet ships with the app (vendor/leaflet-1.9.4, loaded
// only here) and draws the image in its own pixels (L.CRS.Simple): no internet tiles, and
// the image, once seen, opens offline from the service worker's cache. The narrators
// upload the image and place the points here: tap a spot of the plan, then type its
// latitude and longitude or stand there and use the phone's position. The safety team sees
// the plan and the calls on it, without those controls.
import { send } from "./api.js";
import { kindLabel } from "./help.js";
import { lang, t } from "./i18n.js";
import { said } from "./outcome.js";
import { cookie, h, mount, newKey } from "./util.js";

const LEAFLET = new URL("../vendor/leaflet-1.9.4/", import.meta.url);
const TYPES = "image/png,image/jpeg,image/webp";
const MAX_POINTS = 3;
let leaflet = null;

// Leaflet is a classic script (it sets window.L); its stylesheet is the app's own file.
function loadLeaflet() {
  leaflet ||= (async () => {
    document.head.append(h("link", { rel: "stylesheet", href: new URL("leaflet.css", LEAFLET).href }));
    await import(new URL("leaflet.js", LEAFLET).href);
    return window.L;
  })();
  return leaflet;
}

const degrees = (value) => Number(value).toFixed(5);
// A route's answer is the board's `plan` with the server's time, which is no change of it.
const withoutTime = ({ server_time: _, ...plan }) => plan;

export function planPanel(eventId, { reload }) {
  let plan = null;          // the board's `plan` (null: none uploaded)
  let shown = "";           // the plan drawn (its JSON): redrawn only when it changes
  let draft = [];           // the reference points being placed: {x, y, latitude, longitude}
  let calls = [];
  let runners = [];         // the runners' last positions (race tracking), board `positions`
  let map = null;
  let callsLayer = null;
  let draftLayer = null;
  let message = "";
  let editable = false;     // a narrator's board: upload and placing shown
  const box = h("section", { class: "card safety-plan", "aria-label": t("Site plan") });
  const mapBox = h("div", { class: "plan-map" });
  const outside = h("div", { class: "plan-outside" });
  const placing = h("div", { class: "plan-place" });
  const status = h("p", { class: "plan-message", role: "status" });

  const pixelAt = (y, x) => [plan.height - y, x];           // image pixel -> L.CRS.Simple

  async function upload(input) {
    const file = input.files && input.files[0];
    if (!file) return;
    let answer;
    try {
      const response = await fetch(`/api/events/${eventId}/safety/plan/`, {
        method: "POST", credentials: "same-origin", body: file,
        headers: { "Content-Type": file.type || "application/octet-stream", Accept: "application/json",
                   "Accept-Language": lang, "X-CSRFToken": cookie("csrftoken"), "Idempotency-Key": newKey() } });
      answer = { ok: response.ok, data: await response.json().catch(() => ({})) };
    } catch {
      answer = { ok: false, data: { detail: t("No network: the plan was not sent.") } };
    }
    message = answer.ok ? t("Plan uploaded: now place it with 2 or 3 reference points.") : said(answer);
    input.value = "";
    if (answer.ok) plan = withoutTime(answer.data);
    draw();
    if (answer.ok) reload();
  }

  async function savePoints() {
    const points = draft.map((p) => ({ x: p.x, y: p.y, latitude: Number(p.latitude), longitude: Number(p.longitude) }));
    if (draft.some((p) => String(p.latitude) === "" || String(p.longitude) === "")
        || points.some((p) => !Number.isFinite(p.latitude) || !Number.isFinite(p.longitude))) {
      message = t("Give each point its latitude and longitude.");
      drawPlacing();
      return;
    }
    const answer = await send(t("Save the points"), "POST", `/api/events/${eventId}/safety/plan/points/`, { points });
    message = said(answer, { done: () => t("Plan placed.") });
    if (answer.ok) { plan = withoutTime(answer.data); draw(); reload(); } else drawPlacing();
  }

  function here(point) {
    if (!("geolocation" in navigator)) { message = t("This phone gives no position."); drawPlacing(); return; }
    navigator.geolocation.getCurrentPosition((found) => {
      point.latitude = found.coords.latitude.toFixed(6);
      point.longitude = found.coords.longitude.toFixed(6);
      message = t("Position found, ± %(m)s m.", { m: Math.round(found.coords.accuracy) });
      drawPlacing();
    }, () => { message = t("No position: allow it for this site, or type it."); drawPlacing(); },
    { enableHighAccuracy: true, timeout: 15000, maximumAge: 0 });
  }

  function pointRow(point, n) {
    const field = (name, label) => h("input", { type: "text", inputmode: "decimal", name, value: point[name], "aria-label": `${label} ${n}`,
      placeholder: label, oninput: (e) => { point[name] = e.target.value.trim().replace(",", "."); } });
    return h("li", { class: "plan-point", dataset: { x: point.x, y: point.y } },
      h("strong", {}, t("Point %(n)s", { n })), ` (${Math.round(point.x)}, ${Math.round(point.y)} px)`,
      h("div", { class: "row" }, field("latitude", t("Latitude")), field("longitude", t("Longitude"))),
      h("div", { class: "row" },
        h("button", { type: "button", class: "small", onclick: () => here(point) }, t("My position here")),
        h("button", { type: "button", class: "small", onclick: () => { draft.splice(n - 1, 1); drawPlacing(); } }, t("Remove"))));
  }

  function drawPlacing() {
    status.textContent = message;
    status.hidden = !message;
    if (!editable) { mount(placing); return; }
    if (draftLayer) {
      draftLayer.clearLayers();
      draft.forEach((p, i) => window.L.circleMarker(pixelAt(p.y, p.x), { radius: 7, className: "plan-ref", weight: 2 })
        .bindTooltip(String(i + 1), { permanent: true, direction: "right", className: "plan-ref-label" }).addTo(draftLayer));
    }
    const file = h("input", { type: "file", accept: TYPES, name: "plan-image", onchange: (e) => upload(e.target) });
    mount(placing,
      plan ? h("details", { class: "plan-placing", open: !plan.placed || draft.length !== plan.points.length },
        h("summary", {}, t("Place the plan")),
        h("p", { class: "muted" }, t("Tap a spot of the plan that you can find on the ground, then type its latitude and longitude, or stand there and tap “My position here”. Two points for a plan drawn to scale, three for a photo of a paper map.")),
        h("ol", { class: "plan-points" }, draft.map((p, i) => pointRow(p, i + 1))),
        h("button", { type: "button", class: "primary plan-save", disabled: draft.length < 2, onclick: savePoints }, t("Save the points"))) : null,
      h("label", { class: "plan-upload" }, plan ? t("Upload a new plan image (PNG, JPEG or WebP)") : t("Upload the event's plan (PNG, JPEG or WebP)"), file));
  }

  function tapped(event) {
    if (!editable) return;
    const x = Math.round(event.latlng.lng);
    const y = Math.round(plan.height - event.latlng.lat);
    if (x < 0 || y < 0 || x > plan.width || y > plan.height) return;
    if (draft.length >= MAX_POINTS) { message = t("Three points at most: remove one first."); drawPlacing(); return; }
    draft.push({ x, y, latitude: "", longitude: "" });
    message = "";
    drawPlacing();
  }

  async function drawMap() {
    const L = await loadLeaflet();
    if (map) { map.remove(); map = null; }
    if (!plan) { mapBox.hidden = true; return; }
    mapBox.hidden = false;
    const bounds = [[0, 0], [plan.height, plan.width]];
    map = L.map(mapBox, { crs: L.CRS.Simple, minZoom: -6, maxZoom: 3, zoomSnap: 0.25, attributionControl: false });
    L.imageOverlay(plan.image_url, bounds, { alt: t("Site plan") }).addTo(map);
    map.fitBounds(bounds);
    callsLayer = L.layerGroup().addTo(map);
    draftLayer = L.layerGroup().addTo(map);
    map.on("click", tapped);
    drawCalls();
    drawPlacing();
  }

  function drawCalls() {
    const open = calls.filter((c) => c.status !== "closed" && c.position);
    const who = (c) => `${c.character ? c.character.name : c.caller} — ${kindLabel(c.kind)}`;
    if (callsLayer) {
      callsLayer.clearLayers();
      // Runners first, so that a call's marker stays on top of theirs: a small green
      // square, not the round dot of a call.
      for (const runner of runners.filter((r) => r.plan_position && r.plan_position.inside)) {
        const at = pixelAt(runner.plan_position.y, runner.plan_position.x);
        const square = window.L.divIcon({ className: "plan-runner", iconSize: [12, 12] });
        window.L.marker(at, { icon: square, keyboard: false, title: runner.character.name })
          .bindTooltip(runner.character.name, { direction: "top", className: "plan-runner-label" }).addTo(callsLayer);
      }
      for (const call of open.filter((c) => c.plan_position && c.plan_position.inside)) {
        const at = pixelAt(call.plan_position.y, call.plan_position.x);
        if (call.plan_position.radius_px) {
          window.L.circle(at, { radius: call.plan_position.radius_px, className: "plan-accuracy", weight: 1 }).addTo(callsLayer);
        }
        window.L.circleMarker(at, { radius: 9, className: `plan-call plan-call-${call.status}`, weight: 3 })
          .bindTooltip(who(call), { permanent: true, direction: "top", className: "plan-call-label" }).addTo(callsLayer);
      }
    }
    // Without a plan, the calls' cards alone give the coordinates.
    const off = plan ? open.filter((c) => !c.plan_position || !c.plan_position.inside) : [];
    const lines = off.map((c) => h("p", { class: "plan-off", dataset: { call: c.id } },
      h("strong", {}, who(c)), " — ",
      plan.placed ? t("outside the plan") : t("the plan is not placed yet"), ": ",
      `${degrees(c.position.latitude)}, ${degrees(c.position.longitude)}`));
    mount(outside, lines);
  }

  function draw() {
    const now = JSON.stringify(plan);
    if (now !== shown) {
      shown = now;
      draft = plan ? plan.points.map((p) => ({ ...p })) : [];
      mount(box, h("h2", {}, t("Site plan")),
        plan ? null : h("p", { class: "muted" }, editable ? t("No site plan yet: upload the event's map to see the calls for help on it.")
          : t("No site plan yet: the organisers can upload the event's map.")),
        mapBox, outside, status, placing);
      drawMap();
      drawPlacing();
    }
    drawCalls();
  }

  return {
    element: box,
    // The board's plan and the calls it knows (called on every redraw of the board).
    update(found, known, { editable: canEdit = false, runners: tracked = [] } = {}) {
      plan = found || null;
      calls = known;
      runners = tracked;
      if (canEdit !== editable) { editable = canEdit; shown = ""; }
      draw();
    },
    close() { if (map) map.remove(); },
  };
}
