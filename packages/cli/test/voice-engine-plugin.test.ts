// A speech engine added through the registry alone (`registerSpeechEngine`, no other change) is
// a choice of `scenaro serve` and `scenaro eval`, its options are flags with their --help, and
// it is the engine the bots actually speak and hear with: the fake engines here count their
// calls. A tone per character for speech, a fixed transcript for what is heard.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  concatBytes,
  defineSpeechEngine,
  PcmChunker,
  registerSpeechEngine,
} from '@scenaro/agent/voice';
import type { BotServer } from '@scenaro/agent';
import type { SpeechToText, SttSession, TextToSpeech, Transcript } from '@scenaro/agent/voice';
import { RtviClient } from '@scenaro/agent/testing';
import { runEvaluation } from '@scenaro/eval';
import { evalCommand } from '../src/commands/eval.js';
import { serveCommand } from '../src/commands/serve.js';
import { serve } from '../src/start-server.js';
import { evalOptions, expectHeardAndRecorded } from './eval-options.js';
import type { ServeOptions } from '../src/start-server.js';

/** Every call the fake engines got. */
const calls = {
  /** Each sentence synthesized, with the voice and tone that said it. */
  synthesized: [] as { text: string; voice: string; tone: number; sampleRate: number }[],
  sessions: 0,
  finals: 0,
};

/** `text` as a tone, 10 ms per character, in 40 ms frames. */
function* tone(text: string, hz: number, sampleRate: number): Generator<Uint8Array> {
  const samples = Math.round((text.length * 10 * sampleRate) / 1000);
  const frame = (sampleRate * 40) / 1000;
  for (let at = 0; at < samples; at += frame) {
    const pcm = new Int16Array(Math.min(frame, samples - at));
    for (let i = 0; i < pcm.length; i++)
      pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * hz * (at + i)) / sampleRate));
    yield new Uint8Array(pcm.buffer);
  }
}

const fakeTts = defineSpeechEngine({
  name: 'fake-x',
  kind: 'tts',
  description: 'a tone per character, for tests',
  capabilities: { streaming: false, sampleRates: [16_000], offline: true },
  options: {
    voice: {
      description: 'voice',
      type: 'string',
      choices: ['a', 'b'],
      default: 'a',
      setting: 'ttsVoice',
      valueName: 'name',
      perSpeaker: true,
      speakerDefaults: ['a', 'b'],
    },
    tone: {
      description: 'tone of the speech in Hz',
      type: 'integer',
      min: 100,
      max: 2000,
      default: 440,
      valueName: 'hz',
    },
  },
  create(settings, context) {
    const sampleRate = context.sampleRate ?? 24_000;
    const tts: TextToSpeech = {
      name: 'fake-x',
      sampleRate,
      async *synthesize(text) {
        calls.synthesized.push({ text, voice: settings.voice, tone: settings.tone, sampleRate });
        yield* tone(text, settings.tone, sampleRate);
      },
      close: () => Promise.resolve(),
    };
    return Promise.resolve(tts);
  },
  label: (settings) => `fake-x(${settings.voice}, ${settings.tone} Hz)`,
});

/** A session that hears the same text in every utterance. */
class FixedSession implements SttSession {
  readonly sampleRate = 16_000;
  samples = 0;
  private readonly listeners = new Set<(t: Transcript) => void>();
  private utterance = 0;
  private start = 0;

  constructor(private readonly text: string) {}

  write(pcm: Uint8Array): void {
    this.samples += pcm.length / 2;
  }

  startUtterance(sample = this.samples): number {
    this.start = sample;
    return ++this.utterance;
  }

  endUtterance(sample = this.samples): Promise<Transcript> {
    calls.finals++;
    const final = {
      utterance: this.utterance,
      text: this.text,
      final: true,
      startSample: this.start,
      endSample: sample,
    };
    for (const listener of this.listeners) listener(final);
    return Promise.resolve(final);
  }

  onTranscript(listener: (t: Transcript) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

const fakeStt = defineSpeechEngine({
  name: 'fake-ear',
  kind: 'stt',
  description: 'hears the same words in every utterance, for tests',
  capabilities: { streaming: false, sampleRates: [16_000], offline: true },
  options: {
    heard: {
      description: 'what it hears',
      type: 'string',
      default: 'I would like some help with my order.',
      valueName: 'text',
    },
  },
  create(settings) {
    const stt: SpeechToText = {
      name: 'fake-ear',
      sampleRate: 16_000,
      check: () => Promise.resolve(),
      openSession: () => {
        calls.sessions++;
        return Promise.resolve(new FixedSession(settings.heard));
      },
      close: () => Promise.resolve(),
    };
    return Promise.resolve(stt);
  },
});

const removals: (() => void)[] = [];
beforeAll(() => {
  removals.push(registerSpeechEngine(fakeTts), registerSpeechEngine(fakeStt));
});
afterAll(() => {
  for (const remove of removals) remove();
});

/** The options `scenaro serve ARGS` would start with. */
async function serveOptions(args: string[]): Promise<ServeOptions> {
  let options: ServeOptions | undefined;
  await serveCommand()
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} })
    .action((flags: ServeOptions) => {
      options = flags;
    })
    .parseAsync(args, { from: 'user' });
  return options!;
}

