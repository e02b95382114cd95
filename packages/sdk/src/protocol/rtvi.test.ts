import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  RTVI_MESSAGE_LABEL,
  RTVI_PROTOCOL_VERSION,
  botReady,
  clientMessage,
  clientReady,
  clientToServerDataSchemas,
  decodeRtviFrame,
  encodeRtviFrame,
  errorResponse,
  negotiateVersion,
  parseClientToServer,
  parseEnvelope,
  parseServerToClient,
  rtviError,
  sendText,
  serverMessage,
  serverResponse,
  serverToClientDataSchemas,
} from './index.js';
import type { ClientToServerMessageMap, ServerToClientMessageMap } from './index.js';

const clientSamples: { [K in keyof ClientToServerMessageMap]: ClientToServerMessageMap[K] } = {
  'client-ready': {
    version: '2.1.0',
    about: { library: '@pipecat-ai/client-js', library_version: '1.13.1', platform_details: {} },
  },
  'client-message': { t: 'get_scenario_summary', d: { include_db: false } },
  'send-text': { content: 'hello', options: { run_immediately: true, audio_response: false } },
  'llm-function-call-result': {
    function_name: 'get_time',
    tool_call_id: 'call_1',
    arguments: { tz: 'UTC' },
    result: { time: '12:00' },
  },
  'disconnect-bot': {},
  dtmf: { buttons: ['1', '#'] },
  'raw-audio': { base64Audio: 'AAAA', sampleRate: 16000, numChannels: 1 },
  'raw-audio-batch': { base64AudioBatch: ['AAAA', 'AQID'], sampleRate: 16000, numChannels: 1 },
  'ui-event': { event: 'click', payload: { id: 'b1' } },
  'ui-snapshot': { tree: { root: { role: 'main' }, captured_at: 1 } },
  'ui-cancel-job-group': { job_id: 'j1', reason: 'user' },
  'append-to-context': { role: 'user', content: 'hi', run_immediately: true },
};

