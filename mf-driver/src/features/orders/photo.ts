import { HANDOVER_LIMITS, HANDOVER_MESSAGES } from '@dme/contracts/browser';

/** A hand-over photo is sent at most this many pixels on its long side, as a JPEG of this quality. */
export const PHOTO_MAX_SIDE = 1600;
export const PHOTO_QUALITY = 0.8;

/** Texts of the photo (ours: the spec is silent). */
export const PHOTO_MESSAGES = {
  unreadable: 'This photo could not be read on this phone. Take it again, or record the hand-over without a photo.',
} as const;

/** A photo that cannot be sent; `message` says why, for the driver. */
export class PhotoError extends Error {}

/** The decoded bytes of a base64 data URL (what the server's limits count). */
export function dataUrlBytes(url: string): number {
  const base64 = url.slice(url.indexOf(',') + 1);
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

interface Decoded {
  source: CanvasImageSource;
  width: number;
  height: number;
  close: () => void;
}

/** createImageBitmap where there is one (it honours the camera's orientation); an <img> elsewhere. */
async function decode(file: Blob): Promise<Decoded> {
  if (typeof createImageBitmap === 'function') {
    const bitmap = await createImageBitmap(file);
    return { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close() };
  }
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    return { source: img, width: img.naturalWidth, height: img.naturalHeight, close: () => URL.revokeObjectURL(url) };
  } catch (err) {
    URL.revokeObjectURL(url);
    throw err;
  }
}

/**
 * A camera photo shrunk in the browser before it is sent: at most PHOTO_MAX_SIDE px on the long
 * side, as a JPEG data URL of PHOTO_QUALITY (a phone's 12 MP photo is ~4 MB; this is ~300 KB).
 * Throws PhotoError when the browser cannot decode or re-encode it (e.g. HEIC on Chrome), or when
 * it is still over HANDOVER_LIMITS.photoBytes at a lower quality.
 */
export async function downscalePhoto(file: Blob): Promise<string> {
  let image: Decoded;
  try {
    image = await decode(file);
  } catch {
    throw new PhotoError(PHOTO_MESSAGES.unreadable);
  }
  try {
    if (!image.width || !image.height) throw new PhotoError(PHOTO_MESSAGES.unreadable);
    const scale = Math.min(1, PHOTO_MAX_SIDE / Math.max(image.width, image.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(image.width * scale));
    canvas.height = Math.max(1, Math.round(image.height * scale));
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new PhotoError(PHOTO_MESSAGES.unreadable);
    // A transparent PNG would turn black in a JPEG.
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(image.source, 0, 0, canvas.width, canvas.height);
    let url = canvas.toDataURL('image/jpeg', PHOTO_QUALITY);
    // A browser that cannot encode JPEG answers PNG (or "data:,").
    if (!url.startsWith('data:image/jpeg;base64,')) throw new PhotoError(PHOTO_MESSAGES.unreadable);
    if (dataUrlBytes(url) > HANDOVER_LIMITS.photoBytes) url = canvas.toDataURL('image/jpeg', 0.6);
    if (dataUrlBytes(url) > HANDOVER_LIMITS.photoBytes) throw new PhotoError(HANDOVER_MESSAGES.photoTooLarge);
    return url;
  } finally {
    image.close();
  }
}
