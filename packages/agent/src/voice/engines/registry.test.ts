// The speech-engine registry: the built-in engines and their declarations, engines added and
// removed at run time, option values checked and typed from the declaration, and voices built
// from settings (settings no chosen engine reads refused, per-speaker defaults, rates).
import { afterEach, describe, expect, it } from 'vitest';
import type { TextToSpeech } from '../tts.js';
import { FLITE_VOICES } from './flite/voices.js';
import {
  createSpeechEngine,
  engineSettings,
  findSpeechEngine,
  getSpeechEngine,
  registerSpeechEngine,
  resolveEngineSettings,
  settingOf,
  speechEngines,
} from './registry.js';
import { defineSpeechEngine, SpeechEngineOptionError } from './speech-engine.js';
import type { SpeechEngineContext } from './speech-engine.js';
import { buildSpeechVoice, speakerVoiceSettings } from './voice-settings.js';

const removals: (() => void)[] = [];
afterEach(() => {
  for (const remove of removals.splice(0)) remove();
});

/** A text-to-speech engine that records how it was built and says nothing. */
function recordingTts(name: string, built: { settings: unknown; context: unknown }[]) {
  return defineSpeechEngine({
    name,
    kind: 'tts',
    description: 'a test engine',
    capabilities: { streaming: false, sampleRates: [16_000], offline: true },
    options: {
      voice: {
        description: 'voice',
        type: 'string',
        choices: ['low', 'high'],
        default: 'low',
        setting: 'ttsVoice',
        perSpeaker: true,
        speakerDefaults: ['low', 'high'],
      },
      loudness: { description: 'loudness', type: 'integer', min: 1, max: 10 },
      host: { description: 'where it runs', type: 'url', required: true },
    },
    create(settings, context: SpeechEngineContext) {
      built.push({ settings, context });
      if (settings.loudness === 7)
        return Promise.reject(new SpeechEngineOptionError('loudness', 'seven is unlucky'));
      const tts: TextToSpeech = {
        name,
        sampleRate: context.sampleRate ?? 24_000,
        synthesize: async function* () {},
        close: () => Promise.resolve(),
      };
      return Promise.resolve(tts);
    },
    label: (settings) => `${name}(${settings.voice})`,
  });
}

describe('the built-in speech engines', () => {
  it('are registered in --help order, each with its capabilities and options', () => {
    expect(speechEngines('stt').map((e) => e.name)).toEqual([
      'pocketsphinx',
      'openai',
      'oracle',
      'none',
    ]);
    expect(speechEngines('tts').map((e) => e.name)).toEqual([
      'flite',
      'openai',
      'espeak-ng',
      'none',
    ]);
    for (const engine of speechEngines()) {
      expect(engine.description.length, engine.name).toBeGreaterThan(5);
      expect(typeof engine.capabilities.streaming).toBe('boolean');
      expect(typeof engine.capabilities.offline).toBe('boolean');
      expect(Array.isArray(engine.capabilities.sampleRates)).toBe(true);
    }
    expect(getSpeechEngine('tts', 'openai').capabilities).toEqual({
      streaming: true,
      sampleRates: [24_000],
      offline: false,
    });
    expect(getSpeechEngine('tts', 'espeak-ng').capabilities).toMatchObject({
      sampleRates: [22_050],
      offline: true,
    });
    expect(getSpeechEngine('tts', 'flite').options['voice']?.choices).toEqual(FLITE_VOICES);
  });

  it('name their settings as the command line does, shared where they mean the same', () => {
    const settings = engineSettings();
    expect([...settings.keys()]).toEqual([
      'pocketsphinxArgs',
      'pocketsphinxSpelling',
      'pocketsphinxNice',
      'sttBaseUrl',
      'sttModel',
      'speechApiKeyEnv',
      'sttFault',
      'ttsVoice',
      'ttsBaseUrl',
      'ttsModel',
      'espeakNgRate',
      'espeakNgPitch',
    ]);
    const voiceUsers = settings.get('ttsVoice')!.map((u) => u.engine.name);
    expect(voiceUsers).toEqual(['flite', 'openai', 'espeak-ng']);
    expect(settingOf(getSpeechEngine('stt', 'pocketsphinx'), 'args')).toBe('pocketsphinxArgs');
  });

  it('say which engines there are when one is not', () => {
    expect(findSpeechEngine('stt', 'whisper')).toBeUndefined();
    expect(() => getSpeechEngine('stt', 'whisper')).toThrow(
      "no speech-to-text engine 'whisper'; the engines: pocketsphinx, openai, oracle, none",
    );
  });
});

