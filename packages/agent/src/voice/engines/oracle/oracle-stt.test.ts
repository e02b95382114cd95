// The oracle recognizer: built through the registry as the CLI builds it, it hears exactly the
// texts it is told, on the audio's timeline (a real WebRTC VAD on Flite speech starts and ends
// the utterances), written as a recognizer writes them; its one fault, swap-digit, mishears one
// digit of every number, always the same way and never as the digit said.
import { afterAll, describe, expect, it } from 'vitest';
import { PcmChunker } from '../../audio/chunker.js';
import { createWebRtcVad } from '../../audio/fvad-vad.js';
import { msToSamples, silencePcm16 } from '../../audio/pcm.js';
import { speak } from '../../../testing/voice-checks.js';
import type { SpeechToText, SttSession, Transcript } from '../../stt.js';
import { UserListener } from '../../user-listener.js';
import { createFliteTextToSpeech } from '../flite/flite-tts.js';
import { createSpeechEngine, getSpeechEngine } from '../registry.js';
import { buildSpeechVoice } from '../voice-settings.js';
import { ORACLE_FAULTS } from './engine.js';
import {
  HEARING_FAULT_TRANSFORMS,
  oracleHears,
  recognizerWords,
  spokenNumbers,
  swapDigit,
} from './hearing.js';

const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

async function oracle(fault?: string): Promise<SpeechToText> {
  const stt = await createSpeechEngine('stt', 'oracle', fault === undefined ? {} : { fault });
  if (!stt) throw new Error('no oracle');
  return stt;
}

