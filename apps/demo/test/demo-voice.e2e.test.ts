// Talking to the demo store in real headless Chromium: the microphone is Chromium's fake capture
// device fed from a WAV that our Flite TTS synthesizes here (16 kHz, 16-bit PCM; played once,
// from the moment the page opens the microphone, then silence), the bot is `startDemo` with the
// offline engines (PocketSphinx hears, Flite speaks, real-time pacing). A probe installed before
// the page loads taps every node the page connects to its speakers, so the test hears what the
// page plays. A last test has the browser refuse the microphone. Screenshots at 1280 and 375 px
// go to test-artifacts/demo/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@scenaro/agent';
import {
  INPUT_SAMPLE_RATE,
  createFliteTextToSpeech,
  createPocketsphinxSpeechToText,
  encodeWav,
  msToSamples,
} from '@scenaro/agent/voice';
import type { BotSession } from '@scenaro/agent';
import type { SpeechToText, TextToSpeech } from '@scenaro/agent/voice';
import { pocketsphinxMissing, speak } from '@scenaro/agent/testing';
import { startDemo } from '@scenaro/demo/server';
import type { DemoServer } from '@scenaro/demo/server';
import {
  artifacts,
  attribute,
  browserTestsRun,
  collectConsoleErrors,
  count,
  launchChromium,
  shoot,
  text,
} from './chromium.js';

const runsInBrowser = browserTestsRun('apps/demo/test/demo-voice.e2e.test.ts');
const sttMissing = await pocketsphinxMissing('apps/demo/test/demo-voice.e2e.test.ts');
const runs = runsInBrowser && (sttMissing === undefined || process.env['CI'] === 'true');

/** Voice speed: Chromium's fake microphone plays in real time, so waits are seconds long. */
const VOICE = 20_000;
/** What the shopper asks for aloud. */
const SPOKEN_REQUEST = 'show me headphones under one hundred dollars';

/** A speaker level the probe measured: when, on the page's clock, and the peak of its 20 ms. */
interface SpeakerSample {
  t: number;
  peak: number;
}

declare global {
  interface Window {
    /** What {@link installSpeakerProbe} measured. */
    __speaker?: SpeakerSample[];
  }
}

/**
 * Records the peak level of everything the page sends to its speakers, every 20 ms: each node
 * connected to an AudioDestinationNode is also connected to an analyser of the test's.
 */
function installSpeakerProbe(): void {
  const samples: SpeakerSample[] = [];
  window.__speaker = samples;
  const analysers = new WeakMap<BaseAudioContext, AnalyserNode>();
  const connect = AudioNode.prototype.connect as (...args: unknown[]) => unknown;
  AudioNode.prototype.connect = function (this: AudioNode, ...args: unknown[]) {
    const destination = args[0];
    if (destination instanceof AudioDestinationNode) {
      let analyser = analysers.get(this.context);
      if (!analyser) {
        const probe = this.context.createAnalyser();
        analyser = probe;
        probe.fftSize = 1024;
        analysers.set(this.context, probe);
        const buffer = new Float32Array(probe.fftSize);
        setInterval(() => {
          probe.getFloatTimeDomainData(buffer);
          let peak = 0;
          for (const v of buffer) peak = Math.max(peak, Math.abs(v));
          samples.push({ t: performance.now(), peak });
        }, 20);
      }
      connect.call(this, analyser);
    }
    return connect.apply(this, args);
  } as typeof AudioNode.prototype.connect;
}

/** The loudest the speakers were in the page's clock window [from, to). */
async function speakerPeak(page: Page, from: number, to = Number.POSITIVE_INFINITY) {
  return page.evaluate(
    ([a, b]) =>
      (window.__speaker ?? [])
        .filter((s) => s.t >= (a as number) && s.t < (b as number))
        .reduce((max, s) => Math.max(max, s.peak), 0),
    [from, to],
  );
}

const now = (page: Page) => page.evaluate(() => performance.now());

