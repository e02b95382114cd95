/**
 * The PocketSphinx processes a voice bot server runs: none for sessions that
 * send text only, one per session that sends audio (started ahead by the
 * engine's pool once voice is in use), and none left once the sessions and
 * the engine are closed.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPocketsphinxSpeechToText } from '../src/voice/index.js';
import type { BotServer } from '../src/index.js';
import type { SpeechToText } from '../src/voice/index.js';
import { RtviClient } from '../src/testing/index.js';
import { listenTestServer } from './fixtures.js';
import { echoConversation, pocketsphinxMissing, sendStream, silence } from './voice-fixtures.js';

const missing = await pocketsphinxMissing('the recognizer process tests');
const runs = missing === undefined || process.env['CI'] === 'true';

/** Pids of the `pocketsphinx_continuous` processes below this one. */
function recognizers(): number[] {
  const parents = new Map<number, number>();
  const names = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      names.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
      parents.set(Number(entry), Number(stat.slice(close + 2).split(' ')[1]));
    } catch {
      // gone
    }
  }
  const below = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) {
      if (p === process.pid) return true;
    }
    return false;
  };
  return [...names]
    .filter(([pid, name]) => name.startsWith('pocketsphinx') && below(pid))
    .map(([pid]) => pid);
}

function turnComplete(client: RtviClient): Promise<unknown> {
  return client.waitFor(
    (m) => m.type === 'server-message' && (m.data as { type?: string }).type === 'turn-complete',
    'the reply to text',
  );
}

describe.skipIf(!runs)('recognizer processes of a voice bot server', () => {
  let server: BotServer;
  let stt: SpeechToText;

  beforeAll(async () => {
    if (missing) throw missing;
    stt = createPocketsphinxSpeechToText({ poolSize: 1 });
    server = await listenTestServer({
      conversation: echoConversation,
      resumeGraceMs: 0,
      voice: { stt, pacing: 'fast' },
    });
  });
  afterAll(async () => {
    await server?.close();
    await stt?.close();
  });

  it('starts none for text sessions, one per audio session, and leaves none after close', async () => {
    const texting = await RtviClient.connect(server.url);
    await texting.handshake();
    texting.sendText('Hello');
    await turnComplete(texting);
    expect(recognizers()).toEqual([]);

    const talking = [await RtviClient.connect(server.url), await RtviClient.connect(server.url)];
    for (const client of talking) {
      await client.handshake();
      sendStream(client, silence(500));
    }
    // One per audio session, and one waiting for the next session.
    await expect.poll(() => recognizers().length, { timeout: 10_000 }).toBe(3);

    for (const client of [texting, ...talking]) await client.close();
    await expect.poll(() => recognizers().length, { timeout: 10_000 }).toBe(1);
    await server.close();
    await stt.close();
    expect(recognizers()).toEqual([]);
  });
});
