// Audio mode against small fake voice bots (bot servers whose speech engines are the local
// OpenAI-compatible audio test server: a tone for speech, a fixed transcript for what they hear),
// over real sockets, on both clocks: a bot that never speaks, one that speaks forever and one that
// drops its connection mid-turn end the scenario with a named reason, in bounded time.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAISpeechToText, createOpenAITextToSpeech } from '@scenaro/agent/voice';
import type { BotServer } from '@scenaro/agent';
import { startOpenAIAudioTestServer } from '@scenaro/agent/testing';
import type { OpenAIAudioTestServer } from '@scenaro/agent/testing';
import { localVoices, runBridgedScenario } from '../src/index.js';
import type { AudioModeOptions, RelayClock, ScenarioRun } from '../src/index.js';
import { plainDomain, plainScenario, speak, voiceBot } from './helpers.js';
import type { VoiceBehaviour } from './helpers.js';

let endpoint: OpenAIAudioTestServer;
beforeAll(async () => {
  endpoint = await startOpenAIAudioTestServer();
});
afterAll(async () => {
  await endpoint?.close();
});

type Behaviour = VoiceBehaviour;
const silent: Behaviour = () => undefined;
const greets: Behaviour = (host) => speak(host, 'Hello. How can I help you today?');
const answers: Behaviour = (host) => speak(host, 'I would like to change my booking.');
/** Talks on and on, a sentence (0.9 s of speech) every 300 ms, and never ends its reply. */
const forever: Behaviour = (host) => {
  const more = () => {
    host.speech?.text('And so it goes on and on and on, and on and on and on and on and on. ');
    timers.push(setTimeout(more, 300));
  };
  more();
};
/** Starts a reply and goes away in the middle of it (its reply never ends). */
const drops: Behaviour = (host, _turn, server) => {
  host.speech?.text('Hello. I am about to go away in the middle of this sentence, and then');
  timers.push(setTimeout(() => void server.close(), 300));
};

const timers: ReturnType<typeof setTimeout>[] = [];
const servers: BotServer[] = [];
afterEach(async () => {
  for (const timer of timers.splice(0)) clearTimeout(timer);
  await Promise.allSettled(servers.splice(0).map((s) => s.close()));
});

async function bot(behaviour: Behaviour, clock: RelayClock): Promise<BotServer> {
  const engine = { baseURL: endpoint.baseURL, apiKey: 'test-key' };
  const { agent: voice } = await localVoices(clock, {
    agent: { stt: createOpenAISpeechToText(engine), tts: createOpenAITextToSpeech(engine) },
    user: {},
  });
  return voiceBot(behaviour, voice, servers);
}

const scenario = plainScenario('stops', { maxDurationSeconds: 60, userInstructions: 'Talk.' });

/** One scenario between fake bots, and how long it took (wall, ms). */
async function converse(
  agent: Behaviour,
  user: Behaviour,
  audio: AudioModeOptions,
): Promise<{ run: ScenarioRun; ms: number }> {
  const [agentBot, userBot] = [await bot(agent, audio.clock), await bot(user, audio.clock)];
  const started = performance.now();
  const run = await runBridgedScenario(scenario, {
    agentUrl: agentBot.url,
    userUrl: userBot.url,
    domain: plainDomain,
    dataRoot: '/nonexistent',
    includePlan: false,
    audio,
  });
  const ms = performance.now() - started;
  for (const timer of timers.splice(0)) clearTimeout(timer);
  return { run, ms };
}

describe.each(['fast', 'realtime'] as const)('audio mode on the %s clock', (clock) => {
  it('ends with [NO_RESPONSE] when the agent never speaks', async () => {
    const { run, ms } = await converse(silent, answers, { clock, responseTimeoutSeconds: 2 });
    expect(run.stopReason).toBe('[NO_RESPONSE]');
    expect(run.failure).toBeUndefined();
    expect(run.turns).toEqual([]);
    expect(ms).toBeLessThan(10_000);
  });

  it('ends with [NO_RESPONSE] when the user never answers', async () => {
    const { run, ms } = await converse(greets, silent, { clock, responseTimeoutSeconds: 2 });
    expect(run.stopReason).toBe('[NO_RESPONSE]');
    expect(run.turns.map((t) => `${t.role}: ${t.text}`)).toEqual([
      'agent: Hello. How can I help you today?',
    ]);
    // The user heard the agent (the endpoint's transcript) and still said nothing.
    expect(run.audio?.segments[0]?.heard).toBe('hello world');
    expect(ms).toBeLessThan(15_000);
  });

  it('ends with [TURN_TOO_LONG] when the agent speaks forever', async () => {
    const { run, ms } = await converse(forever, answers, { clock, maxTurnSeconds: 3 });
    expect(run.stopReason).toBe('[TURN_TOO_LONG]');
    const last = run.turns.at(-1);
    expect(last?.role).toBe('agent');
    expect(last?.interrupted).toBe(true);
    // Cut off at the limit, in audio time, on either clock.
    expect((last?.end ?? 0) - (last?.start ?? 0)).toBeGreaterThanOrEqual(3);
    expect((last?.end ?? 0) - (last?.start ?? 0)).toBeLessThan(4);
    expect(ms).toBeLessThan(15_000);
  });

  it('fails the scenario, naming the bot, when the agent drops its connection mid-turn', async () => {
    const { run, ms } = await converse(drops, answers, { clock });
    expect(run.stopReason).toBe('[ERROR]');
    expect(run.failure).toMatchObject({ phase: 'conversation', infrastructure: true });
    expect(run.failure?.message).toMatch(/agent bot disconnected/);
    expect(ms).toBeLessThan(10_000);
  });

  it('fails the scenario, naming the bot, when the user drops its connection mid-turn', async () => {
    const { run, ms } = await converse(greets, drops, { clock });
    expect(run.stopReason).toBe('[ERROR]');
    expect(run.failure?.message).toMatch(/user bot disconnected/);
    expect(run.turns.map((t) => t.role)).toEqual(['agent']);
    expect(ms).toBeLessThan(15_000);
  });
});
