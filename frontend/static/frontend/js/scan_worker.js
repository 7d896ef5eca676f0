// Decodes the camera's frames for js/scanner.js where the browser has no BarcodeDetector.
// ZXing ships as a classic script (vendor/zxing-library-0.23.0, with its licence), hence a
// classic worker. Each message is one RGBA frame; the answer is what its QR holds, or null.
/* global ZXing */
importScripts("../vendor/zxing-library-0.23.0/index.min.js");

const hints = new Map([[ZXing.DecodeHintType.TRY_HARDER, true]]);
const reader = new ZXing.QRCodeReader();

self.onmessage = ({ data }) => {
  const { width, height } = data;
  const rgba = new Uint8ClampedArray(data.pixels);
  const grey = new Uint8ClampedArray(width * height);
  for (let i = 0, j = 0; j < grey.length; i += 4, j += 1) {
    grey[j] = (rgba[i] * 77 + rgba[i + 1] * 150 + rgba[i + 2] * 29) >> 8;
  }
  let text = null;
  try {
    const bitmap = new ZXing.BinaryBitmap(new ZXing.HybridBinarizer(new ZXing.RGBLuminanceSource(grey, width, height)));
    text = reader.decode(bitmap, hints).getText();
  } catch {
    // No QR code in this frame (ZXing throws NotFoundException): the next one may have it.
  }
  self.postMessage({ text });
};
