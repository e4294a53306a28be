import { describe, expect, it } from 'vitest';
import { sniffImageType } from './images';
import { imagePathField } from './identity';
import { MESSAGES } from './messages';
import { UPLOAD_PATH_PATTERN, UploadNameParams } from './uploads';

describe('image type by content', () => {
  it('recognises PNG and JPEG by their first bytes only', () => {
    expect(sniffImageType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(new TextEncoder().encode('GIF89a...'))).toBeUndefined();
    expect(sniffImageType(new TextEncoder().encode('%PDF-1.7'))).toBeUndefined();
    expect(sniffImageType(new Uint8Array([]))).toBeUndefined();
  });
});

describe('image references take only what the catalog hands out', () => {
  const field = imagePathField('Please upload image!');
  const hex = '0123456789abcdef0123456789abcdef';

  it('accepts /api/uploads/<32 hex>.png or .jpg (the shape of UPLOAD_PATH_PATTERN)', () => {
    for (const ok of [`/api/uploads/${hex}.png`, `/api/uploads/${hex}.jpg`, ` /api/uploads/${hex}.png `]) {
      expect(field.safeParse(ok).success, ok).toBe(true);
      expect(UPLOAD_PATH_PATTERN.test(ok.trim())).toBe(true);
    }
  });

  it.each([
    '/api/uploads/a1b2c3d4e5f6.png',
    `/api/uploads/${hex.toUpperCase()}.png`,
    `/api/uploads/${hex}a.png`,
    `/api/uploads/${hex}.gif`,
    `/api/uploads/${hex}.jpeg`,
    `/api/uploads/${hex}.png/`,
    `/api/uploads/../${hex}.png`,
    `/api/uploads/${hex}.png?x=1`,
    `https://evil.example/api/uploads/${hex}.png`,
    `/api/uploads/${hex}.png\u0000`,
    `/api/uploads/${'a'.repeat(300)}.png`,
  ])('refuses %j with the field message', (bad) => {
    const r = field.safeParse(bad);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toContain(MESSAGES.common.imageInvalid);
  });

  it('a missing or blank image gives the required message only', () => {
    expect(field.safeParse(undefined).error?.issues.map((i) => i.message)).toEqual(['Please upload image!']);
    expect(field.safeParse('  ').error?.issues.map((i) => i.message)).toEqual(['Please upload image!']);
  });

  it('upload names in GET /api/uploads/:name are just as strict', () => {
    expect(UploadNameParams.safeParse({ name: `${hex}.png` }).success).toBe(true);
    expect(UploadNameParams.safeParse({ name: `${hex}.jpg` }).success).toBe(true);
    for (const bad of ['a1b2c3.png', `${hex}.gif`, `${hex.toUpperCase()}.png`, `..${hex}.png`, `${hex}.png\u0000`]) {
      expect(UploadNameParams.safeParse({ name: bad }).success, bad).toBe(false);
    }
  });
});
