import { describe, expect, it } from 'vitest';
import { readClientMessage } from '@scenaro/sdk/protocol';
import type { ClientRtviMessage, InvalidMessageError } from '@scenaro/sdk/protocol';
import { MAX_NESTING_DEPTH } from '../scenario/initialize.js';
import { screenMessage } from './message-screen.js';

/** What the server decodes from `envelope` (a message, or one refused by validation). */
function read(envelope: object): ClientRtviMessage | InvalidMessageError {
  const read = readClientMessage(envelope);
  if (read.kind === 'error' && read.reason === 'bad-envelope') throw new Error('not an envelope');
  return read;
}

const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

describe('screenMessage', () => {
  it('hands a valid message on', () => {
    const message = { label: 'rtvi-ai', type: 'client-message', id: '1', data: { t: 'reset' } };
    expect(screenMessage(read(message))).toEqual({ kind: 'handle', message });
  });

  it("ignores a peer's error, valid or not", () => {
    for (const type of ['error', 'error-response']) {
      expect(screenMessage(read({ label: 'rtvi-ai', type, id: 'x' }))).toMatchObject({
        kind: 'ignore',
        envelope: { type },
      });
    }
  });

  it('refuses data nested too deep, before validation, addressed when it can be', () => {
    const deep = nested(MAX_NESTING_DEPTH + 1);
    const text = `Invalid message: data nests deeper than ${MAX_NESTING_DEPTH} levels`;
    expect(
      screenMessage(read({ label: 'rtvi-ai', type: 'client-message', id: 'd', data: deep })),
    ).toEqual({
      kind: 'answer',
      answer: { label: 'rtvi-ai', type: 'error-response', id: 'd', data: { error: text } },
    });
    expect(screenMessage(read({ label: 'rtvi-ai', type: 'nope', data: deep }))).toMatchObject({
      kind: 'answer',
      answer: { type: 'error', data: { error: `Invalid RTVI transport message: ${text}` } },
    });
  });

  it('answers what failed validation', () => {
    expect(screenMessage(read({ label: 'rtvi-ai', type: 'nope', id: 'u' }))).toMatchObject({
      answer: { type: 'error-response', id: 'u', data: { error: 'Unsupported type nope' } },
    });
    expect(
      screenMessage(read({ label: 'rtvi-ai', type: 'send-text', id: 'v', data: { content: 1 } })),
    ).toMatchObject({
      answer: {
        type: 'error-response',
        id: 'v',
        data: { error: expect.stringMatching(/^Invalid message: data.content/) },
      },
    });
    expect(screenMessage(read({ label: 'rtvi-ai', type: 'client-ready' }))).toMatchObject({
      answer: { type: 'error', data: { error: 'Invalid RTVI transport message: id: is required' } },
    });
  });
});
