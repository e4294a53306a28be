import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rspack } from '@rspack/core';
import { createConfig } from '../rspack.base.mjs';
import { brandColor, pwaAssets } from './src/pwa/assets.mjs';

const dir = dirname(fileURLToPath(import.meta.url));

/** Adds the web app manifest and its icons (src/pwa/assets.mjs) to the output. */
class DriverPwaAssets {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('DriverPwaAssets', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'DriverPwaAssets', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        const color = brandColor(join(dir, '..', 'packages', 'ui', 'src', 'theme-config.ts'));
        for (const [name, data] of pwaAssets(color)) compilation.emitAsset(name, new rspack.sources.RawSource(data));
      });
    });
  }
}

/**
 * The installable driver app (issue 28, part 4a): its service worker as one plain script,
 * `dist/sw.js` (no federation, no chunks, a fixed name: the browser checks it for updates itself
 * and the gateway serves it with revalidation), with the manifest and icons beside it. Built after
 * the app, whose build empties the folder first.
 */
const pwa = {
  name: 'pwa',
  dependencies: ['app'],
  mode: 'production',
  context: dir,
  entry: { sw: './src/pwa/sw.ts' },
  devtool: false,
  target: ['webworker', 'es2020'],
  output: { path: resolve(dir, 'dist'), filename: '[name].js', clean: false, asyncChunks: false },
  resolve: { extensions: ['.ts', '.js'] },
  module: {
    rules: [
      {
        test: /\.ts$/,
        exclude: /node_modules/,
        loader: 'builtin:swc-loader',
        type: 'javascript/auto',
        options: { jsc: { parser: { syntax: 'typescript' }, target: 'es2020' } },
      },
    ],
  },
  plugins: [new DriverPwaAssets()],
  performance: { hints: false },
  stats: 'errors-warnings',
};

export default [
  createConfig({
    dir,
    kind: 'remote',
    name: 'mf_driver',
    publicPath: '/remotes/mf-driver/',
  }),
  pwa,
];
