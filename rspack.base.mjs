// Shared rspack configuration of the shell (Module Federation host) and the four remotes.
import { resolve } from 'node:path';
import { rspack } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';

const VERSIONS = {
  react: '19.3.1',
  'react-dom': '19.3.1',
  'react-router-dom': '7.18.5',
  'react-router': '7.18.5',
  '@reduxjs/toolkit': '2.14.0',
  'react-redux': '9.3.1',
};

/**
 * One copy of each reaches the browser (DESIGN §10): the shell provides them and the remotes use
 * the shell's (their own fallback chunks are only fetched if the host lacks one). antd is NOT
 * shared (STACK P9): each app bundles the tree-shaken components it uses.
 */
function sharedModules() {
  const shared = {};
  const add = (key, pkg) => {
    shared[key] = { singleton: true, requiredVersion: VERSIONS[pkg] };
  };
  add('react', 'react');
  add('react/jsx-runtime', 'react');
  add('react-dom', 'react-dom');
  add('react-dom/client', 'react-dom');
  add('react-router-dom', 'react-router-dom');
  add('react-router', 'react-router');
  add('@reduxjs/toolkit', '@reduxjs/toolkit');
  add('@reduxjs/toolkit/query/react', '@reduxjs/toolkit');
  add('react-redux', 'react-redux');
  return shared;
}

/**
 * @param {{ dir: string, kind: 'host' | 'remote', name: string, publicPath: string }} opts
 */
export function createConfig({ dir, kind, name, publicPath }) {
  const isHost = kind === 'host';
  const production = process.env.NODE_ENV !== 'development';
  return {
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
    resolve: { extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'] },
    module: {
      rules: [
        {
          test: /\.[cm]?tsx?$/,
          exclude: /node_modules/,
          loader: 'builtin:swc-loader',
          type: 'javascript/auto',
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              transform: { react: { runtime: 'automatic' } },
              target: 'es2020',
            },
          },
        },
        { test: /\.svg$/, type: 'asset/resource', generator: { filename: '[name].[contenthash:10][ext]' } },
      ],
    },
    plugins: [
      new rspack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') }),
      new ModuleFederationPlugin({
        name,
        ...(isHost ? { remotes: {} } : { filename: 'remoteEntry.js', exposes: { './app': './src/app.tsx' } }),
        shared: sharedModules(),
        manifest: isHost ? false : { fileName: 'mf-manifest.json' },
        dts: false,
        // The host provides the federation runtime; remotes use it instead of bundling their own.
        experiments: isHost ? { provideExternalRuntime: true } : { externalRuntime: true },
      }),
      ...(isHost
        ? [new rspack.HtmlRspackPlugin({ template: './src/index.html', inject: 'body', scriptLoading: 'defer', minify: production })]
        : []),
    ],
    optimization: { moduleIds: 'deterministic', chunkIds: 'deterministic' },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}