const serverSamples: { [K in keyof ServerToClientMessageMap]: ServerToClientMessageMap[K] } = {
  'bot-ready': { version: '2.1.0', about: { library: 'scenaro', library_version: '0.1.0' } },
  'server-response': { t: 'reset', d: true },
  'error-response': { error: 'unknown message type: nope' },
  error: { error: 'Invalid RTVI transport message', fatal: false },
  'server-message': { type: 'action-applied', action: { name: 'x' }, tool_domain: 'd' },
  'user-started-speaking': undefined,
  'user-stopped-speaking': undefined,
  'bot-started-speaking': undefined,
  'bot-stopped-speaking': undefined,
  'bot-interrupted': undefined,
  'vad-user-started-speaking': undefined,
  'vad-user-stopped-speaking': undefined,
  'user-mute-started': undefined,
  'user-mute-stopped': undefined,
  'user-transcription': {
    text: 'hi',
    user_id: 'u',
    timestamp: '2026-01-01T00:00:00Z',
    final: true,
  },
  'user-llm-text': { text: 'hi' },
  'bot-llm-started': undefined,
  'bot-llm-stopped': undefined,
  'bot-tts-started': undefined,
  'bot-tts-stopped': undefined,
  'bot-llm-text': { text: 'Hel' },
  'bot-tts-text': { text: 'Hello.' },
  'bot-transcription': { text: 'Hello.' },
  'bot-output': { text: 'Hello.', aggregated_by: 'sentence', spoken_status: 'completed' },
  metrics: {
    ttfb: [{ processor: 'llm', model: 'm', value: 0.2 }],
    tokens: [
      { processor: 'llm', model: 'm', prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    ],
  },
  'llm-function-call-started': { function_name: 'search' },
  'llm-function-call-in-progress': {
    tool_call_id: 'c1',
    function_name: 'search',
    arguments: { q: 'x' },
  },
  'llm-function-call-stopped': {
    tool_call_id: 'c1',
    cancelled: false,
    function_name: 'search',
    result: [],
  },
  'llm-function-call': { function_name: 'search', tool_call_id: 'c1', args: {} },
  'user-audio-level': { value: 0.5 },
  'bot-audio-level': { value: 0.1 },
  'system-log': { text: 'log' },
  'ui-command': { command: 'scroll', payload: { to: 1 } },
  'ui-job-group': { kind: 'job_update', job_id: 'j1' },
  'bot-tts-audio': { audio: 'AAAA', sample_rate: 24000, num_channels: 1 },
};

describe('RTVI envelope', () => {
  it('has the label and version of Pipecat 2.1.0', () => {
    expect(RTVI_MESSAGE_LABEL).toBe('rtvi-ai');
    expect(RTVI_PROTOCOL_VERSION).toBe('2.1.0');
  });

  it('covers every client -> server type with a schema', () => {
    expect(Object.keys(clientToServerDataSchemas).sort()).toEqual(
      Object.keys(clientSamples).sort(),
    );
  });

  it.each(Object.entries(clientSamples))(
    'round-trips client -> server %s through a frame',
    (type, data) => {
      const message = { label: RTVI_MESSAGE_LABEL, type, id: 'abcd1234', data };
      const decoded = decodeRtviFrame(encodeRtviFrame(message as never));
      expect(decoded.ok).toBe(true);
      const parsed = parseClientToServer(decoded.ok ? decoded.message : null);
      expect(parsed).toEqual({ ok: true, value: message });
    },
  );

  it.each(Object.entries(serverSamples))(
    'round-trips server -> client %s through a frame',
    (type, data) => {
      const message: Record<string, unknown> = { label: RTVI_MESSAGE_LABEL, type };
      if (data !== undefined) message['data'] = data;
      const decoded = decodeRtviFrame(encodeRtviFrame(message as never));
      expect(decoded.ok).toBe(true);
      const parsed = parseServerToClient(decoded.ok ? decoded.message : null);
      expect(parsed).toEqual({ ok: true, value: message });
    },
  );

  it('covers every server -> client type with a schema', () => {
    expect(Object.keys(serverToClientDataSchemas).sort()).toEqual(
      Object.keys(serverSamples).sort(),
    );
  });

  it('builds the messages this project sends', () => {
    expect(clientMessage('id1', 'reset', {})).toEqual({
      label: 'rtvi-ai',
      type: 'client-message',
      id: 'id1',
      data: { t: 'reset', d: {} },
    });
    expect(serverResponse('id1', 'reset', true)).toEqual({
      label: 'rtvi-ai',
      type: 'server-response',
      id: 'id1',
      data: { t: 'reset', d: true },
    });
    expect(serverResponse('id1', 'x')).toEqual({
      label: 'rtvi-ai',
      type: 'server-response',
      id: 'id1',
      data: { t: 'x' },
    });
    expect(errorResponse('id1', "KeyError: 'db'")).toEqual({
      label: 'rtvi-ai',
      type: 'error-response',
      id: 'id1',
      data: { error: "KeyError: 'db'" },
    });
    expect(serverMessage({ text: '<exit>x</exit>' })).toEqual({
      label: 'rtvi-ai',
      type: 'server-message',
      data: { text: '<exit>x</exit>' },
    });
    expect(botReady('c1', '2.1.0', { library: 'scenaro' })).toEqual({
      label: 'rtvi-ai',
      type: 'bot-ready',
      id: 'c1',
      data: { version: '2.1.0', about: { library: 'scenaro' } },
    });
    const session = { resume_token: 't0k3n', resume_grace_ms: 30_000, resumed: false };
    expect(botReady('c2', '2.1.0', { library: 'scenaro' }, session).data).toEqual({
      version: '2.1.0',
      about: { library: 'scenaro' },
      session,
    });
    expect(rtviError('bad', false)).toEqual({
      label: 'rtvi-ai',
      type: 'error',
      data: { error: 'bad', fatal: false },
    });
    expect(sendText('s1', 'hi', { audio_response: false }).data).toEqual({
      content: 'hi',
      options: { audio_response: false },
    });
    expect(clientReady('c1', { library: 'x' }).data).toEqual({
      version: '2.1.0',
      about: { library: 'x' },
    });
  });
});

/** A `send-text` envelope with any data, and an id when given. */
function sendTextEnvelope(data: unknown, id?: string) {
  return { label: 'rtvi-ai', type: 'send-text', ...(id === undefined ? {} : { id }), data };
}

describe('inbound validation', () => {
  it('requires an id on the server side', () => {
    const result = parseClientToServer(sendTextEnvelope({ content: 'x' }));
    expect(result).toMatchObject({ ok: false, error: { kind: 'missing-id', path: 'id' } });
  });
  it('names the bad data field', () => {
    const result = parseClientToServer(sendTextEnvelope({ content: 5 }, 'a'));
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'invalid-data', path: 'data.content', id: 'a', type: 'send-text' },
    });
    const options = { run_immediately: 'yes' };
    const nested = parseClientToServer(sendTextEnvelope({ content: 'x', options }, 'a'));
    expect(nested).toMatchObject({ ok: false, error: { path: 'data.options.run_immediately' } });
  });
  it('reports unknown types with Pipecat wording', () => {
    const result = parseClientToServer({ label: 'rtvi-ai', type: 'action', id: 'a' });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'unknown-type', message: 'Unsupported type action' },
    });
  });
  it('marks foreign labels so they can be ignored', () => {
    expect(parseEnvelope({ label: 'other', type: 'x' })).toMatchObject({
      ok: false,
      error: { kind: 'foreign-label' },
    });
  });
  it.each([
    ['{'],
    ['[]'],
    ['42'],
    ['null'],
    ['{"label":"rtvi-ai"}'],
    ['{"label":"rtvi-ai","type":7}'],
  ])('refuses %s as an invalid envelope', (text) => {
    const result = parseEnvelope(text);
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid' } });
  });
  it('does not treat inherited properties as known types', () => {
    expect(parseClientToServer({ label: 'rtvi-ai', type: 'toString', id: 'a' })).toMatchObject({
      ok: false,
      error: { kind: 'unknown-type' },
    });
    expect(parseClientToServer({ label: 'rtvi-ai', type: '__proto__', id: 'a' })).toMatchObject({
      ok: false,
      error: { kind: 'unknown-type' },
    });
  });
  it('never throws on random JSON values or text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        parseClientToServer(value);
        parseServerToClient(value);
        parseClientToServer(JSON.stringify(value));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        parseEnvelope(text);
      }),
      { numRuns: 2000 },
    );
  });
  it('never throws on random envelopes with a known type', () => {
    const types = Object.keys(clientSamples);
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        fc.jsonValue(),
        fc.option(fc.string()),
        (type, data, id) => {
          const result = parseClientToServer({ label: 'rtvi-ai', type, id: id ?? undefined, data });
          if (!result.ok) expect(typeof result.error.message).toBe('string');
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('version negotiation', () => {
  it('accepts the same major', () => {
    expect(negotiateVersion('2.0.0')).toEqual({ ok: true, version: '2.1.0', legacy: false });
  });
  it('echoes a legacy 1.x version', () => {
    expect(negotiateVersion('1.1.0')).toEqual({ ok: true, version: '1.1.0', legacy: true });
  });
  it.each([['3.0.0'], ['0.3.0'], ['2.1'], ['x'], ['']])(
    'refuses %s with a compatibility error',
    (v) => {
      const result = negotiateVersion(v);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(/not compatible with server protocol 2\.1\.0/);
    },
  );
  it('refuses a missing version as unknown', () => {
    const result = negotiateVersion(undefined);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^Client version unknown/);
  });
});
