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
import { readSharedText } from '../test-support/shared-data.js';

// The contract's source of truth is the spec in ../shared; these tests read it.
const spec = readSharedText('spec/rpc-contracts.md', 'RPC contract vs spec');

/** The built-in methods table: one tab-separated row per constant. */
function specMethods(text: string): Record<string, { method: string; timeoutMs: number }> {
  const rows = text.matchAll(/^`(\w+)`\t`(\w+)`\t(\d+)ms$/gm);
  return Object.fromEntries(
    [...rows].map(([, key, method, ms]) => [key, { method, timeoutMs: Number(ms) }]),
  );
}

/** The `RPC_TIMEOUTS` block of the spec. */
function specTimeouts(text: string): Record<string, number> {
  const block = /RPC_TIMEOUTS = \{([^}]*)\}/.exec(text)?.[1] ?? '';
  return Object.fromEntries([...block.matchAll(/(\w+): (\d+)/g)].map(([, k, v]) => [k, Number(v)]));
}

/** The quoted codes of `RpcToolResponse.code`. */
function specResponseCodes(text: string): string[] {
  const line = /^\s*code: (.*);$/m.exec(text)?.[1] ?? '';
  return [...line.matchAll(/'(\w+)'/g)].map(([, code]) => code ?? '');
}

describe.skipIf(spec === undefined)('RPC contract constants against the spec', () => {
  const text = spec ?? '';

  it('lists exactly the four built-in methods of the spec table', () => {
    expect(Object.keys(specMethods(text))).toHaveLength(4);
    expect(RPC_METHODS).toEqual(specMethods(text));
  });

  it('has all six timeout values', () => {
    expect(Object.keys(specTimeouts(text))).toHaveLength(6);
    expect(RPC_TIMEOUTS).toEqual(specTimeouts(text));
  });

  it('names the four response codes', () => {
    expect(Object.values(RPC_RESPONSE_CODES).sort()).toEqual(specResponseCodes(text).sort());
    expect(specResponseCodes(text)).toHaveLength(4);
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
          // @ts-expect-error: overrides of every wrong type, on purpose
          frontend_method: override,
        }),
      ).toBe('add_to_cart');
    },
  );
  it('rejects an empty name', () => {
    expect(() => resolveRpcMethodName({ name: '' })).toThrow(InvalidToolNameError);
    // @ts-expect-error: a number for the name, on purpose
    expect(() => resolveRpcMethodName({ name: 7 })).toThrow(/non-empty string/);
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