describe('registering a speech engine', () => {
  it('adds it after the others of its kind until it is removed', () => {
    const engine = recordingTts('test-tone', []);
    removals.push(registerSpeechEngine(engine));
    expect(speechEngines('tts').map((e) => e.name)).toEqual([
      'flite',
      'openai',
      'espeak-ng',
      'none',
      'test-tone',
    ]);
    expect(findSpeechEngine('tts', 'test-tone')).toBe(engine);
    expect(findSpeechEngine('stt', 'test-tone')).toBeUndefined();
    expect(engineSettings().get('testToneLoudness')?.[0]?.engine).toBe(engine);
    expect(() => registerSpeechEngine(recordingTts('test-tone', []))).toThrow(
      "a text-to-speech engine named 'test-tone' is already registered",
    );
    removals.pop()!();
    expect(findSpeechEngine('tts', 'test-tone')).toBeUndefined();
  });

  it('refuses a name or a setting the command line cannot carry', () => {
    expect(() => registerSpeechEngine(recordingTts('Bad Name', []))).toThrow(/lower-case/);
    expect(() => registerSpeechEngine({ ...recordingTts('ok', []), kind: 'ear' as 'tts' })).toThrow(
      /kind must be stt or tts/,
    );
    const reserved = {
      ...recordingTts('reserved', []),
      options: { stop: { description: 'x', type: 'integer', setting: 'vadStopMs' } },
    } as const;
    expect(() => registerSpeechEngine(reserved)).toThrow("'vadStopMs' is a setting of the voice");
  });
});

describe('option values', () => {
  const engine = recordingTts('test-tone', []);

  it('are typed from the declaration, with the defaults filled in', () => {
    expect(
      resolveEngineSettings(engine, { loudness: ' 3 ', host: 'http://127.0.0.1:9/v1' }),
    ).toEqual({ voice: 'low', loudness: 3, host: 'http://127.0.0.1:9/v1' });
    expect(
      resolveEngineSettings(engine, { voice: 'high', loudness: 10, host: 'https://x' }),
    ).toEqual({ voice: 'high', loudness: 10, host: 'https://x' });
  });

  it('are refused, naming the option, when the declaration does not allow them', () => {
    const host = 'http://127.0.0.1:9';
    const cases: [Record<string, string | number>, string][] = [
      [{ host, voice: 'loud' }, "test-tone voice: test-tone has no voice 'loud'; its voices: low, high"],
      [{ host, loudness: '11' }, "test-tone loudness must be an integer from 1 to 10, got '11'"],
      [{ host, loudness: '2.5' }, "test-tone loudness must be an integer from 1 to 10, got '2.5'"],
      [{ host, loudness: '' }, "test-tone loudness must be an integer from 1 to 10, got ''"],
      [{ host: 'localhost:9' }, "test-tone host must be an http(s) URL such as http://127.0.0.1:8000/v1, got 'localhost:9'"],
      [{}, 'tts test-tone needs test-tone host <value> (where it runs)'],
      [{ host, colour: 'red' }, "test-tone has no option 'colour'; its options: voice, loudness, host"],
    ]; // prettier-ignore
    for (const [values, message] of cases)
      expect(() => resolveEngineSettings(engine, values), message).toThrow(message);
  });
});

describe('building engines through the registry', () => {
  it('gives the factory typed settings and the context, and names the option it refuses', async () => {
    const built: { settings: unknown; context: unknown }[] = [];
    removals.push(registerSpeechEngine(recordingTts('test-tone', built)));
    const tts = await createSpeechEngine(
      'tts',
      'test-tone',
      { loudness: '4', host: 'http://h' },
      { sampleRate: 16_000, clock: 'fast' },
    );
    expect(tts?.sampleRate).toBe(16_000);
    expect(built).toEqual([
      {
        settings: { voice: 'low', loudness: 4, host: 'http://h' },
        context: { sampleRate: 16_000, clock: 'fast' },
      },
    ]);
    await expect(
      createSpeechEngine('tts', 'test-tone', { loudness: 7, host: 'http://h' }),
    ).rejects.toThrow('test-tone loudness: seven is unlucky');
    await expect(createSpeechEngine('stt', 'none')).resolves.toBeUndefined();
  });
});

