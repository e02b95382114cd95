// The container image and the Kubernetes manifests, checked without a cluster or a Docker
// daemon: every manifest validates against the Kubernetes API schemas (kubernetes-models),
// every command they and the Dockerfile run is one the CLI accepts (its subcommands, flags,
// values and arguments), every $(VAR) they use is defined, and the Dockerfile builds the
// project as .ci/run does.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { ConfigMap, PersistentVolumeClaim, Service } from 'kubernetes-models/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { createProgram } from '../src/program.js';
import { repoRoot } from './built-cli.js';

const manifestDir = join(repoRoot, 'deploy/kubernetes');

/** The schema-backed model of each kind the manifests may hold. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1 Job': Job,
  'v1 ConfigMap': ConfigMap,
  'v1 PersistentVolumeClaim': PersistentVolumeClaim,
  'v1 Service': Service,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
};

interface Manifest {
  file: string;
  doc: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function loadManifests(): Manifest[] {
  const out: Manifest[] = [];
  for (const file of readdirSync(manifestDir).filter((f) => f.endsWith('.yaml'))) {
    for (const document of parseAllDocuments(readFileSync(join(manifestDir, file), 'utf8'))) {
      expect(document.errors, file).toEqual([]);
      const doc = document.toJS() as Manifest['doc'] | null;
      if (doc) out.push({ file, doc });
    }
  }
  return out;
}

/**
 * Check `args` as the CLI would parse them; returns the problems found. `$(VAR)` values stand
 * for any value.
 */
function checkArgs(args: readonly string[]): string[] {
  const problems: string[] = [];
  let command: Command = createProgram();
  let i = 0;
  for (; i < args.length; i++) {
    const sub = command.commands.find((c) => c.name() === args[i]);
    if (!sub) break;
    command = sub;
  }
  if (command.name() === 'scenaro') return [`no subcommand in ${args.join(' ')}`];
  const positional: string[] = [];
  for (; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const option = command.options.find((o: Option) => o.long === arg);
    if (!option) {
      problems.push(`${command.name()}: unknown flag ${arg}`);
      continue;
    }
    if (!option.required && !option.optional) continue;
    const value = args[i + 1];
    if (value === undefined || (value.startsWith('--') && option.required)) {
      problems.push(`${command.name()}: ${arg} needs a value`);
      continue;
    }
    i++;
    const choices = option.argChoices;
    if (choices && !/^\$\(\w+\)$/.test(value) && !choices.includes(value))
      problems.push(`${command.name()}: ${arg} ${value} is not one of ${choices.join(', ')}`);
  }
  const wanted = command.registeredArguments;
  const required = wanted.filter((a) => a.required).length;
  const variadic = wanted.some((a) => a.variadic);
  if (positional.length < required || (!variadic && positional.length > wanted.length))
    problems.push(`${command.name()}: arguments ${JSON.stringify(positional)} do not fit`);
  return problems;
}

/** The containers of a workload manifest. */
function containers(doc: Manifest['doc']): Manifest['doc'][] {
  return doc['spec']?.['template']?.['spec']?.['containers'] ?? [];
}

describe('checkArgs (the CLI as the manifests use it)', () => {
  it('accepts real commands and names what is wrong in others', () => {
    expect(checkArgs(['serve', '--port', '8765', '--stt', 'none'])).toEqual([]);
    expect(checkArgs(['eval', 'merge', '/a', '/b', '--into', '/c'])).toEqual([]);
    expect(checkArgs(['serve', '--prot', '1'])).toContain('serve: unknown flag --prot');
    expect(checkArgs(['serve', '--stt', 'whisper'])).toEqual([
      'serve: --stt whisper is not one of pocketsphinx, openai, oracle, none',
    ]);
    expect(checkArgs(['eval', '--shard'])).toEqual(['eval: --shard needs a value']);
    expect(checkArgs(['eval', 'merge', '--into', '/c'])).toHaveLength(1);
    expect(checkArgs(['--help'])).toHaveLength(1);
  });
});

