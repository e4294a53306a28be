import { writeFile } from 'node:fs/promises';
import { PNG } from 'pngjs';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './chromium';

/**
 * A camera for Chromium: a Y4M video (YUV 4:2:0) that shows one picture, e.g. a QR code. The frame
 * is twice the scanner's 360 px viewfinder: html5-qrcode decodes the scan box at the size it is
 * shown, so each video pixel pair becomes one decoded pixel and a QR's whole-pixel modules stay
 * even (at 640 px wide the 1.78:1 reduction made modules of 4 and 5 px, and some codes were not
 * read in time on a busy machine).
 */

const WIDTH = 720;
const HEIGHT = 540;
const FRAMES = 4;

/**
 * Writes `path` as a Y4M video of a PNG centred on white, scaled up by whole pixels to about 60%
 * of the frame height (a QR code read by html5-qrcode needs clean module edges): what
 * `--use-file-for-fake-video-capture` plays, looped, as the device's camera.
 */
export async function pictureVideo(png: Buffer, path: string): Promise<void> {
  const img = PNG.sync.read(png);
  const scale = Math.max(1, Math.floor((HEIGHT * 0.6) / Math.max(img.width, img.height)));
  const w = img.width * scale;
  const h = img.height * scale;
  const left = Math.floor((WIDTH - w) / 2);
  const top = Math.floor((HEIGHT - h) / 2);
  const y = Buffer.alloc(WIDTH * HEIGHT, 235);
  for (let row = 0; row < h; row++) {
    for (let col = 0; col < w; col++) {
      const i = (Math.floor(row / scale) * img.width + Math.floor(col / scale)) * 4;
      const a = img.data[i + 3]! / 255;
      // Luma (BT.601, studio range) of the pixel over white.
      const r = img.data[i]! * a + 255 * (1 - a);
      const g = img.data[i + 1]! * a + 255 * (1 - a);
      const b = img.data[i + 2]! * a + 255 * (1 - a);
      y[(top + row) * WIDTH + left + col] = Math.round(16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255);
    }
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F5:1 Ip A1:1 C420jpeg\n`);
  await writeFile(path, Buffer.concat([header, ...Array.from({ length: FRAMES }, () => frame)]));
}

/** The Chromium arguments of playwright.config.ts, plus a fake camera playing `video` (permission granted). */
export function cameraLaunchOptions(video: string) {
  return {
    executablePath: CHROMIUM_EXECUTABLE,
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  };
}

