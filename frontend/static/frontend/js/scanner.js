// Reading a QR code with the camera, on every phone. Where the browser has BarcodeDetector
// (Chrome on Android) it reads the frames; elsewhere (iPhones, Firefox) js/scan_worker.js
// decodes them with the ZXing library shipped in the app (vendor/zxing-library-0.23.0),
// off the main thread so that the screen stays fluid while it looks. Every screen keeps a
// text field beside its scan button: the code printed under a QR is accepted wherever the
// QR is (docs/phone-app.md, "Scanning").
import { t } from "./i18n.js";
import { h } from "./util.js";

const LOOK_EVERY_MS = 200;
// Frames are scaled down to this before decoding: enough for a QR filling a third of the
// picture, and a phone's worker decodes it in a few tens of milliseconds.
const LARGEST_SIDE_PX = 800;
// ZXing's finder sometimes takes a block of a QR's data for one of its corner squares and
// then misses that code in every frame drawn the same way (about 1 code in 90, held
// still, was never read at three sizes). Each look draws the frame the next of these ways;
// the last one turns it by 30 degrees, which changes the lines the finder scans across the
// code: none of 1,500 codes tried was missed by all four (docs/phone-app.md, "Scanning").
const LOOKS = [{ size: 1, turn: 0 }, { size: 0.5, turn: 0 }, { size: 0.75, turn: 0 },
               { size: 0.75, turn: 30 }];

async function nativeReader() {
  if (!("BarcodeDetector" in window)) return null;
  try {
    const formats = await window.BarcodeDetector.getSupportedFormats();
    if (!formats.includes("qr_code")) return null;
  } catch {
    return null;
  }
  const detector = new window.BarcodeDetector({ formats: ["qr_code"] });
  return {
    kind: "native",
    async read(video) {
      const found = await detector.detect(video);
      return found.length ? found[0].rawValue : null;
    },
    close() {},
  };
}

// Draws the video's frame on the context's canvas, scaled (at most LARGEST_SIDE_PX) and
// turned about its middle as `look` says (setting the canvas's size clears the last turn).
function drawFrame(context, video, look) {
  const { videoWidth: width, videoHeight: height } = video;
  const scale = Math.min(1, LARGEST_SIDE_PX / Math.max(width, height)) * look.size;
  const [drawnWidth, drawnHeight] = [Math.round(width * scale), Math.round(height * scale)];
  const { canvas } = context;
  canvas.width = drawnWidth;
  canvas.height = drawnHeight;
  if (look.turn) {
    // The corners a turn uncovers are mid grey, not black: no edge for the finder to take.
    context.fillStyle = "rgb(128, 128, 128)";
    context.fillRect(0, 0, drawnWidth, drawnHeight);
    context.translate(drawnWidth / 2, drawnHeight / 2);
    context.rotate((look.turn * Math.PI) / 180);
    context.translate(-drawnWidth / 2, -drawnHeight / 2);
  }
  context.drawImage(video, 0, 0, drawnWidth, drawnHeight);
}

function workerReader() {
  const worker = new Worker(new URL("./scan_worker.js", import.meta.url));
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true });
  let answer = null;        // the pending frame's resolve: one frame at a time
  const settle = (text) => { const resolve = answer; answer = null; if (resolve) resolve(text); };
  worker.onmessage = (event) => settle(event.data.text || null);
  worker.onerror = () => settle(null);
  let looks = 0;
  return {
    kind: "zxing",
    read(video) {
      if (!video.videoWidth || !video.videoHeight) return Promise.resolve(null);
      drawFrame(context, video, LOOKS[looks++ % LOOKS.length]);
      const frame = context.getImageData(0, 0, canvas.width, canvas.height);
      return new Promise((resolve) => {
        answer = resolve;
        worker.postMessage({ width: frame.width, height: frame.height, pixels: frame.data.buffer },
          [frame.data.buffer]);
      });
    },
    close() { settle(null); worker.terminate(); },
  };
}

// Starts the back camera and looks for a QR code until one is read: `onText(text)` gets
// what it holds, once, after the camera is released. Returns { video, stop() } (show the
// video; stop() when the screen changes), or null when this browser has no camera API.
// Throws when the camera cannot start (refused, none, in use): say "type the code".
export async function startScanner(onText) {
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return null;
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  const release = () => stream.getTracks().forEach((track) => track.stop());
  const video = document.createElement("video");
  video.setAttribute("playsinline", "");      // iOS: inline, not full screen
  video.muted = true;
  video.srcObject = stream;
  let reader;
  try {
    await video.play();
    reader = (await nativeReader()) || workerReader();
  } catch (error) {
    release();
    throw error;
  }
  video.dataset.reader = reader.kind;
  let stopped = false;
  let timer = null;
  const scanner = {
    video,
    stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      reader.close();
      release();
    },
  };
  async function look() {
    if (stopped) return;
    const text = await reader.read(video).catch(() => null);
    if (stopped) return;
    if (text) { scanner.stop(); onText(text); return; }
    timer = setTimeout(look, LOOK_EVERY_MS);
  }
  look();
  return scanner;
}

// A scan button and the box its camera shows in, for a screen's code field:
// `onText(text)` gets what the QR holds; `say(words)` tells why nothing can be scanned
// (the field beside it still takes the code typed).
export function scanControl({ label, onText, say }) {
  const box = h("div", { class: "scanner" });
  let scanner = null;
  const stop = () => { if (scanner) scanner.stop(); scanner = null; box.replaceChildren(); };
  const button = h("button", { type: "button", onclick: async () => {
    if (scanner) { stop(); return; }
    try {
      scanner = await startScanner((text) => { stop(); onText(text); });
    } catch {
      say(t("The camera could not start: type the code."));
      return;
    }
    if (!scanner) say(t("This phone cannot scan: type the code printed under the QR code."));
    else box.replaceChildren(scanner.video);
  } }, label);
  return { button, box, stop };
}
