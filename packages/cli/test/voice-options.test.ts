// `scenaro serve` voice flags as the bot server's VoiceOptions: parsing, defaults, validation
// errors that name the flag, the engines built from them, and their closing with the server.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VAD_STOP_MS, FLITE_VOICES, synthesizeAll } from '@scenaro/agent/voice';
import type { PocketsphinxOptions, SpeechToText, TextToSpeech } from '@scenaro/agent/voice';
import { startOpenAIAudioTestServer } from '@scenaro/agent/testing';
import type { OpenAIAudioTestServer } from '@scenaro/agent/testing';
import { serveCommand } from '../src/commands/serve.js';
import { buildVoiceOptions, closeVoiceWithServer } from '../src/voice.js';
import { addVoiceOptions } from '../src/voice-flags.js';
import type { VoiceFlags } from '../src/voice-flags.js';

/** The voice flags of `args` as commander parses them for `serve`. */
function parse(args: string[]): VoiceFlags {
  const command = addVoiceOptions(new Command('serve'))
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} });
  command.parse(args, { from: 'user' });
  return command.opts<VoiceFlags>();
}

/** The Debian PocketSphinx, which checks its options itself (CI installs it). */
const realPocketsphinx = existsSync('/usr/bin/pocketsphinx_continuous');
if (!realPocketsphinx)
  console.warn('voice-options: no /usr/bin/pocketsphinx_continuous, skipping its option check');
const readLines = (file: string): string[] =>
  existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];

let tmp: string;
/** A PocketSphinx install `check()` accepts: an executable and the model files. */
let installed: PocketsphinxOptions;
const missing: PocketsphinxOptions = { binary: '/nonexistent/pocketsphinx_continuous' };
let audio: OpenAIAudioTestServer;
/** Both engines OpenAI-compatible, at the local test server. */
const openAIArgs = () => [
  ...['--stt', 'openai', '--stt-base-url', audio.baseURL],
  ...['--tts', 'openai', '--tts-base-url', audio.baseURL],
];

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'scenaro-voice-'));
  const binary = join(tmp, 'pocketsphinx_continuous');
  writeFileSync(binary, '#!/bin/sh\n');
  chmodSync(binary, 0o755);
  mkdirSync(join(tmp, 'en-us'));
  writeFileSync(join(tmp, 'en-us.lm.bin'), '');
  writeFileSync(join(tmp, 'cmudict-en-us.dict'), '');
  installed = {
    binary,
    hmm: join(tmp, 'en-us'),
    lm: join(tmp, 'en-us.lm.bin'),
    dict: join(tmp, 'cmudict-en-us.dict'),
  };
  audio = await startOpenAIAudioTestServer();
});

