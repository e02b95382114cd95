/**
 * What the voice bot does with the audio it is sent, over a real socket:
 * other rates, stereo and WAV-prefixed frames are converted and heard;
 * malformed frames and interruption frames never close the session; a bot
 * whose recognizer is not installed says what to install, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Resampler,
  createPocketsphinxSpeechToText,
  encodeWav,
  int16ToPcm16,
  pcm16ToInt16,
  wordErrors,
} from '../src/voice/index.js';
import type { BotServer } from '../src/index.js';
import { encodeFrame } from '@scenaro/sdk/protocol';
import type { RtviClient } from '../src/testing/index.js';
import { listenTestServer, withRtviClient } from './fixtures.js';
import {
  echoConversation,
  finalTranscripts,
  pocketsphinxTests,
  sendStream,
  silence,
  speak,
  useVoiceServer,
} from './voice-fixtures.js';

const { missing, runs } = await pocketsphinxTests('the voice input tests');

/** `pcm` (16 kHz mono) as 48 kHz stereo, both channels equal. */
async function toStereo48k(pcm: Uint8Array): Promise<Uint8Array> {
  const resampler = await Resampler.create({ inputRate: 16_000, outputRate: 48_000 });
  const mono = [...resampler.process(pcm16ToInt16(pcm)), ...resampler.flush()];
  resampler.destroy();
  const stereo = new Int16Array(mono.length * 2);
  mono.forEach((v, i) => {
    stereo[2 * i] = v;
    stereo[2 * i + 1] = v;
  });
  return int16ToPcm16(stereo);
}

function errors(client: RtviClient): string[] {
  return client.messages
    .filter((m) => m.type === 'error')
    .map((m) => (m.data as { error: string }).error);
}

describe.skipIf(!runs)('voice input', () => {
  const suite = useVoiceServer(missing, () => ({
    stt: createPocketsphinxSpeechToText(),
    pacing: 'fast',
    vad: { stopMs: 600 },
  }));
  const said = 'How much would it cost to upgrade to business class?';
  let speech: Uint8Array;

  beforeAll(async () => {
    speech = await speak(suite.tts, said);
  });

  it('hears 48 kHz stereo frames and WAV-prefixed frames', async () => {
    await withRtviClient(suite.server.url, async (client) => {
      const stereo = await toStereo48k(
        new Uint8Array([...silence(400), ...speech, ...silence(1200)]),
      );
      // 20 ms of 48 kHz stereo per frame.
      for (let i = 0; i < stereo.length; i += 3840) {
        client.sendAudio(stereo.subarray(i, i + 3840), 48_000, 2);
      }
      await client.until(
        () => finalTranscripts(client).length === 1,
        'the first transcript',
        30_000,
      );
      // The same speech as one-chunk WAV files, as a Python client may send them.
      const mono = new Uint8Array([...speech, ...silence(1200)]);
      for (let i = 0; i < mono.length; i += 3200) {
        const wav = encodeWav({ pcm: mono.subarray(i, i + 3200), sampleRate: 16_000, channels: 1 });
        client.sendAudio(wav, 16_000, 1);
      }
      await client.until(
        () => finalTranscripts(client).length === 2,
        'the second transcript',
        30_000,
      );
      for (const heard of finalTranscripts(client)) {
        expect(wordErrors(said, heard).wer).toBeLessThanOrEqual(0.35);
      }
      expect(errors(client)).toEqual([]);
    });
  }, 60_000);

  it('answers a malformed audio frame with one error and keeps the session', async () => {
    await withRtviClient(suite.server.url, async (client) => {
      sendStream(client, silence(200));
      client.sendAudio(new Uint8Array(511)); // not whole samples
      client.sendAudio(new Uint8Array(512), 1234, 1); // a rate nobody records at
      client.sendAudio(new Uint8Array(510), 16_000, 3); // not whole 3-channel frames either
      client.sendRaw(encodeFrame({ kind: 'interruption' }));
      client.sendRaw(encodeFrame({ kind: 'text', text: 'stray text frame' }));
      await client.until(() => errors(client).length > 0, 'an error');
      // The session goes on hearing.
      sendStream(client, speech, silence(1200));
      await client.until(() => finalTranscripts(client).length === 1, 'a transcript', 30_000);
      expect(errors(client)).toEqual([
        'Audio frame not heard: audio frame holds 511 bytes, not a whole number of 1-channel 16-bit samples',
      ]);
      expect(client.closed).toBeUndefined();
      const summary = await client.call<{ db_hash: unknown }>('get_scenario_summary');
      expect(summary).toHaveProperty('db_hash');
    });
  }, 60_000);
});

describe('voice input without a recognizer installed', () => {
  let server: BotServer;

  beforeAll(async () => {
    server = await listenTestServer({
      conversation: echoConversation,
      voice: {
        stt: createPocketsphinxSpeechToText({ binary: '/nonexistent/pocketsphinx_continuous' }),
        pacing: 'fast',
      },
    });
  });
  afterAll(() => server?.close());

  it('says once what to install, and still answers text', async () => {
    await withRtviClient(server.url, async (client) => {
      sendStream(client, silence(2000));
      await client.until(() => errors(client).length > 0, 'an error');
      sendStream(client, silence(2000));
      client.sendText('Hello');
      await client.waitFor(
        (m) =>
          m.type === 'server-message' && (m.data as { type?: string }).type === 'turn-complete',
        'the reply to text',
      );
      const said = errors(client);
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/^Speech input is unavailable: PocketSphinx is not installed/);
      expect(said[0]).toMatch(/apt-get install pocketsphinx pocketsphinx-en-us/);
      const error = client.messages.find((m) => m.type === 'error')!;
      expect((error.data as { fatal: boolean }).fatal).toBe(false);
    });
  });
});
