/**
 * zod schemas for the data of every RTVI message, by direction and type.
 */
import { z } from 'zod';
import type { ClientToServerType, ServerToClientType } from './rtvi.js';

const about = z
  .object({
    library: z.string(),
    library_version: z.string().optional(),
    platform: z.string().optional(),
    platform_version: z.string().optional(),
    platform_details: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();

const object = z.record(z.string(), z.unknown());

/** zod schemas for the data of every client -> server message. Unknown fields pass through. */
export const clientToServerDataSchemas = {
  // The version is checked by negotiateVersion(), which answers a missing or bad one with an
  // error-response and carries on (Pipecat's behaviour), so the schema leaves it open.
  'client-ready': z
    .object({ version: z.unknown().optional(), about: z.unknown().optional() })
    .loose(),
  'client-message': z.object({ t: z.string().min(1), d: z.unknown().optional() }).loose(),
  'send-text': z
    .object({
      content: z.string(),
      options: z
        .object({
          run_immediately: z.boolean().optional(),
          audio_response: z.boolean().optional(),
        })
        .loose()
        .optional(),
    })
    .loose(),
  'llm-function-call-result': z
    .object({
      function_name: z.string(),
      tool_call_id: z.string(),
      arguments: object,
      result: z.unknown(),
    })
    .loose(),
  'disconnect-bot': object.optional(),
  dtmf: z.object({ buttons: z.array(z.string().regex(/^[0-9*#]$/)).min(1) }).loose(),
  'raw-audio': z
    .object({
      base64Audio: z.string(),
      sampleRate: z.number().int().positive(),
      numChannels: z.number().int().positive(),
    })
    .loose(),
  'raw-audio-batch': z
    .object({
      base64AudioBatch: z.array(z.string()),
      sampleRate: z.number().int().positive(),
      numChannels: z.number().int().positive(),
    })
    .loose(),
  'ui-event': z.object({ event: z.string(), payload: z.unknown().optional() }).loose(),
  'ui-snapshot': z
    .object({
      tree: z
        .object({ root: z.unknown(), captured_at: z.unknown(), selection: z.unknown().optional() })
        .loose(),
    })
    .loose(),
  'ui-cancel-job-group': z.object({ job_id: z.string(), reason: z.string().optional() }).loose(),
  'append-to-context': z
    .object({ role: z.string(), content: z.unknown(), run_immediately: z.boolean().optional() })
    .loose(),
} satisfies Record<ClientToServerType, z.ZodType>;

const text = z.object({ text: z.string() }).loose();
const none = z.unknown().optional();
const metricValue = z
  .object({ processor: z.string(), model: z.string().optional(), value: z.number() })
  .loose();

/** zod schemas for the data of every server -> client message. Unknown fields pass through. */
export const serverToClientDataSchemas = {
  'bot-ready': z.object({ version: z.string(), about: about.optional() }).loose(),
  'server-response': z.object({ t: z.string(), d: z.unknown().optional() }).loose(),
  'error-response': z.object({ error: z.string() }).loose(),
  error: z.object({ error: z.string(), fatal: z.boolean() }).loose(),
  'server-message': z.unknown(),
  'user-started-speaking': none,
  'user-stopped-speaking': none,
  'bot-started-speaking': none,
  'bot-stopped-speaking': none,
  'bot-interrupted': none,
  'vad-user-started-speaking': none,
  'vad-user-stopped-speaking': none,
  'user-mute-started': none,
  'user-mute-stopped': none,
  'user-transcription': z
    .object({ text: z.string(), user_id: z.string(), timestamp: z.string(), final: z.boolean() })
    .loose(),
  'user-llm-text': text,
  'bot-llm-started': none,
  'bot-llm-stopped': none,
  'bot-tts-started': none,
  'bot-tts-stopped': none,
  'bot-llm-text': text,
  'bot-tts-text': text,
  'bot-transcription': text,
  'bot-output': z.object({ text: z.string(), aggregated_by: z.string() }).loose(),
  metrics: z
    .object({
      ttfb: z.array(metricValue).optional(),
      processing: z.array(metricValue).optional(),
      tokens: z
        .array(
          z
            .object({
              processor: z.string(),
              model: z.string(),
              prompt_tokens: z.number(),
              completion_tokens: z.number(),
              total_tokens: z.number(),
            })
            .loose(),
        )
        .optional(),
      characters: z.array(metricValue).optional(),
    })
    .loose(),
  'llm-function-call-started': z.object({ function_name: z.string().optional() }).loose(),
  'llm-function-call-in-progress': z
    .object({
      tool_call_id: z.string(),
      function_name: z.string().optional(),
      arguments: object.optional(),
    })
    .loose(),
  'llm-function-call-stopped': z
    .object({
      tool_call_id: z.string(),
      cancelled: z.boolean(),
      function_name: z.string().optional(),
      result: z.unknown().optional(),
    })
    .loose(),
  'llm-function-call': z
    .object({ function_name: z.string(), tool_call_id: z.string(), args: object })
    .loose(),
  'user-audio-level': z.object({ value: z.number() }).loose(),
  'bot-audio-level': z.object({ value: z.number() }).loose(),
  'system-log': text,
  'ui-command': z.object({ command: z.string(), payload: z.unknown() }).loose(),
  'ui-job-group': z
    .object({
      kind: z.enum(['group_started', 'job_update', 'job_completed', 'group_completed']),
      job_id: z.string(),
    })
    .loose(),
  'bot-tts-audio': z
    .object({ audio: z.string(), sample_rate: z.number(), num_channels: z.number() })
    .loose(),
} satisfies Record<ServerToClientType, z.ZodType>;
