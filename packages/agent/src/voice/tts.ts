/**
 * Text to speech: the {@link TextToSpeech} interface every engine adapter
 * implements. A reply is synthesized sentence by sentence, so the first audio
 * can play before the whole reply exists; each call yields PCM16 mono chunks
 * at the engine's `sampleRate` (24 kHz for every adapter here) as soon as
 * they are ready.
 */
import { concatBytes } from './audio/pcm.js';

/** Options of one synthesis. */
export interface SynthesizeOptions {
  /** Aborting stops the synthesis: the iteration throws the signal's reason. */
  signal?: AbortSignal;
}

/** A speech synthesizer. */
export interface TextToSpeech {
  /** Adapter name, e.g. `flite`, `openai`. */
  readonly name: string;
  /** Sample rate of the audio `synthesize` yields (mono PCM16). */
  readonly sampleRate: number;
  /**
   * The speech of `text` as PCM16 little-endian mono chunks (even byte
   * lengths, any size). Empty or blank text yields nothing.
   */
  synthesize(text: string, options?: SynthesizeOptions): AsyncIterable<Uint8Array>;
  /**
   * Resolves when the engine can run here; rejects with a `SpeechEngineUnavailableError` saying
   * what to install otherwise. Engines that always can (in-process, remote) leave it out.
   */
  check?(): Promise<void>;
  /**
   * Get ready to answer at once (start a worker, load a voice), so the first reply is not
   * slowed by it. Engines with nothing to prepare (a remote endpoint) leave it out.
   */
  warm?(): Promise<void>;
  /** Release the engine (workers, connections); later calls fail. */
  close(): Promise<void>;
}

/** All the audio of one synthesis, concatenated. */
export async function synthesizeAll(
  tts: TextToSpeech,
  text: string,
  options?: SynthesizeOptions,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of tts.synthesize(text, options)) chunks.push(chunk);
  return concatBytes(chunks);
}