describe('the oracle engine in the registry', () => {
  it('is an offline, streaming recognizer told what was said, with a fault option', async () => {
    const engine = getSpeechEngine('stt', 'oracle');
    expect(engine.capabilities).toEqual({ streaming: true, sampleRates: [16_000], offline: true });
    expect(engine.label?.({})).toBe('oracle');
    expect(engine.label?.({ fault: 'swap-digit' })).toBe('oracle(swap-digit)');
    const stt = await oracle('swap-digit');
    expect(stt.toldText).toBe(true);
    expect(stt.sampleRate).toBe(16_000);
    await expect(stt.check()).resolves.toBeUndefined();
    // The faults it declares are the faults it has.
    expect([...ORACLE_FAULTS].sort()).toEqual(Object.keys(HEARING_FAULT_TRANSFORMS).sort());
  });

  it('refuses an unknown fault, listing the faults, and is only for evaluation voices', async () => {
    await expect(oracle('drop-words')).rejects.toThrow(
      "oracle fault: oracle has no hearing fault 'drop-words'; its hearing faults: swap-digit",
    );
    const flag = (setting: string) =>
      `--${setting.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    await expect(buildSpeechVoice({ stt: 'oracle', tts: 'none' }, { name: flag })).rejects.toThrow(
      /^--stt oracle: it is told what the other bot said .*scenaro eval --mode audio/,
    );
    await expect(
      buildSpeechVoice(
        { stt: 'pocketsphinx', tts: 'none', sttFault: 'swap-digit' },
        { name: flag, check: false },
      ),
    ).rejects.toThrow('--stt-fault is used by --stt oracle only');
    const built = await buildSpeechVoice(
      { stt: 'oracle', tts: 'none', sttFault: 'swap-digit' },
      { name: flag, evaluation: true },
    );
    expect(built.labels.stt).toBe('oracle(swap-digit)');
    expect(built.voice.stt?.toldText).toBe(true);
  });
});

describe('what the oracle hears of what was said', () => {
  it.each([
    [
      'Hi. I want to cancel reservation E, H, G, L, P, three.',
      'hi i want to cancel reservation e h g l p three',
    ],
    ['It may be more than twenty-four hours.', 'it may be more than twenty four hours'],
    ["That's all, thank you!", "that's all thank you"],
    [
      'My user id is raj_sanchez_7340.',
      'my user id is raj sanchez seven thousand three hundred forty',
    ],
    ['Reservation EHGLP3, please.', 'reservation e h g l p three please'],
    [
      'The total is 1,234.50 dollars.',
      'the total is one thousand two hundred thirty four point five zero dollars',
    ],
  ])('%j is heard as %j', (said, heard) => {
    expect(recognizerWords(said).join(' ')).toBe(heard);
    expect(oracleHears(said)).toBe(heard);
  });

  it('finds the numbers: runs of digit words, and the digits of spelled codes', () => {
    const words = (text: string) => text.split(' ');
    expect(spokenNumbers(words('my pin is nine nine five seven thanks'))).toEqual([
      { start: 3, end: 7, digits: [3, 4, 5, 6] },
    ]);
    // A code: its letters belong to the number, a digit word inside it too.
    expect(spokenNumbers(words('cancel e h g l p three now'))).toEqual([
      { start: 1, end: 7, digits: [6] },
    ]);
    expect(spokenNumbers(words('spelled echo hotel golf lima papa three'))).toEqual([
      { start: 1, end: 7, digits: [6] },
    ]);
    // Digit words apart are numbers of their own; "underscore" ends a run.
    expect(spokenNumbers(words('one bag and two seats'))).toEqual([
      { start: 0, end: 1, digits: [0] },
      { start: 3, end: 4, digits: [3] },
    ]);
    expect(spokenNumbers(words('raj underscore sanchez underscore seven three four zero'))).toEqual(
      [{ start: 4, end: 8, digits: [4, 5, 6, 7] }],
    );
    expect(spokenNumbers(words('no numbers here at all'))).toEqual([]);
  });

  it.each([
    ['my user id is raj underscore sanchez underscore seven three four zero'],
    ['cancel reservation e h g l p three please'],
    ['spelled juliet mike oscar one mike golf'],
    ['x e h m four b and five nine x x six w'],
    ['call nine nine five seven or one two three'],
  ])('swap-digit changes one digit of every number in %j', (heard) => {
    const words = heard.split(' ');
    const swapped = swapDigit(words);
    const numbers = spokenNumbers(words);
    expect(numbers.length).toBeGreaterThan(0);
    for (const { digits } of numbers) {
      const changed = digits.filter((i) => swapped[i] !== words[i]);
      expect(changed).toHaveLength(1);
      expect(DIGITS).toContain(swapped[changed[0]!]);
    }
    // Nothing but digits changes, and the same words are always misheard the same way.
    const digitIndices = new Set(numbers.flatMap((n) => n.digits));
    words.forEach((w, i) => {
      if (!digitIndices.has(i)) expect(swapped[i]).toBe(w);
    });
    expect(swapDigit(words)).toEqual(swapped);
  });

  it('swap-digit never hears a digit as itself, whatever the number', () => {
    for (let n = 0; n < 2000; n++) {
      const digits = String(n * 7919 + 13).split('');
      const words = ['code', ...digits.map((d) => DIGITS[Number(d)]!), 'please'];
      const swapped = swapDigit(words);
      const changed = words.filter((w, i) => swapped[i] !== w);
      expect(changed, words.join(' ')).toHaveLength(1);
    }
  });

  it('leaves text without numbers as it is, and hears through the fault on the whole text', () => {
    expect(oracleHears('Shall I go ahead?', 'swap-digit')).toBe('shall i go ahead');
    const heard = oracleHears('Cancel reservation E, H, G, L, P, three.', 'swap-digit');
    expect(heard).toMatch(
      /^cancel reservation e h g l p (zero|one|two|four|five|six|seven|eight|nine)$/,
    );
  });
});

/** A session's finals and interims, in order. */
function transcripts(session: SttSession): Transcript[] {
  const seen: Transcript[] = [];
  session.onTranscript((t) => seen.push(t));
  return seen;
}

describe('an oracle session: texts told against utterances', () => {
  it('gives each ended utterance the texts told since the previous final, in order', async () => {
    const session = await (await oracle()).openSession();
    const seen = transcripts(session);
    await session.write(new Uint8Array(3200));
    session.startUtterance(0);
    session.told?.('Hello there.');
    session.told?.(' How can I help?');
    const first = await session.endUtterance();
    expect(first.text).toBe('hello there how can i help');
    // Nothing told: nothing heard, as a real recognizer on noise.
    session.startUtterance();
    expect((await session.endUtterance()).text).toBe('');
    // Told while no utterance is open: it waits for the next one.
    session.told?.('My id is E, H, G, L, P, three.');
    session.startUtterance();
    expect((await session.endUtterance()).text).toBe('my id is e h g l p three');
    expect(seen.filter((t) => !t.final).map((t) => t.text)).toEqual([
      'hello there',
      'hello there how can i help',
    ]);
    expect(seen.filter((t) => t.final).map((t) => t.utterance)).toEqual([1, 2, 3]);
    await session.close();
    expect(() => session.write(new Uint8Array(2))).toThrow(/closed/);
  });
});

describe('an oracle behind a UserListener and the WebRTC VAD, on Flite speech', () => {
  const tts = createFliteTextToSpeech({ voice: 'kal16' });
  afterAll(() => tts.close());
  const silence = (ms: number) => silencePcm16(msToSamples(ms, 16_000));

  /** Feed `pcm` to `listener` in 16 ms chunks, as the relay sends it. */
  function feed(listener: UserListener, pcm: Uint8Array): void {
    const chunker = new PcmChunker(512);
    for (const chunk of [...chunker.push(pcm), ...chunker.flush()]) void listener.write(chunk);
  }

  it('keeps the VAD timing: each utterance hears the texts whose audio it held', async () => {
    const turns: string[] = [];
    const finals: string[] = [];
    const listener = new UserListener({
      vad: await createWebRtcVad({ stopMs: 600 }),
      stt: await (await oracle('swap-digit')).openSession(),
      sink: {
        emit: (type, data) => {
          const t = data as { text?: string; final?: boolean } | undefined;
          if (type === 'user-transcription' && t?.final) finals.push(t.text ?? '');
        },
        speechStarted: () => {},
        utterance: (text) => turns.push(text),
        error: (err) => {
          throw err;
        },
      },
    });
    const first = 'I want to cancel my reservation.';
    const second = 'It is E, H, G, L, P, three.';
    // Two sentences with a long pause between them: two utterances, each hears its own text,
    // told once its audio has been written, as the bridge tells it.
    feed(listener, silence(400));
    feed(listener, await speak(tts, first));
    expect(listener.told(first)).toBe(true);
    feed(listener, silence(1500));
    feed(listener, await speak(tts, second));
    expect(listener.told(second)).toBe(true);
    feed(listener, silence(1500));
    // Speech nobody told the words of: an utterance with nothing heard, no turn.
    feed(listener, await speak(tts, 'Hello?'));
    feed(listener, silence(1500));
    await expect.poll(() => finals.length, { timeout: 5000 }).toBe(3);
    expect(turns[0]).toBe('i want to cancel my reservation');
    expect(turns[1]).toMatch(/^it is e h g l p (zero|one|two|four|five|six|seven|eight|nine)$/);
    expect(turns).toHaveLength(2);
    expect(finals[2]).toBe('');
    await listener.close();
  }, 30_000);
});
