import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConfig, createSsrConfig } from '../rspack.base.mjs';

const dir = dirname(fileURLToPath(import.meta.url));

// The browser remote, and the dashboard for the gateway's server-rendered first screen.
export default [createConfig({ dir, kind: 'remote', name: 'mf_shop', publicPath: '/remotes/mf-shop/' }), createSsrConfig({ dir })];
