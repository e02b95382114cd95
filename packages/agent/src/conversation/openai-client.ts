/**
 * Reaching an OpenAI-compatible chat-completions endpoint: the options every
 * client of one shares (where it is, which model, the API key, how long to
 * wait, how often to retry) and the `openai` client built from them.
 */
import OpenAI from 'openai';

/** The API key sent when neither the option nor the environment gives one (local servers ignore it). */
export const PLACEHOLDER_API_KEY = 'sk-no-key-required';

/** A `fetch` implementation (the global one by default). */
export type OpenAIFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Where an OpenAI-compatible endpoint is and how to call it; each user documents its defaults. */
export interface OpenAIEndpointOptions {
  /** Base URL of the API, including the version path, e.g. `http://127.0.0.1:8000/v1` or `https://api.openai.com/v1`. */
  baseURL: string;
  /** Model name sent in every request. */
  model: string;
  /** API key. Defaults to the environment variable named by `apiKeyEnv`, then to a placeholder. */
  apiKey?: string;
  /** Environment variable holding the API key, read when the client is created. */
  apiKeyEnv?: string;
  /** Timeout of one attempt in ms. */
  timeoutMs?: number;
  /** Extra attempts after a retryable failure (0 disables retrying). */
  maxRetries?: number;
  /** Custom `fetch` (e.g. for proxies or tests). */
  fetch?: OpenAIFetch;
}

/** The settings of one `openai` client, defaults already applied by its user. */
export interface OpenAIClientSettings {
  baseURL: string;
  /** The key itself; when empty or missing, the variable `apiKeyEnv` of `env`, then {@link PLACEHOLDER_API_KEY}. */
  apiKey?: string | undefined;
  apiKeyEnv: string;
  /** Environment the key is read from. Default `process.env`. */
  env?: Record<string, string | undefined> | undefined;
  /** The client's timeout of one request, in ms. */
  timeoutMs: number;
  /** The client's own retries (0 when its user retries by itself). */
  maxRetries: number;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string> | undefined;
  fetch?: OpenAIFetch | undefined;
}

/** An `openai` client for the endpoint, with its API key resolved. */
export function createOpenAIClient(settings: OpenAIClientSettings): OpenAI {
  const env = settings.env ?? process.env;
  const apiKey = settings.apiKey || env[settings.apiKeyEnv] || PLACEHOLDER_API_KEY;
  return new OpenAI({
    baseURL: settings.baseURL,
    apiKey,
    maxRetries: settings.maxRetries,
    timeout: settings.timeoutMs,
    ...(settings.headers ? { defaultHeaders: settings.headers } : {}),
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  });
}
