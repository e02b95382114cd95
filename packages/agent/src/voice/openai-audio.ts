/**
 * What the two OpenAI-compatible audio adapters share (`/audio/speech` and
 * `/audio/transcriptions`, as OpenAI, vLLM and speaches serve them): the
 * endpoint options, the `openai` client built from them, and the mapping of
 * its failures to {@link SpeechEngineError}s.
 */
import type OpenAI from 'openai';
import { createOpenAIClient } from '../conversation/openai-client.js';
import type { OpenAIEndpointOptions } from '../conversation/openai-client.js';
import { isAbortError, toChatModelError } from '../conversation/openai-errors.js';
import { abortReason, SpeechEngineError } from './engine-errors.js';

/** The default endpoint. */
export const OPENAI_AUDIO_BASE_URL = 'https://api.openai.com/v1';

/** Where an OpenAI-compatible audio endpoint is; each adapter documents its model default. */
export interface OpenAIAudioOptions extends Omit<OpenAIEndpointOptions, 'baseURL' | 'model'> {
  /** Base URL including the version path (default {@link OPENAI_AUDIO_BASE_URL}). */
  baseURL?: string;
  model?: string;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string>;
}

/** The client of an audio adapter: 30 s per attempt and 2 retries unless the options say otherwise. */
export function createOpenAIAudioClient(options: OpenAIAudioOptions): OpenAI {
  return createOpenAIClient({
    baseURL: options.baseURL ?? OPENAI_AUDIO_BASE_URL,
    apiKey: options.apiKey,
    apiKeyEnv: options.apiKeyEnv ?? 'OPENAI_API_KEY',
    timeoutMs: Math.max(1, Math.ceil(options.timeoutMs ?? 30_000)),
    maxRetries: options.maxRetries ?? 2,
    headers: options.headers,
    fetch: options.fetch,
  });
}

/**
 * A failed call as a {@link SpeechEngineError} (status, the endpoint's error
 * code, whether a retry may help); the abort reason when `signal` aborted.
 */
export function toSpeechEngineError(
  engine: string,
  error: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
): Error {
  if (signal?.aborted) return abortReason(signal);
  if (isAbortError(error) || error instanceof SpeechEngineError) return error as Error;
  const mapped = toChatModelError(error, timeoutMs);
  const body = (error as { error?: { code?: unknown; type?: unknown } } | undefined)?.error;
  const code =
    typeof body?.code === 'string'
      ? body.code
      : typeof body?.type === 'string'
        ? body.type
        : undefined;
  return new SpeechEngineError(`${engine}: ${mapped.message}`, {
    engine,
    retryable: mapped.retryable,
    cause: error,
    ...(mapped.status === undefined ? {} : { status: mapped.status }),
    ...(code === undefined ? {} : { code }),
  });
}
