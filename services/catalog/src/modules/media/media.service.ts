import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { MESSAGES, sniffImageType, UPLOAD_PATH_PATTERN, type UploadResponse } from '@dme/contracts';
import { badRequest, HttpProblem, notFound, tooLarge, unsupportedMedia, type BlobStore } from '@dme/platform';

const EXT = { 'image/jpeg': 'jpg', 'image/png': 'png' } as const;

/**
 * Reads exactly one file from the multipart field "image", refusing anything bigger than maxBytes.
 * Every way a body can go wrong (cut off, aborted, malformed, oversize, extra files) ends in a 4xx:
 * each stream involved has an error listener, so nothing a client sends can stop the process.
 */
export function readOneImage(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (err: HttpProblem | undefined, data?: Buffer) => {
      if (settled) return;
      settled = true;
      if (err) {
        req.unpipe();
        req.pause();
        reject(err);
      } else resolve(data!);
    };
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { files: 1, fileSize: maxBytes, fields: 10, parts: 12, fieldSize: 1024 } });
    } catch {
      settle(badRequest(MESSAGES.common.imageInvalid));
      return;
    }
    let file: Buffer | undefined;
    let failure: HttpProblem | undefined;
    let files = 0;
    bb.on('file', (field, stream) => {
      files += 1;
      stream.on('error', () => {
        failure ??= badRequest(MESSAGES.upload.truncated);
      });
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
    bb.on('partsLimit', () => {
      failure ??= badRequest(MESSAGES.upload.oneImage);
    });
    bb.on('error', (err: Error) => {
      settle(failure ?? badRequest(/unexpected end/i.test(err.message) ? MESSAGES.upload.truncated : MESSAGES.common.imageInvalid));
    });
    bb.on('close', () => {
      if (failure) settle(failure);
      else if (!file || file.length === 0) settle(badRequest(MESSAGES.common.imageInvalid));
      else settle(undefined, file);
    });
    req.on('aborted', () => settle(badRequest(MESSAGES.upload.truncated)));
    req.on('error', () => settle(badRequest(MESSAGES.upload.truncated)));
    req.pipe(bb);
  });
}

/** Stores an image under a server-generated name, after checking its content is JPG or PNG. */
export async function storeImage(blobs: BlobStore, data: Buffer): Promise<UploadResponse> {
  const type = sniffImageType(data.subarray(0, 16));
  if (!type) throw unsupportedMedia(MESSAGES.upload.onlyJpgPng);
  const name = `${randomBytes(16).toString('hex')}.${EXT[type]}`;
  await blobs.put(name, type, data);
  return { imagePath: `/api/uploads/${name}`, contentType: type, size: data.length };
}

const NAME = /^[0-9a-f]{32}\.(jpg|png)$/;

export async function openImage(blobs: BlobStore, name: string) {
  if (!NAME.test(name)) throw notFound('Image not found.');
  const blob = await blobs.get(name);
  if (!blob) throw notFound('Image not found.');
  return { data: blob.data, size: blob.data.length, type: blob.contentType, mtime: blob.createdAt };
}

/** The image paths that do not name an upload stored here (a path of the wrong shape is missing too). */
export async function missingUploads(blobs: BlobStore, paths: string[]): Promise<string[]> {
  const wellFormed = paths.filter((p) => UPLOAD_PATH_PATTERN.test(p));
  const absent = new Set((await blobs.missing(wellFormed.map((p) => p.slice('/api/uploads/'.length)))).map((n) => `/api/uploads/${n}`));
  return paths.filter((p) => !UPLOAD_PATH_PATTERN.test(p) || absent.has(p));
}

/**
 * Copies the files of an upload folder (an installation from before uploads moved into the
 * database) into the store; a file already there is left alone, so this can run at every start.
 */
export async function importUploadDir(blobs: BlobStore, dir: string): Promise<number> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => NAME.test(n));
  const absent = new Set(names.length ? await blobs.missing(names) : []);
  let copied = 0;
  for (const name of names) {
    if (!absent.has(name)) continue;
    const data = await readFile(join(dir, name));
    const type = sniffImageType(data.subarray(0, 16));
    if (!type) continue;
    await blobs.put(name, type, data);
    copied += 1;
  }
  return copied;
}
