// GET /metrics over a real socket: the Prometheus text moves with a real client's traffic
// (sessions, connections, control-plane requests and their latency, frames, turns, LLM ttfb,
// errors), needs the token when the server has one, and can be served on a separate port.
import { afterEach, describe, expect, it } from 'vitest';
import type { BotServer } from '../src/index.js';
import { RtviClient, metricValue, scrapeMetrics } from '../src/testing/index.js';
import { listenTestServer, makeDataRoot } from './fixtures.js';
import { echoConversation } from './voice-fixtures.js';

const servers: BotServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(options: Parameters<typeof listenTestServer>[0] = {}): Promise<BotServer> {
  const server = await listenTestServer(options);
  servers.push(server);
  return server;
}

async function scrape(server: BotServer, token?: string): Promise<string> {
  const { status, contentType, text } = await scrapeMetrics(server.metricsUrl, token);
  expect(status).toBe(200);
  expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  return text;
}

const value = (text: string, name: string, labels: Record<string, string> = {}) =>
  metricValue(text, name, labels) ?? 0;

describe('GET /metrics', () => {
  it('moves with a real client: sessions, requests, latency, frames, turns, ttfb', async () => {
    const data = makeDataRoot();
    try {
      const server = await start({ dataRoot: data.root, conversation: echoConversation });
      expect(server.metricsUrl).toBe(`${server.url.replace('ws:', 'http:')}/metrics`);
      const before = await scrape(server);
      expect(value(before, 'scenaro_sessions', { state: 'connected' })).toBe(0);
      expect(value(before, 'scenaro_draining')).toBe(0);
      // Process metrics come along, prefixed too.
      expect(metricValue(before, 'scenaro_process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(before).toContain('# TYPE scenaro_nodejs_eventloop_lag_seconds gauge');

      const client = await RtviClient.ready(server.url);
      for (let i = 0; i < 3; i++) await client.call('get_scenario_summary', {});
      const failed = await client.request('update_system_prompt', { prompt: 42 });
      expect(failed.type).toBe('error-response');
      await client.request('no_such_message', {});
      client.sendText('hello there');
      await client.waitFor(
        (m) =>
          m.type === 'server-message' && (m.data as { type?: string }).type === 'turn-complete',
        'the end of the turn',
      );
      client.sendTextFrame('not a protobuf frame');
      await client.waitFor((m) => m.type === 'error', 'the error for a text frame');

      const during = await scrape(server);
      expect(value(during, 'scenaro_sessions', { state: 'connected' })).toBe(1);
      expect(value(during, 'scenaro_connections_total', { outcome: 'new' })).toBe(1);
      const requests = (type: string, outcome: string) =>
        value(during, 'scenaro_control_requests_total', { type, outcome });
      expect(requests('get_scenario_summary', 'ok')).toBe(3);
      expect(requests('update_system_prompt', 'error')).toBe(1);
      expect(requests('unknown', 'error')).toBe(1);
      expect(requests('client-ready', 'ok')).toBe(1);
      expect(
        value(during, 'scenaro_control_request_duration_seconds_count', {
          type: 'get_scenario_summary',
        }),
      ).toBe(3);
      expect(
        value(during, 'scenaro_control_request_duration_seconds_bucket', {
          type: 'get_scenario_summary',
          le: '+Inf',
        }),
      ).toBe(3);
      // client-ready, 3 + 1 + 1 requests, send-text, and the text frame (not a message).
      expect(value(during, 'scenaro_frames_received_total', { kind: 'message' })).toBe(7);
      expect(value(during, 'scenaro_frames_received_total', { kind: 'other' })).toBe(1);
      expect(value(during, 'scenaro_frames_sent_total', { kind: 'message' })).toBe(
        client.messages.length,
      );
      expect(value(during, 'scenaro_turns_total', { outcome: 'completed' })).toBe(1);
      expect(
        value(during, 'scenaro_llm_ttfb_seconds_count', { processor: 'EchoPolicy' }),
      ).toBeGreaterThanOrEqual(1);
      expect(value(during, 'scenaro_errors_total', { kind: 'request_failed' })).toBe(2);
      expect(value(during, 'scenaro_errors_total', { kind: 'bad_frame' })).toBe(1);
      expect(value(during, 'scenaro_errors_total', { kind: 'error_event' })).toBe(1);

      await client.close();
      await expect
        .poll(async () => value(await scrape(server), 'scenaro_sessions', { state: 'waiting' }))
        .toBe(1);
      const after = await scrape(server);
      expect(value(after, 'scenaro_sessions', { state: 'connected' })).toBe(0);
      // Counts kept between scrapes are neither lost nor counted again by later scrapes.
      expect(value(after, 'scenaro_frames_received_total', { kind: 'message' })).toBe(7);
      expect(value(after, 'scenaro_frames_received_total', { kind: 'other' })).toBe(1);
    } finally {
      data.cleanup();
    }
  });

  it('needs the token when the server has one, and counts refused upgrades', async () => {
    const server = await start({ token: 'sesame' });
    expect((await scrapeMetrics(server.metricsUrl)).status).toBe(401);
    expect((await scrapeMetrics(server.metricsUrl, 'wrong')).status).toBe(401);
    await expect(RtviClient.ready(server.url)).rejects.toThrow();
    const text = await scrape(server, 'sesame');
    expect(value(text, 'scenaro_connections_refused_total', { reason: 'unauthorized' })).toBe(1);
    // The probes stay open to the kubelet.
    expect((await fetch(`${server.metricsUrl.replace('/metrics', '/healthz')}`)).status).toBe(200);
    expect((await fetch(`${server.metricsUrl.replace('/metrics', '/readyz')}`)).status).toBe(200);
  });

  it('can be served on a separate port instead', async () => {
    const server = await start({ metricsPort: 0 });
    const own = server.url.replace('ws:', 'http:');
    expect(server.metricsUrl).not.toBe(`${own}/metrics`);
    expect((await fetch(`${own}/metrics`)).status).toBe(404);
    const client = await RtviClient.ready(server.url);
    await client.call('get_scenario_summary', {});
    const text = await scrape(server);
    expect(
      value(text, 'scenaro_control_requests_total', {
        type: 'get_scenario_summary',
        outcome: 'ok',
      }),
    ).toBe(1);
    const probes = server.metricsUrl.replace('/metrics', '');
    expect((await fetch(`${probes}/readyz`)).status).toBe(200);
    expect((await fetch(`${probes}/connect`, { method: 'POST' })).status).toBe(404);
    await client.close();
  });
});