describe.skipIf(!runs)('talking to the demo store in headless Chromium', () => {
  let demo: DemoServer;
  let stt: SpeechToText;
  let tts: TextToSpeech;
  let shopper: TextToSpeech;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    if (sttMissing) throw sttMissing; // under CI the recognizer must be installed
    stt = createPocketsphinxSpeechToText();
    tts = createFliteTextToSpeech({ voice: 'slt' });
    // The shopper's voice: another Flite voice than the bot's.
    shopper = createFliteTextToSpeech({ voice: 'rms' });
    demo = await startDemo({
      port: 0,
      botPort: 0,
      logger: silentLogger,
      out: () => {},
      voice: { stt, tts },
    });
  });

  afterAll(async () => {
    await demo?.close();
    await Promise.allSettled([stt?.close(), tts?.close(), shopper?.close()]);
  });

  /**
   * A WAV of `text` said by the shopper after `leadMs` of silence, with a silent tail. A
   * recognizer that has heard nothing yet is at its worst after a long silence (its
   * normalisation has only silence to go by), so a first request comes after half a second.
   */
  async function microphoneFile(name: string, text: string, leadMs: number): Promise<string> {
    const speech = await speak(shopper, text);
    const silence = (ms: number) => msToSamples(ms, INPUT_SAMPLE_RATE) * 2;
    const pcm = new Uint8Array(silence(leadMs) + speech.length + silence(3000));
    pcm.set(speech, silence(leadMs));
    mkdirSync(artifacts, { recursive: true }); // a fresh checkout has no artifacts folder yet
    const file = join(artifacts, `${name}.wav`);
    writeFileSync(file, encodeWav({ pcm, sampleRate: INPUT_SAMPLE_RATE, channels: 1 }));
    return file;
  }

  /**
   * Chromium whose microphone plays `wav` once, the page open with the speaker probe. Without
   * `wav` the microphone exists but the browser refuses it (headless Chromium denies the prompt).
   */
  async function openWithMicrophone(wav: string | undefined) {
    const browser = await launchChromium([
      ...(wav
        ? ['--use-fake-ui-for-media-stream', `--use-file-for-fake-audio-capture=${wav}%noloop`]
        : []),
      '--use-fake-device-for-media-stream',
      '--autoplay-policy=no-user-gesture-required',
    ]);
    const page = await browser.context.newPage();
    collectConsoleErrors(page, consoleErrors);
    await page.addInitScript(installSpeakerProbe);
    await page.goto(demo.url);
    await text(page.getByTestId('connection')).toContain('Disconnected');
    return { page, close: browser.close };
  }

  /** Run `use` on a page opened as {@link openWithMicrophone} does; its browser is closed after. */
  async function withMicrophonePage(wav: string | undefined, use: (page: Page) => Promise<void>) {
    const { page, close } = await openWithMicrophone(wav);
    try {
      await use(page);
    } finally {
      await close();
    }
  }

  function session(): BotSession {
    expect(demo.bot.sessions).toHaveLength(1);
    return demo.bot.sessions[0] as BotSession;
  }

  it('hears a spoken request: the transcript, the products, the spoken answer', async () => {
    const wav = await microphoneFile('voice-request', SPOKEN_REQUEST, 500);
    await withMicrophonePage(wav, async (page) => {
      const mic = page.getByRole('button', { name: 'Microphone' });
      await attribute(mic, 'aria-pressed').toBe('false');
      // The microphone connects to the assistant too.
      await mic.click();
      await attribute(mic, 'aria-pressed').toBe('true');
      await text(page.getByTestId('connection')).toContain('Connected');
      await text(page.locator('.mic-note')).toContain('Microphone on');

      // The words as the bot recognized them (PocketSphinx may miss a word: key words only).
      const heard = page.locator('.msg.user[data-voice="true"]:not(.interim)');
      await count(heard, VOICE).toBe(1);
      const transcript = (await heard.locator('p').innerText()).toLowerCase();
      expect(transcript).toMatch(/\bshow\b/);
      expect(transcript).toMatch(/\bheadphones\b/);
      expect(transcript).toMatch(/\bhundred\b/);

      // The agent drove the page: show_products ran here and the grid shows headphones.
      const grid = page.locator('[data-feature="product_grid"]');
      await attribute(grid, 'data-status', VOICE).toBe('success');
      await text(grid.getByRole('heading', { level: 2 })).toBe('Headphones under $100');
      const cards = grid.locator('.card');
      await count(cards).toBe(2);
      await text(cards.first()).toContain('Headphones');
      await attribute(page.locator('.tool[data-tool="show_products"]'), 'data-status').toBe('done');

      // The answer is spoken: the indicator, the reply as it is spoken, sound in the speakers.
      await attribute(page.getByTestId('bot-speaking'), 'data-active', VOICE).toBe('true');
      // The reply line shows what has been spoken of it so far (the greeting comes first).
      const spoken = page.locator('.msg.bot[data-speaking="true"] .spoken');
      await expect.poll(() => spoken.innerText(), { timeout: VOICE }).toMatch(/^Hi! I'm the/);
      await shoot(page, '09-voice-request');
      await expect.poll(() => speakerPeak(page, 0), { timeout: VOICE }).toBeGreaterThan(0.05);
      // The bot took the transcript as the shopper's turn.
      const said = session()
        .context.messages()
        .find((m) => m.role === 'user');
      expect(String(said?.content).toLowerCase()).toBe(transcript);
      // Disconnecting in the middle of the answer stops its sound.
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await text(page.getByTestId('connection')).toContain('Disconnected');
      const gone = await now(page);
      await new Promise((r) => setTimeout(r, 600));
      expect(await speakerPeak(page, gone + 200, gone + 600)).toBeLessThan(0.01);
      expect(consoleErrors).toEqual([]);
    });
  }, 90_000);

  it('dictates into the message box, which is edited and sent; Esc cancels', async () => {
    const wav = await microphoneFile('voice-dictation', SPOKEN_REQUEST, 500);
    await withMicrophonePage(wav, async (page) => {
      await page.getByRole('button', { name: 'Connect' }).click();
      await text(page.getByTestId('connection')).toContain('Connected');
      const box = page.getByRole('textbox', { name: 'Message to the assistant' });
      const dictate = page.getByRole('button', { name: 'Dictate' });
      await attribute(dictate, 'aria-pressed').toBe('false');

      // Keyboard only: focus the button and press Enter to start.
      await dictate.focus();
      await page.keyboard.press('Enter');
      await attribute(dictate, 'aria-pressed').toBe('true');
      await text(page.locator('#composer-status')).toContain('Listening');
      // The shopper speaks (the bot's VAD hears it; a dictation takes no turn), then stops.
      const speaking = page.getByTestId('user-speaking');
      await attribute(speaking, 'data-active', VOICE).toBe('true');
      await attribute(speaking, 'data-active', VOICE).toBe('false');
      // The interim words show in the box while dictating.
      await expect.poll(() => box.inputValue(), { timeout: VOICE }).toMatch(/\w/);
      expect(await box.getAttribute('readonly')).not.toBeNull();
      await shoot(page, '10-dictating');
      // Done: the final words land in the box, to edit and send.
      await page.keyboard.press('Enter');
      await attribute(dictate, 'aria-pressed', VOICE).toBe('false');
      await text(page.locator('#composer-status')).toContain('Your words are in the box');
      const dictated = await box.inputValue();
      expect(dictated.toLowerCase()).toMatch(/\bheadphones\b/);
      // The shopper edits the words, then sends them: the agent acts on the page.
      await box.press('End');
      await box.pressSequentially(' please');
      await box.press('Enter');
      const sent = page.locator('.msg.user').last();
      await text(sent).toContain(`${dictated} please`);
      const grid = page.locator('[data-feature="product_grid"]');
      await attribute(grid, 'data-status', VOICE).toBe('success');
      await text(grid).toContain('Headphones');
      // The dictation took no turn of its own: one user message, the one sent.
      expect(
        session()
          .context.messages()
          .filter((m) => m.role === 'user'),
      ).toHaveLength(1);

      // Esc cancels a dictation and gives back what the box held.
      await box.fill('my draft');
      await dictate.click();
      await attribute(dictate, 'aria-pressed').toBe('true');
      await page.keyboard.press('Escape');
      await attribute(dictate, 'aria-pressed', VOICE).toBe('false');
      expect(await box.inputValue()).toBe('my draft');
      await text(page.locator('#composer-status')).toContain('Dictation cancelled');
      await shoot(page, '11-dictation-cancelled');
      expect(consoleErrors).toEqual([]);
    });
  }, 90_000);

  it('stops speaking when the shopper talks over it', async () => {
    // The shopper speaks 7 s after the microphone opens, while the answer is being spoken.
    const wav = await microphoneFile('voice-interruption', 'wait a moment please', 7000);
    await withMicrophonePage(wav, async (page) => {
      await page.getByRole('button', { name: 'Microphone' }).click();
      await text(page.getByTestId('connection')).toContain('Connected');
      // A typed request while the microphone is on is answered aloud.
      const box = page.getByRole('textbox', { name: 'Message to the assistant' });
      await box.fill('show me headphones under $100');
      await box.press('Enter');
      await attribute(page.getByTestId('bot-speaking'), 'data-active', VOICE).toBe('true');
      const playing = await now(page);
      await expect.poll(() => speakerPeak(page, playing), { timeout: VOICE }).toBeGreaterThan(0.05);

      // Barge-in: the bot says it was interrupted, the page cuts the sound and says so.
      const cut = page.locator('.msg.bot[data-interrupted="true"]');
      await count(cut, VOICE).toBe(1);
      const interruptedAt = await now(page);
      await text(page.getByTestId('voice-announcement')).toContain(
        'You interrupted the assistant.',
      );
      await attribute(page.getByTestId('bot-speaking'), 'data-active').toBe('false');
      await text(cut).toMatch(/interrupted/i);
      // Silence follows at once (the next answer, to the interruption, comes seconds later).
      await new Promise((r) => setTimeout(r, 900));
      expect(await speakerPeak(page, interruptedAt + 250, interruptedAt + 900)).toBeLessThan(0.01);
      expect(session().voice?.speech?.active ?? false).toBe(false);
      await shoot(page, '12-interrupted');
      expect(consoleErrors).toEqual([]);
    });
  }, 90_000);

  it('says so when the browser refuses the microphone, and typing goes on', async () => {
    await withMicrophonePage(undefined, async (page) => {
      const mic = page.getByRole('button', { name: 'Microphone' });
      await mic.click();
      await text(page.locator('.mic-note')).toBe(
        'Microphone access was denied, so the assistant cannot hear you. You can keep typing.',
      );
      await attribute(mic, 'aria-pressed').toBe('false');
      // Dictation says so too, and leaves the box as it was.
      const box = page.getByRole('textbox', { name: 'Message to the assistant' });
      await box.fill('show me kettles');
      await page.getByRole('button', { name: 'Dictate' }).click();
      await text(page.locator('#composer-status')).toContain('Microphone access was denied');
      await attribute(page.getByRole('button', { name: 'Dictate' }), 'aria-pressed').toBe('false');
      expect(await box.inputValue()).toBe('show me kettles');
      await box.press('Enter');
      const grid = page.locator('[data-feature="product_grid"]');
      await attribute(grid, 'data-status').toBe('success');
      await text(grid).toContain('Kettle');
      await shoot(page, '13-microphone-refused');
      expect(consoleErrors).toEqual([]);
    });
  }, 60_000);
});
