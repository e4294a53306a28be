import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBootConfig, createConfig, createSsrConfig } from '../rspack.base.mjs';

const dir = dirname(fileURLToPath(import.meta.url));

// The browser app; its start-up script for server-rendered first screens; and the signed-in
// frame the gateway renders those screens in.
export default [createConfig({ dir, kind: 'host', name: 'shell', publicPath: '/' }), createBootConfig({ dir }), createSsrConfig({ dir })];
