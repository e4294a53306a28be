// Builds a Node process (a service, the gateway, the seed job) to one JavaScript file:
//
//   node scripts/build-node.mjs <entry.ts> <out.js>      (paths from the current folder)
//
// esbuild bundles the process's own TypeScript and the workspace packages it imports (@dme/*,
// whose package exports point at their TypeScript sources), and leaves every npm package as an
// import that Node resolves from node_modules at run time: the image installs production
// dependencies only, and nothing compiles TypeScript while a process starts or runs.
// Why esbuild and not tsc or rspack: tsc would have to emit each workspace package and rewrite
// their exports from src/*.ts to dist/*.js (and add .js to every relative import); rspack is the
// browser bundler of the remotes and needs a config per target to do the same; esbuild bundles a
// service in well under a second with no config (docs/decisions.md, "Compiled runtime").
// The source map beside the file maps stack traces back to the .ts lines (node --enable-source-maps).
import { build } from 'esbuild';
import { resolve } from 'node:path';

const [entry, out] = process.argv.slice(2);
if (!entry || !out) {
  console.error('usage: node scripts/build-node.mjs <entry.ts> <out.js>');
  process.exit(2);
}

/** npm packages stay imports (node_modules at run time); workspace packages are bundled. */
const externalNpmPackages = {
  name: 'external-npm-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@dme/') || args.path.startsWith('node:')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const result = await build({
  entryPoints: [resolve(entry)],
  outfile: resolve(out),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  // The map names the .ts files and lines; their text stays out of it (the image has no sources).
  sourcesContent: false,
  // Names kept: logs and errors name classes and functions (MikroORM names entities by class).
  keepNames: true,
  jsx: 'automatic',
  logLevel: 'warning',
  metafile: true,
  plugins: [externalNpmPackages],
});
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`built ${out} (${Math.round(bytes / 1024)} KB with its source map)`);
