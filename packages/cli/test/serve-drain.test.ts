// A SIGTERM'd `scenaro serve` with a live session and a turn in flight: readiness (on the
// metrics port) goes false first, the client is told, new connections are refused, the turn's
// reply completes, the connection closes with 1001, and the process exits within its grace.
import { afterAll, describe, expect, it } from 'vitest';
import {
  RtviClient,
  pollUntil,
  scrapeMetrics,
  startOpenAITestServer,
  upgradeStatus,
} from '@scenaro/agent/testing';
import type { OpenAITestServer } from '@scenaro/agent/testing';
import type { RTVIMessage } from '@scenaro/sdk/protocol';
import { cliBuilt, killCliChildren, runCli } from './built-cli.js';

const built = cliBuilt('packages/cli/test/serve-drain.test.ts');
const GRACE_MS = 8000;
const REPLY = 'one two three four five six seven eight';

let llm: OpenAITestServer | undefined;
afterAll(async () => {
  killCliChildren();
  await llm?.close();
});

const push = (m: RTVIMessage, type: string) =>
  m.type === 'server-message' && (m.data as { type?: string }).type === type;

describe.skipIf(!built)('scenaro serve on SIGTERM', { timeout: 60_000 }, () => {
  it('drains: readiness false, notice, in-flight reply completes, exit within grace', async () => {
    llm = await startOpenAITestServer();
    // A slow stream: the turn is still running when the signal arrives.
    llm.enqueue({ text: REPLY, chunksDelayMs: 250 });
    const server = runCli([
      'serve',
      '--port',
      '0',
      '--metrics-port',
      '0',
      '--shutdown-grace-ms',
      String(GRACE_MS),
      '--llm-base-url',
      llm.baseURL,
      '--llm-model',
      'test-model',
    ]);
    await pollUntil(
      () => server.stdout().includes('metrics on') || server.child.exitCode !== null,
      'the listening lines',
      30_000,
    );
    const url = /listening on (\S+)/.exec(server.stdout())?.[1] as string;
    const metricsUrl = /metrics on (\S+)/.exec(server.stdout())?.[1] as string;
    const readyz = metricsUrl.replace(/\/metrics$/, '/readyz');
    const healthz = metricsUrl.replace(/\/metrics$/, '/healthz');
    expect((await fetch(readyz)).status).toBe(200);

    const client = await RtviClient.ready(url);
    client.sendText('hello');
    await client.waitFor((m) => m.type === 'bot-llm-text', 'the reply to start streaming');

    const signalled = Date.now();
    server.child.kill('SIGTERM');
    await expect
      .poll(async () => (await fetch(readyz)).status, { timeout: 5000, interval: 5 })
      .toBe(503);
    const turnDoneWhenUnready = client.messages.some((m) => push(m, 'turn-complete'));
    expect(turnDoneWhenUnready, 'readiness went false while the turn was in flight').toBe(false);
    expect((await fetch(healthz)).status).toBe(200);
    const { text } = await scrapeMetrics(metricsUrl);
    expect(text).toMatch(/^scenaro_draining 1$/m);

    const notice = await client.waitFor((m) => push(m, 'server-draining'), 'the drain notice');
    expect(notice.data).toEqual({ type: 'server-draining', grace_ms: GRACE_MS });
    await expect(upgradeStatus(url)).rejects.toThrow();

    const done = await client.waitFor((m) => push(m, 'turn-complete'), 'the in-flight turn', {
      timeoutMs: GRACE_MS,
    });
    expect(done.data).toMatchObject({ text: REPLY, interrupted: false });
    expect(await client.waitForClose(GRACE_MS)).toEqual({
      code: 1001,
      reason: 'server shutting down',
    });
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(GRACE_MS);
  });
});
