import { describe, expect, it } from 'vitest';
import {
  InvalidToolNameError,
  RPC_METHODS,
  RPC_RESPONSE_CODES,
  RPC_TIMEOUTS,
  parseRpcToolRequest,
  parseRpcToolResponse,
  resolveRpcMethodName,
} from './index.js';

describe('RPC contract constants', () => {
  it('lists exactly the four built-in methods of the spec table', () => {
    expect(RPC_METHODS).toEqual({
      UI_ACTIVITY_CHECK: { method: 'scenaro__ui_activity_check', timeoutMs: 3000 },
      COMPOSER_START_DICTATION: { method: 'composer_start_dictation', timeoutMs: 10000 },
      COMPOSER_END_DICTATION: { method: 'composer_end_dictation', timeoutMs: 15000 },
      COMPOSER_CANCEL_DICTATION: { method: 'composer_cancel_dictation', timeoutMs: 8000 },
    });
  });

  it('has all six timeout values', () => {
    expect(RPC_TIMEOUTS).toEqual({
      AGENT_DEFAULT_MS: 8000,
      FRONTEND_TOOL_MS: 10000,
      UI_ACTIVITY_MS: 3000,
      COMPOSER_START_MS: 10000,
      COMPOSER_END_MS: 15000,
      COMPOSER_CANCEL_MS: 8000,
    });
  });

  it('names the four response codes', () => {
    expect(Object.values(RPC_RESPONSE_CODES).sort()).toEqual([
      'CANCELLED',
      'ERROR',
      'SUCCESS',
      'TIMEOUT',
    ]);
  });
});

describe('resolveRpcMethodName', () => {
  it('uses the override when it is a non-empty string', () => {
    expect(
      resolveRpcMethodName({
        name: 'search_collection_items',
        frontend_method: 'custom_search_rpc',
      }),
    ).toBe('custom_search_rpc');
  });
  it('falls back to the name without an override', () => {
    expect(resolveRpcMethodName({ name: 'search_collection_items' })).toBe(
      'search_collection_items',
    );
  });
  it.each([[''], [null], [undefined], [42], [{}]])(
    'falls back to the name for override %j',
    (override) => {
      expect(
        resolveRpcMethodName({
          name: 'add_to_cart',
          frontend_method: override as unknown as string,
        }),
      ).toBe('add_to_cart');
    },
  );
  it('rejects an empty name', () => {
    expect(() => resolveRpcMethodName({ name: '' })).toThrow(InvalidToolNameError);
    expect(() => resolveRpcMethodName({ name: 7 as unknown as string })).toThrow(
      /non-empty string/,
    );
  });
  it('accepts an override even when the name is empty', () => {
    expect(resolveRpcMethodName({ name: '', frontend_method: 'x' })).toBe('x');
  });
});

describe('parseRpcToolRequest', () => {
  it('accepts a full request and drops unknown fields', () => {
    const result = parseRpcToolRequest({
      requestId: 'r1',
      tool: 'search',
      args: { q: 'shoes' },
      sentAt: 1700000000000,
      extra: true,
    });
    expect(result).toEqual({
      ok: true,
      value: { requestId: 'r1', tool: 'search', args: { q: 'shoes' }, sentAt: 1700000000000 },
    });
  });
  it('decodes a JSON string payload', () => {
    expect(parseRpcToolRequest('{"requestId":"a"}')).toEqual({
      ok: true,
      value: { requestId: 'a' },
    });
  });
  it.each([
    [{}, 'requestId', 'requestId: is required'],
    [{ requestId: 5 }, 'requestId', 'requestId: must be a non-empty string, got a number'],
    [{ requestId: '' }, 'requestId', 'requestId: must be a non-empty string, got a string'],
    [{ requestId: 'a', args: [] }, 'args', 'args: must be an object, got an array'],
    [{ requestId: 'a', args: 'x' }, 'args', 'args: must be an object, got a string'],
    [{ requestId: 'a', tool: 3 }, 'tool', 'tool: must be a string, got a number'],
    [{ requestId: 'a', sentAt: 'now' }, 'sentAt', 'sentAt: must be a finite number, got a string'],
    [[], '', 'request must be an object, got an array'],
    [null, '', 'request must be an object, got null'],
  ])('refuses %j naming the field', (input, path, message) => {
    const result = parseRpcToolRequest(input);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.path).toBe(path);
      expect(result.message).toBe(message);
    }
  });
  it('refuses bad JSON text', () => {
    const result = parseRpcToolRequest('{nope');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/not valid JSON/);
  });
  it('keeps a __proto__ key in args as data without polluting prototypes', () => {
    const result = parseRpcToolRequest('{"requestId":"a","args":{"__proto__":{"polluted":1}}}');
    expect(result.ok).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('parseRpcToolResponse', () => {
  it('accepts open-ended codes', () => {
    expect(parseRpcToolResponse({ code: 'RATE_LIMITED', data: 1 })).toEqual({
      ok: true,
      value: { code: 'RATE_LIMITED', data: 1 },
    });
  });
  it('requires a code', () => {
    const result = parseRpcToolResponse({ requestId: 'x' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.path).toBe('code');
  });
});
