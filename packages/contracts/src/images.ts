/** Accepted image types; the server checks the content, not the name. */
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png'] as const;

/** Detects JPG or PNG from the first bytes of a file. */
export function sniffImageType(head: Uint8Array): 'image/jpeg' | 'image/png' | undefined {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length >= png.length && png.every((b, i) => head[i] === b)) return 'image/png';
  return undefined;
}
