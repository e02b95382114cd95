import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConversationContext } from './context.js';
import type { ContextMessage } from './context.js';
import { contextHistory, contextText } from './context-text.js';
import { pythonRepr } from '../python/repr.js';
import { sanitizeContextForTransport } from './sanitize.js';

function contextOf(messages: unknown[]): ConversationContext {
  const context = new ConversationContext('system prompt');
  context.append(...(messages as ContextMessage[]));
  return context;
}

function expected(context: ConversationContext): { python: string; json: string } {
  const messages = sanitizeContextForTransport(context.messages());
  return { python: pythonRepr(messages), json: JSON.stringify(messages) };
}

// Long strings mixing quotes, escapes, astral characters and lone surrogates, so that slice
// boundaries land everywhere.
const piece = fc.constantFrom("'", '"', '\\', '\n', '\t', '\u0000', 'é', '😀', '\ud800', ' ', 'ab');
const longText = fc
  .tuple(fc.array(piece, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 3000 }))
  .map(([parts, times]) => parts.join('').repeat(times));

describe('contextText', () => {
  it('renders exactly like pythonRepr and JSON.stringify, long strings included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ role: fc.constant('user'), content: longText }),
            fc.record({ role: fc.constant('tool'), tool_call_id: fc.string(), content: fc.json() }),
            fc.record({ role: fc.constant('assistant'), content: fc.jsonValue() }),
          ),
          { maxLength: 4 },
        ),
        async (messages) => {
          const context = contextOf(messages);
          const want = expected(context);
          expect(await contextText(context, 'python')).toBe(want.python);
          expect(await contextText(context, 'json')).toBe(want.json);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps its text until the context changes', async () => {
    const context = contextOf([{ role: 'user', content: 'hi' }]);
    const first = await contextHistory(context, 'python');
    expect(await contextHistory(context, 'python')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    context.append({ role: 'assistant', content: 'hello' });
    expect(await contextText(context, 'python')).toBe(expected(context).python);
    context.reset();
    expect(await contextText(context, 'json')).toBe(
      '[{"role":"system","content":"system prompt"}]',
    );
  });

  it('counts the bytes the context holds', () => {
    const context = new ConversationContext('é');
    const size = (m: unknown) => Buffer.byteLength(JSON.stringify(m));
    expect(context.bytes).toBe(size({ role: 'system', content: 'é' }));
    context.append({ role: 'user', content: 'x'.repeat(1000) });
    const both = context.bytes;
    expect(both).toBe(
      size({ role: 'system', content: 'é' }) + size({ role: 'user', content: 'x'.repeat(1000) }),
    );
    context.truncate(1);
    expect(context.bytes).toBe(size({ role: 'system', content: 'é' }));
    context.setSystemPrompt('');
    expect(context.bytes).toBe(0);
  });
});
