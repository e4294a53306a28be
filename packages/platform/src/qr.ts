import QRCode from 'qrcode';

/** Quiet zone around a QR code, in modules. */
const QR_MARGIN = 2;
/** A QR picture is at least this wide (a label, a download, a camera at arm's length). */
export const QR_MIN_PX = 320;

/**
 * A QR code as a PNG (error correction M) with whole pixels per module: every module is the same
 * size, so a camera that scales the picture down (a phone's viewfinder) still sees clean edges.
 * A fixed width (320 px for 41 modules is 7.8 px each) makes modules of 7 and 8 px, which the
 * scanner's decoder misreads for some codes. The picture is the smallest such size of at least
 * QR_MIN_PX.
 */
export function qrCodePng(text: string): Promise<Buffer> {
  const modules = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules.size;
  const scale = Math.ceil(QR_MIN_PX / (modules + 2 * QR_MARGIN));
  return QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: QR_MARGIN, scale });
}