afterAll(async () => {
  await audio?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('scenaro serve voice flags', () => {
  it('default to pocketsphinx, flite (slt), the server VAD and real-time pacing', async () => {
    const flags = parse([]);
    expect(flags).toEqual({ tts: 'flite', audioPacing: 'realtime' });
    const setup = await buildVoiceOptions(flags, { pocketsphinx: installed });
    expect(setup.voice.stt?.name).toBe('pocketsphinx');
    expect(setup.voice.tts?.name).toBe('flite');
    expect(setup.voice.pacing).toBe('realtime');
    expect(setup.voice.vad).toBeUndefined();
    expect(setup.voice.spokenForm).toBeUndefined(); // the bot's default: said as a person would
    expect(setup.warnings).toEqual([]);
    expect(setup.summary).toBe(
      `voice: stt=pocketsphinx tts=flite(slt) vad-stop=${DEFAULT_VAD_STOP_MS}ms pacing=realtime`,
    );
    await setup.voice.tts?.close();
  });

  it('keeps a missing PocketSphinx, warns that voice input is off and what to install', async () => {
    for (const args of [[], ['--stt', 'pocketsphinx']]) {
      const setup = await buildVoiceOptions(parse(args), { pocketsphinx: missing });
      // The server answers audio with the engine's own error, naming the packages.
      expect(setup.voice.stt?.name).toBe('pocketsphinx');
      await expect(setup.voice.stt?.check()).rejects.toThrow(/pocketsphinx-en-us/);
      expect(setup.warnings).toHaveLength(1);
      expect(setup.warnings[0]).toMatch(/^voice input is off: PocketSphinx is not installed/);
      expect(setup.warnings[0]).toMatch(/apt-get install pocketsphinx pocketsphinx-en-us/);
      expect(setup.summary).toMatch(/^voice: stt=pocketsphinx\(not installed\) tts=flite\(slt\)/);
    }
  });

  it('turns the engines off with none, and takes the stop window, pacing and flite voice', async () => {
    const setup = await buildVoiceOptions(
      parse([
        '--stt',
        'none',
        '--tts',
        'flite',
        '--tts-voice',
        'kal16',
        '--vad-stop-ms',
        '1200',
        '--audio-pacing',
        'fast',
      ]),
    );
    expect(setup.voice.stt).toBeUndefined();
    expect(setup.voice.tts?.name).toBe('flite');
    expect(setup.voice.vad).toEqual({ stopMs: 1200 });
    expect(setup.voice.pacing).toBe('fast');
    expect(setup.warnings).toEqual([]);
    expect(setup.summary).toBe('voice: stt=none tts=flite(kal16) vad-stop=1200ms pacing=fast');

    const written = await buildVoiceOptions(
      parse(['--stt', 'none', '--tts', 'none', '--tts-normalize', 'off']),
    );
    expect(written.voice.spokenForm).toBe(false);
    expect(written.summary).toMatch(/ tts-normalize=off$/);
    expect(() => parse(['--tts-normalize', 'maybe'])).toThrow();

    const silent = await buildVoiceOptions(parse(['--stt', 'none', '--tts', 'none']));
    expect(silent.voice).toEqual({ pacing: 'realtime' });
    expect(silent.summary).toBe(
      `voice: stt=none tts=none vad-stop=${DEFAULT_VAD_STOP_MS}ms pacing=realtime`,
    );
  });

  it('builds OpenAI-compatible engines that call the given endpoints, models, voice and key', async () => {
    process.env['SCENARO_TEST_SPEECH_KEY'] = 'sk-speech-test';
    const setup = await buildVoiceOptions(
      parse([
        ...openAIArgs(),
        '--stt-model',
        'test-whisper',
        '--tts-model',
        'test-tts',
        '--tts-voice',
        'nova',
        '--speech-api-key-env',
        'SCENARO_TEST_SPEECH_KEY',
      ]),
    );
    delete process.env['SCENARO_TEST_SPEECH_KEY'];
    expect(setup.summary).toBe(
      `voice: stt=openai(test-whisper at ${audio.baseURL}) ` +
        `tts=openai(test-tts, nova at ${audio.baseURL}) ` +
        `vad-stop=${DEFAULT_VAD_STOP_MS}ms pacing=realtime`,
    );
    const { stt, tts } = setup.voice as { stt: SpeechToText; tts: TextToSpeech };
    expect((await synthesizeAll(tts, 'Hello there.')).length).toBeGreaterThan(0);
    const session = await stt.openSession();
    await session.write(new Uint8Array(16_000));
    session.startUtterance();
    await session.write(new Uint8Array(16_000));
    expect((await session.endUtterance()).text).toBe('hello world');
    await session.close();

    const speech = audio.requests.find((r) => r.path === '/v1/audio/speech');
    const transcription = audio.requests.find((r) => r.path === '/v1/audio/transcriptions');
    expect(speech?.fields).toMatchObject({
      model: 'test-tts',
      voice: 'nova',
      input: 'Hello there.',
    });
    expect(transcription?.fields).toMatchObject({ model: 'test-whisper' });
    for (const request of [speech, transcription])
      expect(request?.headers.authorization).toBe('Bearer sk-speech-test');
  });

  it('uses the default OpenAI models and voice when none is given', async () => {
    const setup = await buildVoiceOptions(parse(openAIArgs()));
    expect(setup.summary).toContain(`stt=openai(whisper-1 at ${audio.baseURL})`);
    expect(setup.summary).toContain(`tts=openai(tts-1, alloy at ${audio.baseURL})`);
  });

  it('refuses the oracle ear: only the evaluation tells a bot what was said', async () => {
    await expect(buildVoiceOptions(parse(['--stt', 'oracle']))).rejects.toThrow(
      /^--stt oracle: it is told what the other bot said by the evaluation's bridge: only the local bots of `scenaro eval --mode audio` can use it$/,
    );
    await expect(
      buildVoiceOptions(parse(['--stt', 'none', '--stt-fault', 'swap-digit'])),
    ).rejects.toThrow('--stt-fault is used by --stt oracle only');
  });

  it('refuses a choice that is not offered', () => {
    expect(() => parse(['--stt', 'whisper'])).toThrow(
      "option '--stt <engine>' argument 'whisper' is invalid. Allowed choices are pocketsphinx, openai, oracle, none.",
    );
    expect(() => parse(['--tts', 'espeak'])).toThrow(/argument 'espeak' is invalid/);
    expect(() => parse(['--audio-pacing', 'slow'])).toThrow('Allowed choices are realtime, fast.');
  });

  it('refuses an OpenAI engine without its base URL, naming the flag', async () => {
    await expect(buildVoiceOptions(parse(['--stt', 'openai']))).rejects.toThrow(
      '--stt openai needs --stt-base-url <url>',
    );
    await expect(buildVoiceOptions(parse(['--stt', 'none', '--tts', 'openai']))).rejects.toThrow(
      '--tts openai needs --tts-base-url <url>',
    );
    await expect(
      buildVoiceOptions(parse(['--stt', 'openai', '--stt-base-url', 'localhost:8000'])),
    ).rejects.toThrow(
      "--stt-base-url must be an http(s) URL such as http://127.0.0.1:8000/v1, got 'localhost:8000'",
    );
  });

  it('refuses a --vad-stop-ms that is not a positive integer', async () => {
    for (const value of ['0', '-5', '1.5', 'abc', '']) {
      await expect(
        buildVoiceOptions(parse(['--stt', 'none', '--vad-stop-ms', value])),
      ).rejects.toThrow(`--vad-stop-ms must be an integer >= 1, got '${value}'`);
    }
  });

  it('refuses a flite voice it does not have, listing its voices', async () => {
    await expect(
      buildVoiceOptions(parse(['--stt', 'none', '--tts-voice', 'alloy'])),
    ).rejects.toThrow(
      `--tts-voice: flite has no voice 'alloy'; its voices: ${FLITE_VOICES.join(', ')}`,
    );
  });

  it('refuses flags the chosen engines do not use', async () => {
    const cases: [string[], string][] = [
      [['--stt-base-url', audio.baseURL], '--stt-base-url is used by --stt openai only'],
      [['--stt', 'none', '--stt-model', 'x'], '--stt-model is used by --stt openai only'],
      [['--tts-base-url', audio.baseURL], '--tts-base-url is used by --tts openai only'],
      [['--tts-model', 'x'], '--tts-model is used by --tts openai only'],
      [
        ['--tts', 'none', '--tts-voice', 'slt'],
        '--tts-voice is used by --tts flite, --tts openai or --tts espeak-ng only',
      ],
    ];
    for (const [args, message] of cases) {
      await expect(buildVoiceOptions(parse(args), { pocketsphinx: missing })).rejects.toThrow(
        message,
      );
    }
  });

  it('pass --pocketsphinx-args to every recognizer, over the defaults of the same name', async () => {
    // A recognizer that records its command line and reads its input to the end.
    const log = join(tmp, 'pocketsphinx-args.log');
    const binary = join(tmp, 'recording_pocketsphinx');
    writeFileSync(binary, `#!/bin/sh\necho "$*" >> '${log}'\nexec cat > /dev/null\n`);
    chmodSync(binary, 0o755);
    const setup = await buildVoiceOptions(
      parse(['--pocketsphinx-args', ' -ds 2  -fwdflat no -maxwpf 5 -dither no']),
      { pocketsphinx: { ...installed, binary, poolSize: 0 } },
    );
    expect(setup.warnings).toEqual([]);
    expect(setup.summary).toMatch(
      /^voice: stt=pocketsphinx\(-ds 2 -fwdflat no -maxwpf 5 -dither no\) /,
    );
    const session = await setup.voice.stt!.openSession();
    await expect.poll(() => readLines(log).length, { timeout: 10_000 }).toBe(2);
    await session.close();
    await setup.voice.stt!.close();
    await setup.voice.tts?.close();
    const [checked, started] = readLines(log);
    // The options are checked once, on no input, then every recognizer runs with them.
    expect(checked).toContain('-infile /dev/null');
    expect(started).toContain('-infile /dev/stdin');
    for (const line of [checked!, started!]) {
      expect(line).toMatch(
        / -seed 1 -vad_threshold 3\.0 -maxhmmpf 5000 -ds 2 -fwdflat no -maxwpf 5 -dither no$/,
      );
      expect(line).not.toContain('-maxwpf 10');
      expect(line).not.toContain('-dither yes');
    }
  });

  it('run the recognizers at nice 10, $SCENARO_RECOGNIZER_NICE or --pocketsphinx-nice', async () => {
    /**
     * The nice value a recognizer runs at with `args`: it records it once its first audio came
     * (its priority is set right after it starts, before any audio is passed on).
     */
    const niceOf = async (args: string[]): Promise<string | undefined> => {
      const dir = mkdtempSync(join(tmp, 'nice-'));
      const log = join(dir, 'nice.log');
      const binary = join(dir, 'pocketsphinx_continuous');
      writeFileSync(
        binary,
        `#!/bin/sh\nhead -c 2 > /dev/null\necho "$(nice) $*" >> '${log}'\nexec cat > /dev/null\n`,
      );
      chmodSync(binary, 0o755);
      const setup = await buildVoiceOptions(parse(args), {
        pocketsphinx: { ...installed, binary, poolSize: 0 },
      });
      const session = await setup.voice.stt!.openSession();
      await session.write(new Uint8Array(320));
      const started = () => readLines(log).find((line) => line.includes('-infile /dev/stdin'));
      await expect.poll(started, { timeout: 10_000 }).toBeDefined();
      await session.close();
      await setup.voice.stt!.close();
      await setup.voice.tts?.close();
      return started()!.split(' ')[0];
    };
    const fromEnv = process.env['SCENARO_RECOGNIZER_NICE']; // the suite's own setting
    try {
      delete process.env['SCENARO_RECOGNIZER_NICE'];
      expect(await niceOf([])).toBe('10');
      expect(await niceOf(['--pocketsphinx-nice', '0'])).toBe('0');
      process.env['SCENARO_RECOGNIZER_NICE'] = '3';
      expect(await niceOf([])).toBe('3');
      expect(await niceOf(['--pocketsphinx-nice', '5'])).toBe('5');
      process.env['SCENARO_RECOGNIZER_NICE'] = 'low';
      await expect(buildVoiceOptions(parse([]), { pocketsphinx: installed })).rejects.toThrow(
        "$SCENARO_RECOGNIZER_NICE must be a nice value from 0 to 19, got 'low'",
      );
    } finally {
      if (fromEnv === undefined) delete process.env['SCENARO_RECOGNIZER_NICE'];
      else process.env['SCENARO_RECOGNIZER_NICE'] = fromEnv;
    }
    await expect(
      buildVoiceOptions(parse(['--pocketsphinx-nice', '20']), { pocketsphinx: installed }),
    ).rejects.toThrow(/--pocketsphinx-nice/);
  });

  it('refuses --pocketsphinx-args it cannot pass, naming the flag and the option', async () => {
    const cases: [string, string][] = [
      ['-ds', '--pocketsphinx-args: PocketSphinx options: -ds has no value'],
      ['ds 2', "expected an option name such as -ds, got 'ds'"],
      ['-ds 2 -fwdflat', '-fwdflat has no value'],
      ['-lm my.lm', '-lm is set by the recognizer itself'],
      ['-infile x.wav', '-infile is set by the recognizer itself'],
    ];
    for (const [args, message] of cases) {
      await expect(
        buildVoiceOptions(parse(['--pocketsphinx-args', args]), { pocketsphinx: installed }),
      ).rejects.toThrow(message);
    }
    await expect(
      buildVoiceOptions(parse(['--stt', 'none', '--pocketsphinx-args', '-ds 2']), {
        pocketsphinx: installed,
      }),
    ).rejects.toThrow('--pocketsphinx-args is used by --stt pocketsphinx only');
  });

  it.skipIf(!realPocketsphinx)(
    'refuses an option or value the installed PocketSphinx does not take, before serving',
    async () => {
      const cases: [string, RegExp][] = [
        ['-bogus 1', /^--pocketsphinx-args: PocketSphinx refused .*Unknown argument name '-bogus'/],
        ['-ds two', /^--pocketsphinx-args: PocketSphinx refused .*Bad argument value for -ds: two/],
      ];
      for (const [args, message] of cases) {
        await expect(buildVoiceOptions(parse(['--pocketsphinx-args', args]))).rejects.toThrow(
          message,
        );
      }
      const setup = await buildVoiceOptions(parse(['--pocketsphinx-args', '-ds 2 -fwdflat no']));
      expect(setup.warnings).toEqual([]);
      await setup.voice.stt?.close();
      await setup.voice.tts?.close();
    },
  );

  it('lists in serve --help every flite voice and the default stop window', () => {
    const help = serveCommand().helpInformation().replace(/\s+/g, ' ');
    expect(help).toContain(`flite one of ${FLITE_VOICES.join(', ')}`);
    expect(help).toContain(`(default ${DEFAULT_VAD_STOP_MS})`);
  });
});

describe('the voice engines of scenaro serve', () => {
  it('close after the server has closed', async () => {
    const events: string[] = [];
    const close = (name: string) => () => {
      events.push(`${name} closed`);
      return Promise.resolve();
    };
    const unused = () => Promise.reject(new Error('not used here'));
    const stt: SpeechToText = {
      name: 'stt',
      sampleRate: 16_000,
      check: unused,
      openSession: unused,
      close: close('stt'),
    };
    const tts: TextToSpeech = {
      name: 'tts',
      sampleRate: 24_000,
      synthesize: () => ({ [Symbol.asyncIterator]: () => ({ next: unused }) }),
      close: close('tts'),
    };
    const server = {
      close: () => {
        events.push('server closed');
        return Promise.resolve();
      },
    };
    const voice = { stt, tts };
    await closeVoiceWithServer(server, voice).close();
    expect(events).toEqual(['server closed', 'stt closed', 'tts closed']);
  });
});
