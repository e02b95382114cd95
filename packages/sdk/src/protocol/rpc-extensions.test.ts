import { describe, expect, it } from 'vitest';
import {
  RESERVED_RPC_METHOD_NAMES,
  RTVI_RPC_MESSAGES,
  SCENARO_RPC_METHODS,
  isRtviRpcRequest,
  parseCancelToolCallRequest,
  parseComposerDictationResponse,
  parseRtviRpcCall,
  parseRtviRpcCallError,
  parseRtviRpcRequest,
  parseRtviRpcResponse,
  parseUiActivitySnapshot,
  rtviRpcCallErrorMessage,
  rtviRpcRequestMessage,
} from './rpc-extensions.js';
import { clientMessage, serverResponse } from './rtvi-builders.js';

describe('Scenaro RPC extensions', () => {
  it('adds the cancel method and reserves every built-in name', () => {
    expect(SCENARO_RPC_METHODS.CANCEL_TOOL_CALL.method).toBe('scenaro__cancel_tool_call');
    expect(RESERVED_RPC_METHOD_NAMES).toEqual([
      'scenaro__ui_activity_check',
      'composer_start_dictation',
      'composer_end_dictation',
      'composer_cancel_dictation',
      'scenaro__cancel_tool_call',
    ]);
  });

  it('parses a cancel request and names the bad field', () => {
    expect(parseCancelToolCallRequest('{"requestId":"r1","extra":1}')).toEqual({
      ok: true,
      value: { requestId: 'r1' },
    });
    const bad = parseCancelToolCallRequest({ requestId: 5 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.path).toBe('requestId');
    expect(parseCancelToolCallRequest('{').ok).toBe(false);
  });

  it('parses UI activity snapshots strictly', () => {
    const snapshot = { active: true, idleMs: 5, lastActivityAt: 10, visible: true, focused: false };
    expect(parseUiActivitySnapshot(JSON.stringify(snapshot))).toEqual({
      ok: true,
      value: snapshot,
    });
    const bad = parseUiActivitySnapshot({ ...snapshot, idleMs: -1 });
    expect(bad.ok || bad.error.path).toBe('idleMs');
  });

  it('reads an empty dictation answer as an empty object', () => {
    expect(parseComposerDictationResponse('')).toEqual({ ok: true, value: {} });
    expect(parseComposerDictationResponse('{"status":"ended","transcript":"bonjour"}')).toEqual({
      ok: true,
      value: { status: 'ended', transcript: 'bonjour' },
    });
    expect(parseComposerDictationResponse('{"status":"paused"}').ok).toBe(false);
  });
});

describe('RPC over RTVI messages', () => {
  it('wraps an agent request in a server-message', () => {
    const message = rtviRpcRequestMessage({
      requestId: 'q1',
      method: 'search',
      payload: '{}',
      responseTimeoutMs: 10000,
      callerIdentity: 'bot',
    });
    expect(message).toEqual({
      label: 'rtvi-ai',
      type: 'server-message',
      data: {
        type: 'rpc-request',
        requestId: 'q1',
        method: 'search',
        payload: '{}',
        responseTimeoutMs: 10000,
        callerIdentity: 'bot',
      },
    });
    expect(isRtviRpcRequest(message.data)).toBe(true);
    expect(isRtviRpcRequest({ type: 'other' })).toBe(false);
    expect(parseRtviRpcRequest(message.data)).toEqual({ ok: true, value: message.data });
    const bad = parseRtviRpcRequest({ ...message.data, payload: 3 });
    expect(bad.ok || bad.error.path).toBe('data.payload');
  });

  it('builds browser answers as client-messages', () => {
    expect(
      clientMessage('m1', RTVI_RPC_MESSAGES.RESPONSE, { requestId: 'q1', payload: 'ok' }),
    ).toEqual({
      label: 'rtvi-ai',
      type: 'client-message',
      id: 'm1',
      data: { t: RTVI_RPC_MESSAGES.RESPONSE, d: { requestId: 'q1', payload: 'ok' } },
    });
    expect(parseRtviRpcResponse({ requestId: 'q1', error: { code: 1400, message: 'm' } })).toEqual({
      ok: true,
      value: { requestId: 'q1', error: { code: 1400, message: 'm' } },
    });
    expect(parseRtviRpcResponse({ requestId: 'q1' }).ok).toBe(false);
  });

  it('builds the browser -> agent call and both answers', () => {
    const call = clientMessage('c1', RTVI_RPC_MESSAGES.CALL, {
      method: 'm',
      payload: 'p',
      responseTimeoutMs: 100,
    });
    expect(call.data).toEqual({
      t: 'rpc-call',
      d: { method: 'm', payload: 'p', responseTimeoutMs: 100 },
    });
    expect(parseRtviRpcCall(call.data?.d).ok).toBe(true);
    expect(parseRtviRpcCall({ method: 'm', payload: 'p', responseTimeoutMs: 0 }).ok).toBe(false);
    expect(serverResponse('c1', RTVI_RPC_MESSAGES.CALL, { payload: 'out' })).toEqual({
      label: 'rtvi-ai',
      type: 'server-response',
      id: 'c1',
      data: { t: 'rpc-call', d: { payload: 'out' } },
    });
    const error = rtviRpcCallErrorMessage('c1', { code: 1400, message: 'nope', data: 'd' });
    expect(error).toEqual({
      label: 'rtvi-ai',
      type: 'error-response',
      id: 'c1',
      data: { error: 'nope', code: 1400, data: 'd' },
    });
    expect(parseRtviRpcCallError({ error: 'plain' })).toEqual({
      ok: true,
      value: { error: 'plain' },
    });
  });
});
