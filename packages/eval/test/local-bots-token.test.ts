// The bots `scenaro eval` starts on loopback require a token made for the run, so another local
// process cannot drive them; the run itself passes it.
import { describe, expect, it } from 'vitest';
import { upgradeStatus } from '@scenaro/agent/testing';
import { commerceEvalDomain } from '@scenaro/domains';
import { startLocalBots } from '../src/index.js';

describe('local bots', () => {
  it('refuse connections without the run token and accept it', async () => {
    const bots = await startLocalBots({ domains: [commerceEvalDomain], dataRoot: '/nonexistent' });
    try {
      expect(bots.token.length).toBeGreaterThanOrEqual(20);
      for (const url of [bots.agentUrl, bots.userUrl]) {
        expect(await upgradeStatus(url)).toBe(401);
        expect(await upgradeStatus(`${url}/?token=wrong`)).toBe(401);
        expect(await upgradeStatus(`${url}/?token=${bots.token}`)).toBe(101);
      }
      const again = await startLocalBots({
        domains: [commerceEvalDomain],
        dataRoot: '/nonexistent',
      });
      expect(again.token).not.toBe(bots.token);
      await again.close();
    } finally {
      await bots.close();
    }
  });
});
