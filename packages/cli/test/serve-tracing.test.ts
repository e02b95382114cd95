// `scenaro serve` exports OpenTelemetry spans over OTLP/HTTP when the standard
// OTEL_EXPORTER_OTLP_ENDPOINT is set (here: a local collector), flushing them on shutdown;
// without it, tracing stays off.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { RtviClient, pollUntil, startOpenAITestServer } from '@scenaro/agent/testing';
import type { OpenAITestServer } from '@scenaro/agent/testing';
import { startTracing } from '../src/tracing.js';
import { cliBuilt, killCliChildren, runCli } from './built-cli.js';

const built = cliBuilt('packages/cli/test/serve-tracing.test.ts');

let llm: OpenAITestServer | undefined;
let collector: Server | undefined;
afterAll(async () => {
  killCliChildren();
  await llm?.close();
  collector?.close();
});

describe('tracing', () => {
  it('is off without OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    expect(await startTracing({})).toBeUndefined();
  });

  it.skipIf(!built)(
    'serve exports the spans of a turn to the OTLP endpoint',
    { timeout: 60_000 },
    async () => {
      const received: { path: string; type: string; body: string }[] = [];
      collector = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          received.push({
            path: req.url ?? '',
            type: String(req.headers['content-type']),
            body: Buffer.concat(chunks).toString('utf8'),
          });
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        });
      });
      await new Promise<void>((resolve) => collector?.listen(0, '127.0.0.1', resolve));
      const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
      llm = await startOpenAITestServer();
      llm.enqueue({ text: 'Hello there.' });
      const server = runCli(
        ['serve', '--port', '0', '--llm-base-url', llm.baseURL, '--llm-model', 'test-model'],
        { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'scenaro-test' },
      );
      await pollUntil(
        () => server.stdout().includes('\n') || server.child.exitCode !== null,
        'the listening line',
        30_000,
      );
      const url = /listening on (\S+)/.exec(server.stdout())?.[1] as string;
      const client = await RtviClient.ready(url);
      client.sendText('hi');
      await client.waitFor(
        (m) =>
          m.type === 'server-message' && (m.data as { type?: string }).type === 'turn-complete',
        'the end of the turn',
      );
      await client.close();
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const traces = received.filter((r) => r.path === '/v1/traces');
      expect(traces.length).toBeGreaterThan(0);
      const body = traces.map((t) => t.body).join('\n');
      for (const name of ['scenaro.turn', 'scenaro.llm', 'scenaro-test', 'test-model'])
        expect(body).toContain(name);
    },
  );
});
