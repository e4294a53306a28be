// Shared rspack configuration of the shell (Module Federation host) and the four remotes.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rspack } from '@rspack/core';
import { COMPRESSIBLE_ASSET, precompress } from './scripts/precompress.mjs';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';

const ROOT = dirname(fileURLToPath(import.meta.url));

const VERSIONS = {
  react: '19.3.1',
  'react-dom': '19.3.1',
  'react-router-dom': '7.18.5',
  '@reduxjs/toolkit': '2.14.0',
  'react-redux': '9.3.1',
};

/**
 * react-router-dom is shared as a facade (packages/ui/shared/react-router-dom.mjs) that re-exports
 * only what the apps use, so the rest of react-router is tree-shaken away. Every app gets its
 * router from the one shared facade; a name it lacks would be `undefined` at run time, so the
 * build refuses any app source that imports a name the facade does not export.
 */
/*
 * The federation runtime as ES modules. The MF plugin resolves its runtime with require.resolve,
 * which picks the CommonJS builds: nothing of those can be tree-shaken (the SDK's Node.js code
 * ships to the browser), and the host then held the runtime core twice (CommonJS for the
 * provided external runtime, ESM for the loader's import). Mapping every entry to its ESM build
 * gives one tree-shaken copy.
 */
const MF_DIR = join(ROOT, 'node_modules', '@module-federation');
const MF_ESM_ALIAS = Object.fromEntries(
  ['runtime', 'runtime-core', 'runtime-tools', 'sdk', 'webpack-bundler-runtime', 'inject-external-runtime-core-plugin', 'error-codes'].flatMap((pkg) => {
    const esm = join(MF_DIR, pkg, 'dist', pkg === 'error-codes' ? 'index.mjs' : 'index.js');
    return [
      [`@module-federation/${pkg}$`, esm],
      [`${join(MF_DIR, pkg, 'dist', 'index.cjs')}$`, esm],
    ];
  }),
);
const ROUTER_FACADE = join(ROOT, 'packages', 'ui', 'shared', 'react-router-dom.mjs');

function namedImports(source, pkg) {
  const names = [];
  const re = new RegExp(`import\\s+(type\\s+)?\\{([^}]*)\\}\\s*from\\s*['"]${pkg}['"]`, 'g');
  for (const m of source.matchAll(re)) {
    if (m[1]) continue;
    for (const part of m[2].split(',')) {
      const name = part.trim().split(/\s+as\s+/)[0];
      if (name && !name.startsWith('type ')) names.push(name);
    }
  }
  return names;
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' || e.name === 'test' ? [] : sourceFiles(p);
    return /\.(tsx?|mjs|js)$/.test(e.name) && !/\.test\.|test-setup/.test(e.name) ? [p] : [];
  });
}

function checkRouterFacade(appDir) {
  const exported = new Set(namedImports(readFileSync(ROUTER_FACADE, 'utf8').replace(/export\s*\{/g, 'import {'), 'react-router'));
  const dirs = [join(appDir, 'src'), join(ROOT, 'packages', 'ui', 'src'), join(ROOT, 'packages', 'api-client', 'src')];
  for (const file of dirs.flatMap(sourceFiles)) {
    const source = readFileSync(file, 'utf8');
    if (/import\s+(\*\s+as\s+\w+|\w+)\s+from\s*['"]react-router(-dom)?['"]/.test(source) || /from\s*['"]react-router['"]/.test(source)) {
      throw new Error(`${file}: import named exports from 'react-router-dom' only (see ${ROUTER_FACADE}).`);
    }
    const missing = namedImports(source, 'react-router-dom').filter((n) => !exported.has(n));
    if (missing.length) throw new Error(`${file} imports ${missing.join(', ')} from 'react-router-dom': add it to ${ROUTER_FACADE} (the shared router facade).`);
  }
}

/**
 * One copy of each reaches the browser (DESIGN §10): the shell provides them and the remotes use
 * the shell's (their own fallback chunks are only fetched if the host lacks one). antd is NOT
 * shared (STACK P9): each app bundles the tree-shaken components it uses.
 *
 * In the shell they are eager: part of its own script, provided to the share scope at start, so
 * the page needs no second round of chunk requests before it can draw (issue 13: mobile LCP).
 */
function sharedModules(eager) {
  const shared = {};
  const add = (key, pkg) => {
    shared[key] = { singleton: true, eager, requiredVersion: VERSIONS[pkg] };
  };
  add('react', 'react');
  add('react/jsx-runtime', 'react');
  add('react-dom', 'react-dom');
  add('react-dom/client', 'react-dom');
  shared['react-router-dom'] = { import: ROUTER_FACADE, singleton: true, eager, version: VERSIONS['react-router-dom'], requiredVersion: VERSIONS['react-router-dom'] };
  add('@reduxjs/toolkit', '@reduxjs/toolkit');
  add('@reduxjs/toolkit/query/react', '@reduxjs/toolkit');
  add('react-redux', 'react-redux');
  return shared;
}

/**
 * Writes `<file>.br` (brotli 11) and `<file>.gz` (gzip 9) beside every compressible file a build
 * emitted (issue 30, item 6, brought forward by issue 22: on a busy machine the first visitor of a
 * screen waited seconds while the gateway compressed its chunks at quality 11 on that request).
 * After emit, so files other plugins add late (the federation manifest, index.html) get theirs too.
 * The compression runs on libuv's thread pool, files side by side.
 */
class PrecompressPlugin {
  apply(compiler) {
    compiler.hooks.afterEmit.tapPromise('Precompress', async (compilation) => {
      const out = compilation.outputOptions.path;
      const names = compilation.getAssets().map((a) => a.name).filter((n) => COMPRESSIBLE_ASSET.test(n));
      await Promise.all(names.map((name) => precompress(join(out, name))));
    });
  }
}

/**
 * antd's own packages (@rc-component/*, cssinjs, colors) declare no `sideEffects`, so a bundler must
 * keep every module their index files name: a list screen that only needs antd's form context
 * (through Select and Input) got all of @rc-component/form and its validator. None of their modules
 * is imported for its effects alone (no bare `import './x'` in their ES builds; antd itself
 * declares its few), so they are marked side-effect free and what a screen does not use is dropped
 * (issue 27, part 5).
 */
const ANTD_DEPS_PURE = { test: /[\\/]node_modules[\\/](@rc-component[\\/]|@ant-design[\\/](colors|cssinjs|cssinjs-utils|fast-color)[\\/])/, sideEffects: false };

/** Our TypeScript and TSX, compiled by rspack's built-in swc for the given target. */
function swcRule(target) {
  return {
    test: /\.[cm]?tsx?$/,
    exclude: /node_modules/,
    loader: 'builtin:swc-loader',
    type: 'javascript/auto',
    options: { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } }, target } },
  };
}

