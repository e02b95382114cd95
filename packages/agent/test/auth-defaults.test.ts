// Safe defaults: an empty token is refused, a non-loopback address needs a token (or an explicit
// opt-out), and browser origins can be limited.
import { afterEach, describe, expect, it } from 'vitest';
import { BotServer, isLoopbackHost, silentLogger } from '../src/index.js';
import { upgradeStatus } from '../src/testing/index.js';
import { listenTestServer } from './fixtures.js';

const servers: BotServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('auth settings', () => {
  it('refuses an empty or blank token instead of turning auth off', () => {
    expect(() => new BotServer({ token: '', logger: silentLogger })).toThrow(/token is empty/);
    expect(() => new BotServer({ token: '  ', logger: silentLogger })).toThrow(/token is empty/);
  });

  it('refuses a non-loopback address without a token, saying how to set one', () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.10', 'example.org']) {
      expect(() => new BotServer({ host, logger: silentLogger }), host).toThrow(
        /without a token.*--token.*SCENARO_TOKEN.*--insecure-no-auth/s,
      );
    }
    expect(
      () => new BotServer({ host: '0.0.0.0', token: 's3cret', logger: silentLogger }),
    ).not.toThrow();
    expect(
      () => new BotServer({ host: '0.0.0.0', allowUnauthenticated: true, logger: silentLogger }),
    ).not.toThrow();
  });

  it('knows loopback hosts', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      'localhost',
      'LOCALHOST',
      'a.localhost',
    ])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [
      '0.0.0.0',
      '::',
      '10.0.0.1',
      '128.0.0.1',
      'localhost.example.org',
      '127.0.0.1.nip.io',
    ])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('refuses an allowed origin that is not an origin', () => {
    expect(() => new BotServer({ allowedOrigins: ['shop.example'], logger: silentLogger })).toThrow(
      /not an origin/,
    );
  });
});

describe('allowed origins', () => {
  it('lets listed browser origins and non-browser clients in, and refuses other origins with 403', async () => {
    const server = await listenTestServer({
      allowedOrigins: ['https://shop.example', 'http://127.0.0.1:4173'],
    });
    servers.push(server);
    expect(await upgradeStatus(server.url, { Origin: 'https://shop.example' })).toBe(101);
    expect(await upgradeStatus(server.url, { Origin: 'http://127.0.0.1:4173' })).toBe(101);
    expect(await upgradeStatus(server.url)).toBe(101); // no Origin: not a browser
    expect(await upgradeStatus(server.url, { Origin: 'https://evil.example' })).toBe(403);
    expect(await upgradeStatus(server.url, { Origin: 'https://shop.example:8443' })).toBe(403);
    expect(await upgradeStatus(server.url, { Origin: 'null' })).toBe(403);
  });

  it('accepts any origin by default', async () => {
    const server = await listenTestServer();
    servers.push(server);
    expect(await upgradeStatus(server.url, { Origin: 'https://anywhere.example' })).toBe(101);
  });
});
