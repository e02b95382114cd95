// The demo server (`@scenaro/demo/server`, what `scenaro demo` runs) without a browser: the
// page server (config, static files, refusals), the bot's per-run token, the browser -> agent
// store methods on a session's db, and an LLM assistant wired in when one is given (a local
// OpenAI-compatible test server).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRtviTransport } from '@scenaro/sdk/rtvi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIChatModel, silentLogger } from '@scenaro/agent';
import type { BotSession } from '@scenaro/agent';
import { connectPipecatClient, startOpenAITestServer } from '@scenaro/agent/testing';
import type { OpenAITestServer } from '@scenaro/agent/testing';
import { startDemo } from '@scenaro/demo/server';
import type { DemoServer } from '@scenaro/demo/server';

interface Config {
  wsUrl: string;
  token: string;
  storeName: string;
  shopper: { id: string; name: string };
  assistant: { label: string; scripted: boolean };
  tools: { name: string; feature: string; parameters: unknown }[];
  voice: { listens: boolean; speaks: boolean; problem?: string };
}

/** A raw GET (custom Host header allowed), as text. */
function get(
  url: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, url), { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function waitFor(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let staticDir: string;
let llm: OpenAITestServer;
let demo: DemoServer;
let config: Config;

beforeAll(async () => {
  // A stand-in for the built page, so this test does not depend on `npm run build`.
  staticDir = mkdtempSync(join(tmpdir(), 'scenaro-demo-static-'));
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>demo</title>');
  writeFileSync(join(staticDir, 'assets', 'app-1234.js'), 'console.log(1)');
  llm = await startOpenAITestServer();
  const model = createOpenAIChatModel({
    baseURL: llm.baseURL,
    model: 'test-model',
    timeoutMs: 5000,
  });
  demo = await startDemo({
    host: '127.0.0.1',
    port: 0,
    botPort: 0,
    assistant: { label: 'LLM test-model at ' + llm.baseURL, model: () => model },
    pageDir: staticDir,
    logger: silentLogger,
    out: () => {},
  });
  config = JSON.parse((await get(demo.url, '/config.json')).body) as Config;
});

afterAll(async () => {
  await demo?.close();
  await llm?.close();
  rmSync(staticDir, { recursive: true, force: true });
});

describe('demo server: the page server', () => {
  it('serves the config: bot URL and token, shopper, assistant and the frontend tools', () => {
    expect(config.wsUrl).toBe(demo.botUrl);
    expect(config.token).toMatch(/^[\w-]{20,}$/);
    expect(config.storeName).toBe('Scenaro Demo Store');
    expect(config.shopper).toEqual({ id: 'u_001', name: 'Maya Chen' });
    expect(config.assistant).toEqual({
      label: 'LLM test-model at ' + llm.baseURL,
      scripted: false,
    });
    expect(config.tools.map((t) => [t.name, t.feature])).toEqual([
      ['show_products', 'product_grid'],
      ['show_product', 'product_detail'],
      ['show_comparison', 'comparison'],
    ]);
    // Started without speech engines: the page is told the bot neither listens nor speaks.
    expect(config.voice).toEqual({ listens: false, speaks: false });
  });

  it('tells the page what the bot does with speech, and why it cannot listen', async () => {
    const missing = {
      name: 'missing',
      sampleRate: 16_000,
      check: () => Promise.reject(new Error('install the recognizer')),
      openSession: () => Promise.reject(new Error('not installed')),
      close: async () => {},
    };
    const voiced = await startDemo({
      port: 0,
      pageDir: staticDir,
      logger: silentLogger,
      out: () => {},
      voice: { stt: missing },
    });
    try {
      expect(voiced.voice).toEqual({
        listens: true,
        speaks: false,
        problem: 'install the recognizer',
      });
      const served = JSON.parse((await get(voiced.url, '/config.json')).body) as Config;
      expect(served.voice).toEqual(voiced.voice);
    } finally {
      await voiced.close();
    }
  });

  it('serves the built files, the app for page paths, and refuses the rest', async () => {
    expect(await get(demo.url, '/')).toMatchObject({
      status: 200,
      type: 'text/html; charset=utf-8',
    });
    expect(await get(demo.url, '/assets/app-1234.js')).toMatchObject({
      status: 200,
      type: 'text/javascript; charset=utf-8',
      body: 'console.log(1)',
    });
    expect((await get(demo.url, '/some/page')).body).toContain('<title>demo</title>');
    expect((await get(demo.url, '/assets/missing.js')).status).toBe(404);
    expect((await get(demo.url, '/%2e%2e/%2e%2e/package.json')).status).toBe(404);
    expect((await get(demo.url, '/%E0%A4%A')).status).toBe(400);
    expect((await get(demo.url, '/', {}, 'POST')).status).toBe(405);
    // Another name for this address (DNS rebinding) cannot read the config and its token.
    expect((await get(demo.url, '/config.json', { host: 'evil.example:80' })).status).toBe(403);
  });

  it('says how to build the page when it is missing', async () => {
    await expect(
      startDemo({
        host: '127.0.0.1',
        port: 0,
        botPort: 0,
        pageDir: join(staticDir, 'nowhere'),
        logger: silentLogger,
        out: () => {},
      }),
    ).rejects.toThrow(/not built.*npm run build/);
  });
});

describe('demo server: a bot session', () => {
  it('refuses a connection without the token', async () => {
    await expect(connectPipecatClient(config.wsUrl)).rejects.toBeDefined();
  });

  it("runs the shopper's store calls on the session's db and the LLM with the commerce tools", async () => {
    const bot = await connectPipecatClient(config.wsUrl, config.token);
    try {
      await waitFor(() => demo.bot.sessionCount === 1, 'the session');
      const session = demo.bot.sessions[0] as BotSession;
      const rpc = createRtviTransport(bot.client as never);
      const call = async (method: string, args: unknown) =>
        JSON.parse(
          await rpc.performRpc({
            destinationIdentity: 'agent',
            method,
            payload: JSON.stringify(args),
            responseTimeoutMs: 5000,
          }),
        ) as Record<string, unknown>;

      expect(await call('demo_state', {})).toMatchObject({
        ok: true,
        cart: { items: [], total: 0 },
        selection: { product_ids: [] },
      });
      expect(await call('demo_cart_add', { product_id: 'p_0012', quantity: 2 })).toMatchObject({
        ok: true,
        cart: { item_count: 2, items: [{ sku: 'AUD-0012', quantity: 2 }] },
      });
      expect(await call('demo_cart_add', { product_id: 'p_9999' })).toEqual({
        ok: false,
        error: "Unknown product id 'p_9999'. Use search_products to find product ids.",
      });
      expect(await call('demo_products', { product_ids: ['p_0012', 'p_0008'] })).toMatchObject({
        ok: true,
        products: [
          { product_id: 'p_0012', in_stock: true },
          { product_id: 'p_0008', options: { color: ['black', 'pink'] } },
        ],
      });
      expect(await call('demo_compare', { product_ids: ['p_0012'] })).toMatchObject({ ok: false });
      expect(await call('demo_cart_remove', { sku: 'AUD-0012' })).toMatchObject({
        ok: true,
        cart: { items: [] },
      });
      // The shopper's writes are recorded and pushed like the agent's.
      expect(session.state.actions.map((a) => a.name)).toEqual(['add_to_cart', 'remove_from_cart']);
      await waitFor(
        () =>
          bot.serverMessages.filter((m) => (m as { type?: string }).type === 'action-applied')
            .length === 2,
        'two action-applied pushes',
      );

      // The LLM policy: the commerce prompt and tools, tool calls run on the session's db.
      llm.enqueue(
        { toolCalls: [{ name: 'search_products', arguments: { query: 'kettle', limit: 2 } }] },
        { text: 'I found two kettles.' },
      );
      await bot.client.sendText('find me a kettle');
      await waitFor(
        () => bot.serverMessages.some((m) => (m as { type?: string }).type === 'turn-complete'),
        'the turn to complete',
      );
      const turn = bot.serverMessages.find(
        (m) => (m as { type?: string }).type === 'turn-complete',
      ) as { text: string; scripted: boolean };
      expect(turn).toMatchObject({ text: 'I found two kettles.', scripted: false });
      const first = llm.requests[0];
      expect(String(first?.messages[0]?.['content'])).toContain('Scenaro Demo Store');
      expect(String(first?.messages[0]?.['content'])).toContain('Maya Chen');
      const toolNames = (first?.tools ?? []).map((t) => (t['function'] as { name: string }).name);
      expect(toolNames).toEqual(expect.arrayContaining(['search_products', 'show_products']));
      expect(String(llm.requests[1]?.messages.at(-1)?.['content'])).toContain('"total_matches"');
    } finally {
      await bot.disconnect();
    }
  });
});
