/**
 * The built `scenaro` command the CLI tests run as a child process, and whether it is built
 * (`npm run build`); tests that need it skip loudly when it is not.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const bin = join(repoRoot, 'packages/cli/bin/scenaro.js');

/** Is the CLI built? Warns, naming `what` is skipped, when it is not. */
export function cliBuilt(what: string): boolean {
  const built = existsSync(join(repoRoot, 'packages/cli/dist/bin.js'));
  if (!built)
    console.warn(
      `\n*** SKIPPING ${what}: packages/cli/dist is missing. Run \`npm run build\` first. ***\n`,
    );
  return built;
}

/** A running `scenaro` process and what it printed so far. */
export interface CliRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const children = new Set<ChildProcess>();

/**
 * Start `scenaro ARGS` in the repository root, logging warnings only and without
 * `$SCENARO_TOKEN`; `env` is added to (and overrides) that environment.
 */
export function runCli(args: string[], env: Record<string, string> = {}): CliRun {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: repoRoot,
    env: { ...process.env, SCENARO_LOG_LEVEL: 'warn', SCENARO_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolveExit) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolveExit(code);
    }),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Run to completion (bounded) and return exit code and output. */
export async function runCliToEnd(
  args: string[],
  timeoutMs = 30_000,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const r = runCli(args, env);
  const timer = setTimeout(() => r.child.kill('SIGKILL'), timeoutMs);
  const code = await r.exited;
  clearTimeout(timer);
  return { code, stdout: r.stdout(), stderr: r.stderr() };
}

/** Kill every `scenaro` process started by {@link runCli} that is still running. */
export function killCliChildren(): void {
  for (const child of children) child.kill('SIGKILL');
}