describe('deploy/kubernetes', () => {
  const manifests = loadManifests();

  it('validates every manifest against the Kubernetes API schemas', () => {
    expect(manifests.length).toBeGreaterThanOrEqual(8);
    for (const { file, doc } of manifests) {
      const key = `${String(doc['apiVersion'])} ${String(doc['kind'])}`;
      const Model = MODELS[key];
      expect(Model, `${file}: no schema for ${key}`).toBeDefined();
      expect(
        () => new (Model as NonNullable<typeof Model>)(doc as never).validate(),
        file,
      ).not.toThrow();
    }
    // The schemas do catch a wrong manifest.
    const deployment = manifests.find(({ doc }) => doc['kind'] === 'Deployment')?.doc;
    const broken = structuredClone(deployment) as Manifest['doc'];
    broken['spec']['replicas'] = 'two';
    expect(() => new Deployment(broken as never).validate()).toThrow(/replicas/);
    const kinds = manifests.map(({ doc }) => String(doc['kind'])).sort();
    expect(kinds).toEqual(
      expect.arrayContaining([
        'ConfigMap',
        'Deployment',
        'HorizontalPodAutoscaler',
        'Job',
        'PodDisruptionBudget',
        'Service',
      ]),
    );
  });

  it('runs only commands the CLI accepts, with every $(VAR) defined', () => {
    const config = manifests.find(({ doc }) => doc['kind'] === 'ConfigMap')?.doc;
    for (const { file, doc } of manifests) {
      for (const container of containers(doc)) {
        const args = container['args'] as string[];
        expect(args, `${file}: ${container['name']} has args`).toBeDefined();
        expect(
          container['command'],
          `${file}: the image's entrypoint runs scenaro`,
        ).toBeUndefined();
        expect(checkArgs(args), `${file}: ${args.join(' ')}`).toEqual([]);
        const defined = new Set<string>(
          (container['env'] ?? []).map((e: { name: string }) => e.name),
        );
        for (const from of container['envFrom'] ?? []) {
          const name = from['configMapRef']?.['name'];
          expect(name, `${file}: envFrom names the ConfigMap`).toBe(config?.['metadata']?.['name']);
          for (const key of Object.keys(config?.['data'] ?? {})) defined.add(key);
        }
        for (const arg of args)
          for (const [, name] of arg.matchAll(/\$\((\w+)\)/g))
            expect(defined.has(name as string), `${file}: $(${name}) is defined`).toBe(true);
      }
    }
  });

  it('runs the bot server with probes, the token from a Secret, the drain within the grace', () => {
    const deployment = manifests.find(({ doc }) => doc['kind'] === 'Deployment')?.doc;
    const pod = deployment?.['spec']['template']['spec'];
    const [server] = containers(deployment ?? {});
    expect(server?.['readinessProbe']['httpGet']['path']).toBe('/readyz');
    expect(server?.['livenessProbe']['httpGet']['path']).toBe('/healthz');
    const token = server?.['env'].find((e: { name: string }) => e.name === 'SCENARO_TOKEN');
    expect(token?.['valueFrom']['secretKeyRef']['key']).toBe('token');
    const args = server?.['args'] as string[];
    const graceMs = Number(args[args.indexOf('--shutdown-grace-ms') + 1]);
    const preStopS = Number(server?.['lifecycle']['preStop']['exec']['command'][1]);
    // preStop, the drain, and up to ~2 s of closing, within the pod's grace.
    expect(preStopS + graceMs / 1000 + 2).toBeLessThanOrEqual(pod['terminationGracePeriodSeconds']);
    // The probes use the metrics port, which answers while the server drains.
    const ports = Object.fromEntries(
      server?.['ports'].map((p: { name: string; containerPort: number }) => [
        p.name,
        p.containerPort,
      ]),
    );
    expect(server?.['readinessProbe']['httpGet']['port']).toBe('metrics');
    expect(String(ports['metrics'])).toBe(args[args.indexOf('--metrics-port') + 1]);
    expect(String(ports['ws'])).toBe(args[args.indexOf('--port') + 1]);
    const service = manifests.find(({ doc }) => doc['kind'] === 'Service')?.doc;
    expect(service?.['spec']['sessionAffinity']).toBe('ClientIP');
    expect(service?.['spec']['selector']).toEqual(deployment?.['spec']['selector']['matchLabels']);
  });

  it('shards the evaluation Job by its completion index, as many shards as completions', () => {
    const jobs = manifests.filter(({ doc }) => doc['kind'] === 'Job').map(({ doc }) => doc);
    const indexed = jobs.filter((j) => j['spec']['completionMode'] === 'Indexed');
    expect(indexed).toHaveLength(1);
    const job = indexed[0] as Manifest['doc'];
    const args = containers(job)[0]?.['args'] as string[];
    const shard = args[args.indexOf('--shard') + 1];
    expect(shard).toBe(`auto/${job['spec']['completions']}`);
    const runDir = `/results/${args[args.indexOf('--run-id') + 1]}`;
    expect(args[args.indexOf('--output-dir') + 1]).toBe('/results');
    const merge = jobs.find((j) => containers(j)[0]?.['args'][1] === 'merge');
    expect(merge?.['spec']['completionMode']).toBeUndefined();
    expect(containers(merge ?? {})[0]?.['args'][2]).toBe(runDir);
  });
});

