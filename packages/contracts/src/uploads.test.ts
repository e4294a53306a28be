import { describe, expect, it } from 'vitest';
import { sniffImageType } from './images';

describe('image type by content', () => {
  it('recognises PNG and JPEG by their first bytes only', () => {
    expect(sniffImageType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(new TextEncoder().encode('GIF89a...'))).toBeUndefined();
    expect(sniffImageType(new TextEncoder().encode('%PDF-1.7'))).toBeUndefined();
    expect(sniffImageType(new Uint8Array([]))).toBeUndefined();
  });
});
