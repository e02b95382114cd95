import { RpcError as LiveKitRpcError } from 'livekit-client';
import { describe, expect, it } from 'vitest';
import { RPC_ERROR_CODES, RPC_ERROR_MESSAGES, RpcError, isTimeoutCode } from './errors.js';
import { byteLength, truncateBytes } from './utf8.js';

describe('RpcError', () => {
  it('uses the LiveKit codes and messages', () => {
    expect(RPC_ERROR_CODES).toEqual({ ...LiveKitRpcError.ErrorCode });
    expect(RPC_ERROR_MESSAGES).toEqual({ ...LiveKitRpcError.ErrorMessage });
  });

  it('builds built-in errors with livekit-client messages', () => {
    const error = RpcError.builtIn('UNSUPPORTED_METHOD', 'x');
    expect(error.code).toBe(1400);
    expect(error.message).toBe('Method not supported at destination');
    expect(error.data).toBe('x');
    expect(error.key).toBe('UNSUPPORTED_METHOD');
    expect(new RpcError(42, 'app').key).toBeUndefined();
  });

  it('truncates message to 256 and data to 15360 UTF-8 bytes', () => {
    const error = new RpcError(1, 'é'.repeat(400), 'ü'.repeat(10000));
    expect(byteLength(error.message)).toBe(256);
    expect(error.message).toBe('é'.repeat(128));
    expect(byteLength(error.data ?? '')).toBe(15360);
  });

  it('recognises instances from another copy of the package by a global symbol', () => {
    const foreign = Object.create(null) as Record<symbol, unknown>;
    foreign[Symbol.for('@scenaro/sdk.RpcError')] = true;
    expect(RpcError.isInstance(foreign)).toBe(true);
    expect(RpcError.isInstance(new RpcError(1500, 'x'))).toBe(true);
    expect(RpcError.isInstance(Object.assign(new Error('x'), { code: 1500 }))).toBe(false);
    expect(RpcError.isInstance(null)).toBe(false);
  });

  it('normalises thrown values', () => {
    const own = RpcError.builtIn('SEND_FAILED');
    expect(RpcError.from(own)).toBe(own);
    const lk = RpcError.from({ code: 1502, message: 'Response timeout', data: 'd' });
    expect([lk.code, lk.message, lk.data]).toEqual([1502, 'Response timeout', 'd']);
    const plain = RpcError.from(new TypeError('boom'));
    expect([plain.code, plain.data]).toEqual([1500, 'Uncaught error: boom']);
    expect(plain.cause).toBeInstanceOf(TypeError);
    expect(RpcError.from('text').data).toBe('Uncaught error: text');
  });

  it('round-trips its wire form', () => {
    const wire = new RpcError(3001, 'custom', 'payload').toWire();
    expect(wire).toEqual({ code: 3001, message: 'custom', data: 'payload' });
    expect(JSON.parse(JSON.stringify(RpcError.fromWire(wire)))).toEqual(wire);
    expect(new RpcError(3001, 'm').toWire()).toEqual({ code: 3001, message: 'm' });
  });

  it('classifies timeout codes', () => {
    expect([1500, 1501, 1502, 1503].map(isTimeoutCode)).toEqual([false, true, true, false]);
  });
});

describe('utf8', () => {
  it('counts UTF-8 bytes like TextEncoder', () => {
    for (const text of ['', 'abc', 'é', '€', '😀', 'a😀é€', '\ud800x', 'x\udc00']) {
      expect(byteLength(text)).toBe(new TextEncoder().encode(text).length);
    }
  });
  it('never splits a code point when truncating', () => {
    expect(truncateBytes('😀😀', 5)).toBe('😀');
    expect(truncateBytes('abc', 3)).toBe('abc');
    expect(truncateBytes('abcd', 3)).toBe('abc');
  });
});
