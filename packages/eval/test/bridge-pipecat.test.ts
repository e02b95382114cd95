// The bridge against bots that behave like Pipecat bots in text mode: LLM events and an <exit>
// push, but no turn-complete pushes. Turns are then inferred from the LLM events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotServer, silentLogger } from '@scenaro/agent';
import type { ConversationHost } from '@scenaro/agent';
import { runBridgedScenario } from '../src/index.js';
import { plainDomain, plainScenario } from './helpers.js';

/** A bot answering each user text with streamed LLM events only; the agent exits on its 3rd turn. */
function pipecatLike(role: 'agent' | 'user') {
  return (host: ConversationHost) => {
    let turns = 0;
    return {
      async onUserText(content: string) {
        turns++;
        await new Promise((r) => setTimeout(r, 5));
        host.emit('bot-llm-started');
        host.emit('bot-llm-text', { text: `${role} turn ${turns}` });
        host.emit('bot-llm-text', { text: ` (heard: ${content.slice(0, 20)})` });
        host.emit('bot-llm-stopped');
        host.emit('metrics', {
          tokens: [
            {
              processor: 'LLM',
              model: 'pipecat-like',
              prompt_tokens: 1,
              completion_tokens: 1,
              total_tokens: 2,
            },
          ],
        });
        if (role === 'agent' && turns === 3)
          host.push({ text: '<exit>The task is finished.</exit>' });
      },
    };
  };
}

let agent: BotServer;
let user: BotServer;
beforeAll(async () => {
  agent = await new BotServer({
    port: 0,
    logger: silentLogger,
    conversation: pipecatLike('agent'),
  }).listen();
  user = await new BotServer({
    port: 0,
    logger: silentLogger,
    conversation: pipecatLike('user'),
  }).listen();
});
afterAll(async () => {
  await agent?.close();
  await user?.close();
});

const domain = plainDomain;
const scenario = plainScenario('chat', {
  maxDurationSeconds: 30,
  userInstructions: 'Say hello.',
});

describe('bridge with bots that do not push turn-complete', () => {
  it('infers turn ends from LLM events and stops on the <exit> push', async () => {
    const run = await runBridgedScenario(scenario, {
      agentUrl: agent.url,
      userUrl: user.url,
      domain,
      dataRoot: '/nonexistent',
      turnQuietMs: 150,
    });
    expect(run.failure).toBeUndefined();
    expect(run.stopReason).toBe('[EXIT]');
    expect(run.turns.map((t) => `${t.role}: ${t.text}`)).toEqual([
      'agent: agent turn 1 (heard: Hello)',
      // each bot quotes the first 20 characters of what it was sent
      'user: user turn 1 (heard: agent turn 1 (heard:)',
      'agent: agent turn 2 (heard: user turn 1 (heard: )',
      'user: user turn 2 (heard: agent turn 2 (heard:)',
      'agent: agent turn 3 (heard: user turn 2 (heard: )',
    ]);
    expect(run.tokenUsage.agent.n_calls).toBe(3);
    expect(run.bridgeLog.some((line) => line.includes('turn end inferred'))).toBe(true);
  });
});