describe('voices from settings', () => {
  it('build the engines the settings name, refusing settings no chosen engine reads', async () => {
    const built: { settings: unknown; context: unknown }[] = [];
    removals.push(registerSpeechEngine(recordingTts('test-tone', built)));
    const flag = (setting: string) =>
      `--${setting.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    const voice = await buildSpeechVoice(
      { stt: 'none', tts: 'test-tone', testToneHost: 'http://h', vadStopMs: '600', ttsNormalize: 'off' },
      { name: flag, preferredSampleRate: 16_000, clock: 'fast' },
    ); // prettier-ignore
    expect(voice.labels).toEqual({ stt: 'none', tts: 'test-tone(low)' });
    expect(voice.voice.stt).toBeUndefined();
    expect(voice.voice.tts?.name).toBe('test-tone');
    expect(voice.voice.vad).toEqual({ stopMs: 600 });
    expect(voice.voice.spokenForm).toBe(false);
    // 16 kHz is one of its own rates: it speaks at it (OpenAI, below, keeps its 24 kHz).
    expect(built[0]?.context).toMatchObject({ sampleRate: 16_000, clock: 'fast' });

    await expect(
      buildSpeechVoice({ stt: 'none', tts: 'none', testToneLoudness: '3' }, { name: flag }),
    ).rejects.toThrow('--test-tone-loudness is used by --tts test-tone only');
    await expect(
      buildSpeechVoice({ stt: 'none', tts: 'none', ttsVoice: 'low' }, { name: flag }),
    ).rejects.toThrow(
      '--tts-voice is used by --tts flite, --tts openai, --tts espeak-ng or --tts test-tone only',
    );
    await expect(buildSpeechVoice({ stt: 'none', tts: 'none', colour: 'red' })).rejects.toThrow(
      'colour: no speech engine has this setting',
    );
    await expect(buildSpeechVoice({ stt: 'none', tts: 'tone' }, { name: flag })).rejects.toThrow(
      "--tts: no text-to-speech engine 'tone'",
    );
    await expect(
      buildSpeechVoice({ stt: 'none', tts: 'test-tone', testToneHost: 'http://h', testToneLoudness: 7 }, { name: flag }),
    ).rejects.toThrow('--test-tone-loudness: seven is unlucky'); // prettier-ignore
    const openai = await buildSpeechVoice(
      { stt: 'none', tts: 'openai', ttsBaseUrl: 'http://127.0.0.1:9/v1' },
      { preferredSampleRate: 16_000 },
    );
    expect(openai.voice.tts?.sampleRate).toBe(24_000);
    expect(openai.labels.tts).toBe('openai(tts-1, alloy at http://127.0.0.1:9/v1)');
    await openai.voice.tts?.close();
  });

  it('give two speakers voices that tell them apart, unless each has its own', () => {
    expect(speakerVoiceSettings({})).toEqual([{ ttsVoice: 'slt' }, { ttsVoice: 'rms' }]);
    expect(speakerVoiceSettings({ tts: 'openai', vadStopMs: '600' })).toEqual([
      { tts: 'openai', vadStopMs: '600', ttsVoice: 'alloy' },
      { tts: 'openai', vadStopMs: '600', ttsVoice: 'echo' },
    ]);
    expect(speakerVoiceSettings({ tts: 'espeak-ng' }, [{ ttsVoice: 'en-029' }])).toEqual([
      { tts: 'espeak-ng', ttsVoice: 'en-029' },
      { tts: 'espeak-ng', ttsVoice: 'en-gb-scotland' },
    ]);
    expect(speakerVoiceSettings({ tts: 'none' }, [undefined, { ttsVoice: 'rms' }])).toEqual([
      { tts: 'none' },
      { tts: 'none', ttsVoice: 'rms' },
    ]);
  });
});
