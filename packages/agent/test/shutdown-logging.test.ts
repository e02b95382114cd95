// Logging never holds up serving or shutdown. A real child process runs a bot server with the
// default logger on stderr, and its stderr is a pipe nobody reads: requests are still answered
// (log lines over the logger's buffer are dropped and counted, not waited for), and after the
// reader goes away altogether (EPIPE), SIGTERM still ends the process within its grace period.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RtviClient } from '../src/testing/index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const agentDist = join(repoRoot, 'packages/agent/dist/index.js');
if (!existsSync(agentDist))
  console.warn('\n!!! shutdown-logging test SKIPPED: run `npm run build` first !!!\n');

// As `scenaro serve` does: start, print the URL, close on SIGTERM and exit.
const SERVE = `
import { BotServer } from '@scenaro/agent';
const server = await new BotServer({ port: 0, shutdownGraceMs: 1000 }).listen();
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
console.log(server.url);
`;

describe.skipIf(!existsSync(agentDist))('logging to a stderr nobody reads', () => {
  it(
    'keeps answering, and SIGTERM ends the process after the reader is gone',
    { timeout: 60_000 },
    async () => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', SERVE], {
        cwd: repoRoot,
        env: { ...process.env, SCENARO_LOG_LEVEL: 'debug' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // Nobody reads stderr: its pipe fills after 64 KiB.
      child.stderr.pause();
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      const url = await new Promise<string>((resolveUrl, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          if (out.includes('\n')) resolveUrl(out.trim());
        });
        child.once('exit', () => reject(new Error('the server exited early')));
      });
      try {
        const client = await RtviClient.ready(url);
        // Each request logs a line of ~200 bytes: 2,000 of them are far more than the pipe holds.
        const started = Date.now();
        for (let i = 0; i < 2000; i++) {
          const reply = await client.request('get_scenario_summary', {}, { timeoutMs: 10_000 });
          expect(reply.type).toBe('server-response');
        }
        console.log(`2,000 requests answered in ${Date.now() - started} ms with stderr stuck`);

        // The reader goes away: the logger now gets EPIPE.
        child.stderr.destroy();
        const more = await client.request('get_scenario_summary', {}, { timeoutMs: 10_000 });
        expect(more.type).toBe('server-response');

        const t0 = Date.now();
        child.kill('SIGTERM');
        const code = await Promise.race([
          exited,
          new Promise<'hung'>((r) => setTimeout(() => r('hung'), 10_000)),
        ]);
        expect(code, 'the process ended after SIGTERM').toBe(0);
        expect(Date.now() - t0).toBeLessThan(5_000);
        const closed = await client.waitForClose(5_000);
        expect(closed.code).toBe(1001);
      } finally {
        child.kill('SIGKILL');
      }
    },
  );
});
