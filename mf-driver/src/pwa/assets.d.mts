// Types of the build-time module assets.mjs (for its tests).
export const BASE: string;
export const ICONS: ReadonlyArray<{ name: string; size: number; purpose: 'any' | 'maskable' }>;
export function brandColor(themeConfigFile: string): string;
export function driverManifest(themeColor: string): {
  id: string;
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: Array<{ src: string; sizes: string; type: string; purpose: string }>;
};
export function encodePng(width: number, height: number, rgba: Buffer): Buffer;
export function iconPng(size: number, purpose: 'any' | 'maskable', color: string): Buffer;
export function pwaAssets(themeColor: string): Map<string, Buffer>;
