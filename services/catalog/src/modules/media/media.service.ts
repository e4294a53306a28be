import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { MESSAGES, sniffImageType, type UploadResponse } from '@dme/contracts';
import { badRequest, HttpProblem, notFound, tooLarge, unsupportedMedia } from '@dme/platform';

const EXT = { 'image/jpeg': 'jpg', 'image/png': 'png' } as const;

/** Reads exactly one file from the multipart field "image", refusing anything bigger than maxBytes. */
export function readOneImage(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxBytes, fields: 10, parts: 12 } });
    } catch {
      reject(badRequest(MESSAGES.common.imageInvalid));
      return;
    }
    let file: Buffer | undefined;
    let failure: HttpProblem | undefined;
    let files = 0;
    bb.on('file', (field, stream) => {
      files += 1;
      if (field !== 'image' || files > 1) {
        failure ??= badRequest(files > 1 ? MESSAGES.upload.oneImage : MESSAGES.common.imageInvalid);
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => {
        failure ??= tooLarge(MESSAGES.upload.tooLarge);
      });
      stream.on('end', () => {
        if (!failure) file = Buffer.concat(chunks);
      });
    });
    bb.on('filesLimit', () => {
      failure ??= badRequest(MESSAGES.upload.oneImage);
    });
    bb.on('error', () => reject(badRequest(MESSAGES.common.imageInvalid)));
    bb.on('close', () => {
      if (failure) reject(failure);
      else if (!file || file.length === 0) reject(badRequest(MESSAGES.common.imageInvalid));
      else resolve(file);
    });
    req.pipe(bb);
  });
}

/** Stores an image under a server-generated name, after checking its content is JPG or PNG. */
export async function storeImage(dir: string, data: Buffer): Promise<UploadResponse> {
  const type = sniffImageType(data.subarray(0, 16));
  if (!type) throw unsupportedMedia(MESSAGES.upload.onlyJpgPng);
  await mkdir(dir, { recursive: true });
  const name = `${randomBytes(16).toString('hex')}.${EXT[type]}`;
  const tmp = join(dir, `.${name}.tmp`);
  await writeFile(tmp, data, { mode: 0o644 });
  await rename(tmp, join(dir, name));
  return { imagePath: `/api/uploads/${name}`, contentType: type, size: data.length };
}

export async function openImage(dir: string, name: string) {
  const m = /^[0-9a-f]{32}\.(jpg|png)$/.exec(name);
  if (!m) throw notFound('Image not found.');
  const path = join(dir, name);
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) throw notFound('Image not found.');
  return { stream: createReadStream(path), size: info.size, type: m[1] === 'png' ? 'image/png' : 'image/jpeg', mtime: info.mtime };
}
