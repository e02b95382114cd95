// Audio mode against small voice bots (PocketSphinx and Flite): a short conversation gives the
// same outcome, turns, segmentation and heard text on the real-time and the fast clock (with a
// recognizer that does not dither, see below); bots that never speak, speak forever or drop their
// connection mid-turn end the scenario with a named reason.
import { afterEach, describe, expect, it } from 'vitest';
import { decodeWav } from '@scenaro/agent/voice';
import { pocketsphinxMissing } from '@scenaro/agent/testing';
import type { BotServer } from '@scenaro/agent';
import type { VoiceOptions } from '@scenaro/agent/voice';
import {
  audioMetrics,
  conversationWav,
  localSpeechSettings,
  localVoices,
  runBridgedScenario,
} from '../src/index.js';
import { plainDomain, plainScenario, speak, voiceBot } from './helpers.js';
import type { VoiceBehaviour } from './helpers.js';
import type { AudioModeOptions, ScenarioRun, SpeechSettings } from '../src/index.js';

const canHear = (await pocketsphinxMissing('the audio bridge tests')) === undefined;

type Behaviour = VoiceBehaviour;

/** The agent greets, then confirms and ends the conversation. */
const agentSays: Behaviour = (host, turn) => {
  if (turn === 1) speak(host, 'Hello. How can I help you today?');
  else {
    host.push({ text: '<exit>The booking is changed.</exit>' });
    speak(host, 'I have changed your booking. Goodbye.');
  }
};
const userSays: Behaviour = (host) => speak(host, 'I would like to change my booking.');

const servers: BotServer[] = [];
const engines: VoiceOptions[] = [];
afterEach(async () => {
  await Promise.allSettled(servers.splice(0).map((s) => s.close()));
  await Promise.allSettled(engines.splice(0).flatMap((v) => [v.stt?.close(), v.tts?.close()]));
});

const bot = (behaviour: Behaviour, voice: VoiceOptions) => voiceBot(behaviour, voice, servers);

const domain = plainDomain;
const scenario = plainScenario('voice', {
  maxDurationSeconds: 60,
  userInstructions: 'Change a booking.',
});

/**
 * The recognizer options of the clock comparison: no dither. PocketSphinx dithers with one random
 * sequence over its whole input, so its words for an utterance also depend on how much audio came
 * before it, which on the real-time clock is the bots' thinking time. Without dither its words
 * depend on the utterance and where it falls in the recognizer's blocks and frames, which the
 * relay keeps the same on both clocks.
 */
const UNDITHERED = localSpeechSettings({ pocketsphinxArgs: '-dither no' });

async function converse(
  agent: Behaviour,
  user: Behaviour,
  audio: AudioModeOptions,
  speech?: SpeechSettings,
): Promise<ScenarioRun> {
  // The voices the runner gives its local bots on this clock (with other recognizer options).
  const voices = await localVoices(audio.clock, undefined, speech);
  engines.push(voices.agent, voices.user);
  const [agentBot, userBot] = [await bot(agent, voices.agent), await bot(user, voices.user)];
  return runBridgedScenario(scenario, {
    agentUrl: agentBot.url,
    userUrl: userBot.url,
    domain,
    dataRoot: '/nonexistent',
    includePlan: false,
    audio,
  });
}

const said = (run: ScenarioRun) => run.turns.map((t) => `${t.role}: ${t.text}`);
const heard = (run: ScenarioRun) => run.audio?.segments.map((s) => `${s.role}: ${s.heard}`);
/** Each segment's length in ms (its audio, wherever it lies on the timeline). */
const lengths = (run: ScenarioRun) =>
  run.audio?.segments.map((s) => Math.round((s.end - s.start) * 1000));

describe.skipIf(!canHear)('audio mode', () => {
  it('gives the same outcome, turns and heard text on the real-time and the fast clock', async () => {
    const recognizer = UNDITHERED;
    const fast = await converse(agentSays, userSays, { clock: 'fast' }, recognizer);
    const realtime = await converse(agentSays, userSays, { clock: 'realtime' }, recognizer);
    expect(fast.failure).toBeUndefined();
    expect(realtime.failure).toBeUndefined();
    expect(fast.stopReason).toBe('[EXIT]');
    expect(said(fast)).toEqual([
      'agent: Hello. How can I help you today?',
      'user: I would like to change my booking.',
      'agent: I have changed your booking. Goodbye.',
    ]);
    expect(realtime.stopReason).toBe(fast.stopReason);
    expect(said(realtime)).toEqual(said(fast));
    // Every segment, the last one included, was heard the same and is as long on both clocks.
    expect(heard(realtime)).toEqual(heard(fast));
    expect(lengths(realtime)).toEqual(lengths(fast));
    // The user heard the agent well enough to tell what it asked, and heard its last words out.
    expect(fast.audio?.segments[0]?.heard).toMatch(/help/);
    expect(fast.audio?.segments[2]?.heard).toMatch(/changed/);
    // Audio time: the agent answered once the user's speech had ended (no barge-in).
    expect(fast.turns[2]?.latencyMs).toBeGreaterThan(0);
    expect(realtime.turns[2]?.latencyMs).toBeGreaterThan(0);
    expect(fast.turns[0]?.latencyMs).toBeUndefined();
    // The stereo recording holds both sides on one timeline.
    const record = fast.audio!;
    const wav = decodeWav(conversationWav(record));
    expect(wav.channels).toBe(2);
    expect(wav.sampleRate).toBe(16_000);
    expect(wav.pcm.length).toBe(record.agentToUser.length * 512 * 2);
    const metrics = audioMetrics(record);
    expect(metrics.segments).toHaveLength(3);
    expect(metrics.wer.user_stt.reference_words).toBe(13);
    expect(metrics.wer.agent_stt.wer).toBeLessThan(0.5);
    expect(Object.keys(metrics.ttfb.agent)).toEqual(
      expect.arrayContaining(['pocketsphinx-stt', 'flite-tts']),
    );
  }, 90_000);

  it('ends with [NO_RESPONSE] when the agent never speaks', async () => {
    const started = performance.now();
    const run = await converse(() => undefined, userSays, {
      clock: 'fast',
      responseTimeoutSeconds: 2,
    });
    expect(run.stopReason).toBe('[NO_RESPONSE]');
    expect(performance.now() - started).toBeLessThan(15_000);
  }, 30_000);

  it('ends with [TURN_TOO_LONG] when the agent speaks forever', async () => {
    const forever: Behaviour = (host) => {
      const speak = () => {
        host.speech?.text('And so it goes on and on. ');
        setTimeout(speak, 50);
      };
      speak();
    };
    const run = await converse(forever, userSays, { clock: 'fast', maxTurnSeconds: 5 });
    expect(run.stopReason).toBe('[TURN_TOO_LONG]');
    expect(run.turns.at(-1)?.interrupted).toBe(true);
  }, 60_000);

  it('ends with a named failure when the agent drops its connection mid-turn', async () => {
    const drops: Behaviour = (host, _turn, server) => {
      speak(host, 'Hello. I am about to go away in the middle of this sentence.');
      setTimeout(() => void server.close(), 300);
    };
    const started = performance.now();
    const run = await converse(drops, userSays, { clock: 'fast' });
    expect(run.stopReason).toBe('[ERROR]');
    expect(run.failure?.message).toMatch(/agent bot disconnected/);
    expect(performance.now() - started).toBeLessThan(15_000);
  }, 30_000);
});
