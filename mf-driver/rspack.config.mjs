import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConfig } from '../rspack.base.mjs';

export default createConfig({
  dir: dirname(fileURLToPath(import.meta.url)),
  kind: 'remote',
  name: 'mf_driver',
  publicPath: '/remotes/mf-driver/',
});
