/**
 * What the voice server tests share: an echo policy, flite speech at the
 * input rate, a stream of 16 ms chunks, and whether PocketSphinx is here.
 */
import {
  INPUT_CHUNK_MS,
  INPUT_SAMPLE_RATE,
  PcmChunker,
  createConversationEngine,
  createFliteTextToSpeech,
  createPocketsphinxSpeechToText,
  msToSamples,
  resamplePcm16,
  silencePcm16,
  streamScriptedReply,
  synthesizeAll,
} from '../src/index.js';
import type { ChatModel, ContextMessage, TextToSpeech } from '../src/index.js';
import type { RtviClient } from '../src/testing/index.js';

/** Twenty user turns in the style of tau2's airline customers. */
export const USER_TURNS = [
  'Hi, I would like to cancel my reservation.',
  'I am calling about my trip to Chicago.',
  'I booked the flight last week for a family trip.',
  'Can you change my flight to next Friday?',
  'I want to fly from New York to Los Angeles.',
  'Please use the credit card on my account.',
  'I would like a window seat if possible.',
  'How much would it cost to upgrade to business class?',
  'No, I do not want travel insurance.',
  'I need to add one more checked bag.',
  'The reservation number is on my email.',
  'Yes, that is correct.',
  'Could you tell me the status of my flight?',
  'My flight was delayed by three hours.',
  'I would like to get a refund please.',
  'Thank you, that is all I need today.',
  'Can I book a flight for my daughter too?',
  'She is twelve years old.',
  'Please send the confirmation to my phone.',
  'I want the cheapest economy option.',
];

/** Why the PocketSphinx tests cannot run here (undefined when they can). */
export async function pocketsphinxMissing(what: string): Promise<Error | undefined> {
  const missing = await createPocketsphinxSpeechToText()
    .check()
    .then(
      () => undefined,
      (error: Error) => error,
    );
  if (missing && process.env['CI'] !== 'true') {
    console.warn(`\n!!! SKIPPING ${what}: ${missing.message}\n`);
  }
  return missing;
}

/** The reply of the echo policy to `heard`. */
export function echoReply(heard: string): string {
  return `You said ${heard}. What else can I do for you?`;
}

function lastUser(messages: ContextMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user' && typeof m.content === 'string') return m.content;
  }
  return '';
}

/** A policy that repeats what it heard, a few words per delta (as an LLM streams). */
export function echoModel(): ChatModel {
  return {
    processor: 'EchoPolicy',
    model: 'scripted:echo',
    scripted: true,
    stream: (request) =>
      streamScriptedReply(
        request,
        { text: echoReply(lastUser(request.messages)) },
        {
          wordsPerDelta: 2,
        },
      ),
  };
}

/** The conversation of the voice tests. */
export const echoConversation = createConversationEngine({ model: () => echoModel() });

/** Flite's speech of `text` at the input rate (16 kHz mono). */
export async function speak(tts: TextToSpeech, text: string): Promise<Uint8Array> {
  return resamplePcm16(await synthesizeAll(tts, text), tts.sampleRate, INPUT_SAMPLE_RATE);
}

/** The bot's test voice: Flite's `slt`. */
export function testTts(): TextToSpeech {
  return createFliteTextToSpeech({ voice: 'slt' });
}

/** The user's test voice: Flite's `kal16` (a 16 kHz diphone voice, what users sound like here). */
export function userTts(): TextToSpeech {
  return createFliteTextToSpeech({ voice: 'kal16' });
}

/** `ms` of silence at the input rate. */
export function silence(ms: number): Uint8Array {
  return silencePcm16(msToSamples(ms, INPUT_SAMPLE_RATE));
}

/** Send `parts` as the browser does: 16 ms frames (512 bytes), as fast as the socket takes them. */
export function sendStream(client: RtviClient, ...parts: Uint8Array[]): void {
  const chunker = PcmChunker.forDuration(INPUT_CHUNK_MS, INPUT_SAMPLE_RATE);
  for (const part of parts) for (const chunk of chunker.push(part)) client.sendAudio(chunk);
  for (const chunk of chunker.flush()) client.sendAudio(chunk);
}
