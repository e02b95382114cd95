// `scenaro eval --mode audio` takes the serve command's voice flags for its local bots, a voice
// per bot: the flags become the run's speech settings (recorded with it), are refused where they
// do not apply, and the engines they choose (built through the speech-engine registry) are the
// ones the local bots speak and hear with.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIAudioTestServer } from '@scenaro/agent/testing';
import type { OpenAIAudioTestServer } from '@scenaro/agent/testing';
import { localVoices, runEvaluation } from '@scenaro/eval';
import type { BotSide } from '@scenaro/eval';
import { evalOptions, expectHeardAndRecorded } from './eval-options.js';

let audio: OpenAIAudioTestServer;
beforeAll(async () => {
  audio = await startOpenAIAudioTestServer();
});
afterAll(async () => {
  await audio?.close();
});

/** Both engines OpenAI-compatible, at the local test server. */
const openAIArgs = () => [
  ...['--stt', 'openai', '--stt-base-url', audio.baseURL],
  ...['--tts', 'openai', '--tts-base-url', audio.baseURL],
];

describe('scenaro eval voice flags', () => {
  it('leave the offline engines to the runner when none is given', async () => {
    const options = await evalOptions(['--mode', 'audio', '--audio-clock', 'fast']);
    expect(options.speech).toBeUndefined();
  });

  it("become speech settings: the engine flags for both bots, each bot's own voice", async () => {
    const flite = await evalOptions(['--mode', 'audio', '--vad-stop-ms', '600']);
    expect(flite.speech).toEqual({
      agent: { vadStopMs: '600', ttsVoice: 'slt' },
      user: { vadStopMs: '600', ttsVoice: 'rms' },
    });
    const written = await evalOptions(['--mode', 'audio', '--tts-normalize', 'off']);
    expect(written.speech).toEqual({
      agent: { ttsNormalize: 'off', ttsVoice: 'slt' },
      user: { ttsNormalize: 'off', ttsVoice: 'rms' },
    });
    const openai = await evalOptions([
      ...['--mode', 'audio', ...openAIArgs(), '--agent-tts-voice', 'nova'],
      ...['--stt-model', 'test-whisper', '--speech-api-key-env', 'TEST_KEY'],
    ]);
    const engines = {
      stt: 'openai',
      sttBaseUrl: audio.baseURL,
      sttModel: 'test-whisper',
      tts: 'openai',
      ttsBaseUrl: audio.baseURL,
      speechApiKeyEnv: 'TEST_KEY',
    };
    expect(openai.speech).toEqual({
      agent: { ...engines, ttsVoice: 'nova' },
      user: { ...engines, ttsVoice: 'echo' },
    });
    // Built through the speech-engine registry: Flite speaks at the rate the relay takes.
    const deaf = (side: BotSide) => ({ ...flite.speech![side], stt: 'none' });
    const voices = await localVoices('fast', undefined, {
      agent: deaf('agent'),
      user: deaf('user'),
    });
    expect(voices.user.vad).toEqual({ stopMs: 600 });
    expect(voices.user.tts?.name).toBe('flite');
    expect(voices.user.tts?.sampleRate).toBe(16_000);
    await Promise.all([voices.agent.tts?.close(), voices.user.tts?.close()]);
    const faster = await evalOptions([
      '--mode',
      'audio',
      '--pocketsphinx-args',
      '-ds 2 -fwdflat no',
    ]);
    expect(faster.speech).toEqual({
      agent: { pocketsphinxArgs: '-ds 2 -fwdflat no', ttsVoice: 'slt' },
      user: { pocketsphinxArgs: '-ds 2 -fwdflat no', ttsVoice: 'rms' },
    });
    const silent = await evalOptions(['--mode', 'audio', '--stt', 'none', '--tts', 'none']);
    expect(silent.speech).toEqual({
      agent: { stt: 'none', tts: 'none' },
      user: { stt: 'none', tts: 'none' },
    });
  });

  it('refuse to apply where they cannot, naming the flag', async () => {
    await expect(evalOptions(['--stt', 'none'])).rejects.toThrow('--stt needs --mode audio');
    await expect(evalOptions(['--user-tts-voice', 'awb'])).rejects.toThrow(
      '--user-tts-voice needs --mode audio',
    );
    await expect(
      evalOptions([
        ...['--mode', 'audio', '--tts', 'openai', '--tts-base-url', audio.baseURL],
        ...['--agent-url', 'ws://127.0.0.1:1', '--user-url', 'ws://127.0.0.1:2'],
      ]),
    ).rejects.toThrow(/--tts is for the local bots/);
    // The registry's checks, with the eval command's flag names.
    const flite = await evalOptions(['--mode', 'audio', '--agent-tts-voice', 'alloy']);
    await expect(localVoices('fast', undefined, flite.speech)).rejects.toThrow(
      "--agent-tts-voice: flite has no voice 'alloy'",
    );
    const none = await evalOptions(['--mode', 'audio', '--tts', 'none', '--user-tts-voice', 'rms']);
    await expect(localVoices('fast', undefined, none.speech)).rejects.toThrow(
      '--user-tts-voice is used by --tts flite, --tts openai or --tts espeak-ng only',
    );
    const deaf = await evalOptions(['--mode', 'audio', '--stt', 'pocketsphinx']);
    // No PATH: `pocketsphinx_continuous` cannot be found, whether it is installed or not.
    const path = process.env['PATH'];
    process.env['PATH'] = '';
    try {
      await expect(localVoices('fast', undefined, deaf.speech)).rejects.toThrow(
        /the agent bot's voice input is off: PocketSphinx is not installed/,
      );
    } finally {
      process.env['PATH'] = path;
    }
  });

  it('give the local bots the oracle ear and its fault, only in audio mode and for local bots', async () => {
    const oracle = await evalOptions([
      '--mode',
      'audio',
      '--stt',
      'oracle',
      '--stt-fault',
      'swap-digit',
    ]);
    expect(oracle.speech).toEqual({
      agent: { stt: 'oracle', sttFault: 'swap-digit', ttsVoice: 'slt' },
      user: { stt: 'oracle', sttFault: 'swap-digit', ttsVoice: 'rms' },
    });
    const voices = await localVoices('fast', undefined, oracle.speech);
    try {
      expect(voices.agent.stt?.toldText).toBe(true);
      expect(voices.user.stt?.toldText).toBe(true);
    } finally {
      await Promise.allSettled(
        [voices.agent, voices.user].flatMap((v) => [v.stt?.close(), v.tts?.close()]),
      );
    }
    await expect(
      evalOptions([
        ...['--mode', 'audio', '--stt', 'oracle'],
        ...['--agent-url', 'ws://127.0.0.1:1', '--user-url', 'ws://127.0.0.1:2'],
      ]),
    ).rejects.toThrow(
      '--stt is for the local bots; the bots at --agent-url/--user-url have their own voices',
    );
    await expect(evalOptions(['--stt', 'oracle'])).rejects.toThrow('--stt needs --mode audio');
    const wrong = await evalOptions(['--mode', 'audio', '--stt', 'oracle', '--stt-fault', 'drop']);
    await expect(localVoices('fast', undefined, wrong.speech)).rejects.toThrow(
      "--stt-fault: oracle has no hearing fault 'drop'; its hearing faults: swap-digit",
    );
    const unused = await evalOptions(['--mode', 'audio', '--stt-fault', 'swap-digit']);
    await expect(localVoices('fast', undefined, unused.speech)).rejects.toThrow(
      '--stt-fault is used by --stt oracle only',
    );
  });

  it('reach the local bots: each speaks with its own voice and hears through the endpoint', async () => {
    const output = mkdtempSync(join(tmpdir(), 'scenaro-eval-voice-'));
    audio.transcribe = () => 'I would like some help with my order.';
    const options = await evalOptions([
      ...['--mode', 'audio', '--audio-clock', 'fast', ...openAIArgs()],
      ...['--agent-tts-voice', 'nova', '--user-tts-voice', 'onyx'],
      ...['--domain', 'commerce', '--scenarios', 'commerce__browse_air_fryers_only'],
      ...['--max-turns', '2', '--output-dir', output, '--run-id', 'voices'],
      ...['--data-root', join(output, 'no-tau2-data')],
    ]);
    const result = await runEvaluation({ ...options, progressStream: { write: () => true } });
    const speech = audio.requests.filter((r) => r.path.endsWith('/audio/speech'));
    const voiceOf = (text: RegExp) =>
      new Set(
        speech.filter((r) => text.test(String(r.fields['input']))).map((r) => r.fields['voice']),
      );
    // The scripted agent introduces itself; everything else was the user's.
    expect(voiceOf(/automated assistant, not a person/)).toEqual(new Set(['nova']));
    expect(new Set(speech.map((r) => r.fields['voice']))).toEqual(new Set(['nova', 'onyx']));
    const transcriptions = audio.requests.filter((r) => r.path.endsWith('/audio/transcriptions'));
    expect(transcriptions.length).toBeGreaterThanOrEqual(2);
    expectHeardAndRecorded(result, options);
  }, 120_000);
});