/**
 * @param {{ dir: string, kind: 'host' | 'remote', name: string, publicPath: string }} opts
 */
export function createConfig({ dir, kind, name, publicPath }) {
  const isHost = kind === 'host';
  const production = process.env.NODE_ENV !== 'development';
  checkRouterFacade(dir);
  return {
    name: 'app',
    mode: production ? 'production' : 'development',
    context: dir,
    entry: { main: './src/index.ts' },
    devtool: false,
    target: ['web', 'es2020'],
    output: {
      path: resolve(dir, 'dist'),
      publicPath,
      uniqueName: name,
      filename: '[name].[contenthash:10].js',
      chunkFilename: '[name].[contenthash:10].js',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
      alias: MF_ESM_ALIAS,
    },
    module: {
      rules: [
        swcRule('es2020'),
        { test: /\.svg$/, type: 'asset/resource', generator: { filename: '[name].[contenthash:10][ext]' } },
        ANTD_DEPS_PURE,
      ],
    },
    plugins: [
      new rspack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') }),
      new ModuleFederationPlugin({
        name,
        ...(isHost ? { remotes: {} } : { filename: 'remoteEntry.js', exposes: { './app': './src/app.tsx' } }),
        shared: sharedModules(isHost),
        manifest: isHost ? false : { fileName: 'mf-manifest.json' },
        dts: false,
        // The host provides the federation runtime; remotes use it instead of bundling their own.
        experiments: { ...(isHost ? { provideExternalRuntime: true } : { externalRuntime: true }), optimization: { target: 'web' } },
      }),
      ...(isHost
        ? [new rspack.HtmlRspackPlugin({ template: './src/index.html', inject: 'body', scriptLoading: 'defer', minify: production })]
        : []),
      new PrecompressPlugin(),
    ],
    optimization: { moduleIds: 'deterministic', chunkIds: 'deterministic' },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

/**
 * The server-rendered first screen of an app (issue 13: mobile LCP): `ssr/first-screen.tsx`,
 * built for Node into `dist-ssr/first-screen.cjs`, which the gateway loads to draw a signed-in
 * user's first screen into the page it serves. The same components as the browser build, with
 * their own copy of React (no federation: nothing is shared with a browser).
 */
export function createSsrConfig({ dir }) {
  return {
    name: 'ssr',
    mode: 'production',
    context: dir,
    entry: { 'first-screen': './ssr/first-screen.tsx' },
    devtool: false,
    target: 'node20',
    output: { path: resolve(dir, 'dist-ssr'), filename: '[name].cjs', library: { type: 'commonjs2' }, asyncChunks: false, clean: true },
    resolve: { extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'] },
    module: {
      rules: [
        swcRule('es2022'),
        { test: /\.svg$/, type: 'asset/resource', generator: { emit: false, filename: '[name].[contenthash:10][ext]' } },
      ],
    },
    plugins: [new rspack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify('production') })],
    // Minified: the shop's views come with the whole of @dme/ui's index (antd included), which
    // only the minifier's dead-code removal drops; the gateway loads this at start.
    optimization: { minimize: true },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

/**
 * The shell's start-up script for pages with a server-rendered first screen
 * (src/first-screen-boot.ts): a few hundred bytes, no federation, a fixed name the gateway puts
 * in those pages (served with revalidation, as index.html is). Built after the app, whose build
 * empties the folder first.
 */
export function createBootConfig({ dir }) {
  return {
    name: 'boot',
    dependencies: ['app'],
    mode: 'production',
    context: dir,
    entry: { 'first-screen-boot': './src/first-screen-boot.ts' },
    devtool: false,
    target: ['web', 'es2020'],
    output: { path: resolve(dir, 'dist'), filename: '[name].js', clean: false },
    resolve: { extensions: ['.ts', '.js'] },
    module: { rules: [swcRule('es2020')] },
    plugins: [new PrecompressPlugin()],
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}
