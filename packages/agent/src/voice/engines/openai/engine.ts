/**
 * The OpenAI-compatible recognizer and synthesizer as the registry declares them: remote
 * endpoints (OpenAI, vLLM, speaches...), one WAV per utterance to `/audio/transcriptions`, speech
 * streamed from `/audio/speech` as 24 kHz PCM.
 */
import { defineSpeechEngine } from '../speech-engine.js';

const baseUrl = (kind: 'stt' | 'tts') =>
  ({
    description: 'OpenAI-compatible endpoint',
    type: 'url',
    required: true,
    setting: `${kind}BaseUrl`,
    valueName: 'url',
  }) as const;

/** One environment variable for the key of both endpoints. */
const apiKeyEnv = {
  description: 'environment variable holding the API key of the speech endpoints',
  type: 'string',
  default: 'OPENAI_API_KEY',
  setting: 'speechApiKeyEnv',
  valueName: 'name',
  refuseUnused: false,
} as const;

export const openaiSttEngine = defineSpeechEngine({
  name: 'openai',
  kind: 'stt',
  description: 'an OpenAI-compatible /audio/transcriptions endpoint: OpenAI, vLLM, speaches',
  capabilities: { streaming: false, sampleRates: [16_000], offline: false },
  options: {
    baseUrl: baseUrl('stt'),
    model: {
      description: 'model',
      type: 'string',
      default: 'whisper-1',
      setting: 'sttModel',
      valueName: 'name',
    },
    apiKeyEnv,
  },
  async create(settings) {
    const { createOpenAISpeechToText } = await import('./openai-stt.js');
    return createOpenAISpeechToText({
      baseURL: settings.baseUrl,
      model: settings.model,
      apiKeyEnv: settings.apiKeyEnv,
    });
  },
  label: (settings) => `openai(${settings.model} at ${settings.baseUrl})`,
});

export const openaiTtsEngine = defineSpeechEngine({
  name: 'openai',
  kind: 'tts',
  description: 'an OpenAI-compatible /audio/speech endpoint, streamed: OpenAI, vLLM, speaches',
  capabilities: { streaming: true, sampleRates: [24_000], offline: false },
  options: {
    baseUrl: baseUrl('tts'),
    model: {
      description: 'model',
      type: 'string',
      default: 'tts-1',
      setting: 'ttsModel',
      valueName: 'name',
    },
    voice: {
      description: 'voice',
      type: 'string',
      values: 'any the endpoint has',
      default: 'alloy',
      setting: 'ttsVoice',
      valueName: 'name',
      perSpeaker: true,
      speakerDefaults: ['alloy', 'echo'],
    },
    apiKeyEnv,
  },
  async create(settings, context) {
    const { createOpenAITextToSpeech } = await import('./openai-tts.js');
    return createOpenAITextToSpeech({
      baseURL: settings.baseUrl,
      model: settings.model,
      voice: settings.voice,
      apiKeyEnv: settings.apiKeyEnv,
      ...(context.sampleRate === undefined ? {} : { sampleRate: context.sampleRate }),
    });
  },
  label: (settings) => `openai(${settings.model}, ${settings.voice} at ${settings.baseUrl})`,
});