/** The Dockerfile's instructions, continuation lines joined. */
function dockerInstructions(text: string): { op: string; args: string; stage: number }[] {
  const out: { op: string; args: string; stage: number }[] = [];
  let stage = -1;
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  for (const line of lines) {
    const match = /^([A-Z]+)\s+(.*)$/.exec(line.trim());
    if (!match || line.trim().startsWith('#')) continue;
    if (match[1] === 'FROM') stage++;
    out.push({ op: match[1] as string, args: (match[2] as string).trim(), stage });
  }
  return out;
}

describe('Dockerfile', () => {
  const text = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
  const steps = dockerInstructions(text);
  const last = Math.max(...steps.map((s) => s.stage));
  const final = steps.filter((s) => s.stage === last);
  const json = (op: string) => {
    const step = final.find((s) => s.op === op);
    expect(step, op).toBeDefined();
    return JSON.parse((step as { args: string }).args) as string[];
  };

  it('builds the project as .ci/run does, on the Node the project needs', () => {
    const ci = readFileSync(join(repoRoot, '.ci/run'), 'utf8');
    const root = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      engines: { node: string };
      scripts: { test: string };
      workspaces: string[];
    };
    // .ci/run: `npm ci --no-audit --no-fund`, then `npm test`, which starts with `npm run build`.
    expect(ci).toContain('npm ci --no-audit --no-fund');
    expect(root.scripts.test.startsWith('npm run build &&')).toBe(true);
    const runs = steps.filter((s) => s.stage === 0 && s.op === 'RUN').map((s) => s.args);
    expect(runs).toEqual(['npm ci --no-audit --no-fund', 'npm run build']);
    const major = /^>=(\d+)/.exec(root.engines.node)?.[1];
    for (const from of steps.filter((s) => s.op === 'FROM'))
      expect(from.args).toMatch(new RegExp(`^node:${major}-bookworm-slim\\b`));
    // The production dependencies are installed from every workspace's package.json.
    for (const workspace of root.workspaces)
      expect(text).toContain(`COPY ${workspace}/package.json ./${workspace}/`);
    expect(text).toContain('RUN npm ci --omit=dev --no-audit --no-fund');
  });

  it('runs as a non-root user, with the speech packages CI installs and a health check', () => {
    const user = final.find((s) => s.op === 'USER')?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const ci = readFileSync(join(repoRoot, '.ci/run'), 'utf8');
    const ciPackages = new Set(/APT_PACKAGES="([^"]+)"/.exec(ci)?.[1]?.split(/\s+/));
    const apt = final.find((s) => s.op === 'RUN' && s.args.includes('apt-get install'))?.args;
    const installed = (apt ?? '')
      .split('apt-get install')[1]
      ?.split('&&')[0]
      ?.split(/\s+/)
      .filter((w) => w && !w.startsWith('-'));
    expect(installed).toEqual(['pocketsphinx', 'pocketsphinx-en-us']);
    for (const name of installed ?? []) expect(ciPackages.has(name), name).toBe(true);
    const health = final.find((s) => s.op === 'HEALTHCHECK')?.args ?? '';
    const cmd = json('CMD');
    expect(health).toContain(`127.0.0.1:${cmd[cmd.indexOf('--metrics-port') + 1]}/healthz`);
  });

  it("starts `scenaro serve` by default, with the CLI's real flags", () => {
    const entrypoint = json('ENTRYPOINT');
    expect(entrypoint[0]).toBe('node');
    expect(entrypoint[1]).toBe('/app/packages/cli/bin/scenaro.js');
    expect(existsSync(join(repoRoot, 'packages/cli/bin/scenaro.js'))).toBe(true);
    const cmd = json('CMD');
    expect(cmd[0]).toBe('serve');
    expect(checkArgs(cmd)).toEqual([]);
    // What the runtime stage copies from the sources is there.
    for (const step of final.filter((s) => s.op === 'COPY' && s.args.startsWith('--from=build'))) {
      const source = step.args.split(/\s+/)[1] as string;
      if (!source.endsWith('/dist'))
        expect(existsSync(join(repoRoot, source.replace(/^\/app\//, ''))), source).toBe(true);
    }
  });
});