describe('a speech engine registered at run time', () => {
  it('is a choice of serve and eval, with its options as flags', () => {
    const help = serveCommand().helpInformation().replace(/\s+/g, ' ');
    expect(help).toContain('fake-x (a tone per character, for tests; offline)');
    expect(help).toContain('"fake-x"');
    expect(help).toContain('--fake-x-tone <hz> --tts fake-x: tone of the speech in Hz');
    expect(help).toContain('for --tts fake-x one of a, b (default a)');
    expect(help).toContain('--fake-ear-heard <text>');
    const evalHelp = evalCommand().helpInformation().replace(/\s+/g, ' ');
    expect(evalHelp).toContain('"fake-ear"');
    expect(evalHelp).toMatch(/--user-tts-voice <name> .*--tts fake-x: default b/);
  });

  it('speaks and hears for scenaro serve', async () => {
    calls.synthesized.length = 0;
    const options = await serveOptions([
      ...['--port', '0', '--stt', 'fake-ear', '--tts', 'fake-x'],
      ...['--tts-voice', 'b', '--fake-x-tone', '523', '--audio-pacing', 'fast'],
    ]);
    expect(options).toMatchObject({ stt: 'fake-ear', tts: 'fake-x', fakeXTone: '523' });
    let server: BotServer | undefined;
    let client: RtviClient | undefined;
    try {
      server = await serve(options, () => {});
      client = await RtviClient.connect(server.url);
      await client.handshake();
      client.sendText('Hello there.', { audio_response: true });
      await client.until(() => client!.audio.length > 0, 'the bot speaking', 10_000);
      expect(calls.synthesized.length).toBeGreaterThan(0);
      expect(calls.synthesized[0]).toMatchObject({ voice: 'b', tone: 523, sampleRate: 24_000 });
      // What the bot hears: any speech, through the fake recognizer.
      const chunker = new PcmChunker(512); // 16 ms frames, as a browser sends them
      const speech = concatBytes([...tone('x'.repeat(100), 440, 16_000)]);
      for (const frame of chunker.push(concatBytes([speech, new Uint8Array(64_000)])))
        client.sendAudio(frame);
      const heard = await client.waitFor(
        (m) => m.type === 'user-transcription' && (m.data as { final?: boolean }).final === true,
        'the final transcript',
        { timeoutMs: 5000 },
      );
      expect((heard.data as { text: string }).text).toBe('I would like some help with my order.');
      expect(calls.sessions).toBeGreaterThan(0);
      expect(calls.finals).toBeGreaterThan(0);
    } finally {
      await client?.close();
      await server?.close();
    }
  });

  it('speaks and hears for the local bots of scenaro eval, a voice each', async () => {
    calls.synthesized.length = 0;
    calls.finals = 0;
    const output = mkdtempSync(join(tmpdir(), 'scenaro-eval-plugin-'));
    const options = await evalOptions([
      ...['--mode', 'audio', '--audio-clock', 'fast', '--stt', 'fake-ear', '--tts', 'fake-x'],
      ...['--domain', 'commerce', '--scenarios', 'commerce__browse_air_fryers_only'],
      ...['--max-turns', '2', '--output-dir', output, '--run-id', 'plugin'],
      ...['--data-root', join(output, 'no-tau2-data')],
    ]);
    expect(options.speech).toEqual({
      agent: { stt: 'fake-ear', tts: 'fake-x', ttsVoice: 'a' },
      user: { stt: 'fake-ear', tts: 'fake-x', ttsVoice: 'b' },
    });
    const result = await runEvaluation({ ...options, progressStream: { write: () => true } });
    const voiceOf = (text: RegExp) =>
      new Set(calls.synthesized.filter((c) => text.test(c.text)).map((c) => c.voice));
    // The scripted agent introduces itself; everything else was the user's.
    expect(voiceOf(/automated assistant, not a person/)).toEqual(new Set(['a']));
    expect(new Set(calls.synthesized.map((c) => c.voice))).toEqual(new Set(['a', 'b']));
    // Spoken at the relay's rate, which the engine declares as its own.
    expect(new Set(calls.synthesized.map((c) => c.sampleRate))).toEqual(new Set([16_000]));
    expect(calls.finals).toBeGreaterThanOrEqual(2);
    expectHeardAndRecorded(result, options);
  }, 120_000);
});
