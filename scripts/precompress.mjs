// Build-time compression of static files: `<file>.br` (brotli 11) and `<file>.gz` (gzip 9) beside
// each compressible file, which the gateway serves as they are (gateway/src/static.ts): nothing is
// compressed on a request (issue 30, item 6: on a busy machine the first visitor of a screen waited
// seconds while the gateway compressed its chunks at quality 11 on that request). Used by the web
// apps' builds (rspack.base.mjs, PrecompressPlugin) and the gateway's (swagger-ui's files).
//
//   node scripts/precompress.mjs <from folder> <to folder> <file> [<file> ...]
//     copies each file and writes its compressed copies beside it
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

/** Files the gateway serves compressed. */
export const COMPRESSIBLE_ASSET = /\.(html|js|mjs|css|json|map|svg|txt)$/;
/** Smaller files go as they are: compression would save nothing worth a header. */
export const COMPRESS_MIN_BYTES = 512;
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Writes `file.br` and `file.gz` beside a compressible file over the minimum size (on libuv's thread pool). */
export async function precompress(file) {
  if (!COMPRESSIBLE_ASSET.test(file)) return;
  const raw = await readFile(file);
  if (raw.length <= COMPRESS_MIN_BYTES) return;
  const [br, gz] = await Promise.all([
    brotliAsync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
    gzipAsync(raw, { level: 9 }),
  ]);
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [from, to, ...files] = process.argv.slice(2);
  if (!from || !to || files.length === 0) {
    console.error('usage: node scripts/precompress.mjs <from folder> <to folder> <file> [<file> ...]');
    process.exit(2);
  }
  await mkdir(to, { recursive: true });
  await Promise.all(files.map(async (name) => {
    await copyFile(join(from, name), join(to, name));
    await precompress(join(to, name));
  }));
  console.log(`copied and compressed ${files.length} files into ${to}`);
}
