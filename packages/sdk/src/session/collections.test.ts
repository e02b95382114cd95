import { describe, expect, it, vi } from 'vitest';
import { useFakeTimersInEachTest } from '../test-support/fake-timers.js';
import { CollectionStore } from './collections.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('collections', () => {
  useFakeTimersInEachTest();

  it('applies a write on an idle collection synchronously and notifies subscribers', async () => {
    const store = new CollectionStore({ cart: ['a'] });
    const cart = store.get<string[]>('cart');
    const seen: unknown[] = [];
    const off = cart.subscribe((value, previous) => seen.push([value, previous]));
    const done = cart.set(['a', 'b']);
    expect(cart.get()).toEqual(['a', 'b']);
    await expect(done).resolves.toEqual(['a', 'b']);
    expect(seen).toEqual([[['a', 'b'], ['a']]]);
    off();
    void cart.set([]);
    expect(seen).toHaveLength(1);
    expect(cart.listenerCount).toBe(0);
  });

  it('does not notify when the value is the same object', () => {
    const store = new CollectionStore();
    const value = { n: 1 };
    const c = store.get('x');
    void c.set(value);
    const listener = vi.fn();
    c.subscribe(listener);
    void c.set(value);
    expect(listener).not.toHaveBeenCalled();
  });

  it('applies async updates in call order, never interleaving', async () => {
    const store = new CollectionStore({ log: [] as string[] });
    const log = store.get<string[]>('log');
    const running: string[] = [];
    const step = (name: string, ms: number) =>
      log.update(async (items = []) => {
        running.push(name);
        expect(running).toHaveLength(1);
        await sleep(ms);
        running.pop();
        return [...items, name];
      });
    const results = [step('slow', 300), step('fast', 10), step('mid', 100)];
    const set = log.set(['reset']);
    expect(log.pendingWrites).toBe(4);
    await vi.advanceTimersByTimeAsync(500);
    expect(await Promise.all(results)).toEqual([
      ['slow'],
      ['slow', 'fast'],
      ['slow', 'fast', 'mid'],
    ]);
    await expect(set).resolves.toEqual(['reset']);
    expect(log.get()).toEqual(['reset']);
    expect(log.pendingWrites).toBe(0);
  });

  it('keeps the queue going after a failing update and leaves the value unchanged', async () => {
    const store = new CollectionStore({ n: 1 });
    const n = store.get<number>('n');
    const failing = n.update(async () => {
      await sleep(10);
      throw new Error('nope');
    });
    const next = n.update((v = 0) => v + 1);
    await expect(
      store.get<number>('m').update(() => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    await vi.advanceTimersByTimeAsync(10);
    await expect(failing).rejects.toThrow('nope');
    await expect(next).resolves.toBe(2);
  });

  it('creates collections on demand and reports store-wide changes', () => {
    const store = new CollectionStore({ a: 1 });
    const changes: unknown[] = [];
    store.subscribe((name, value) => changes.push([name, value]));
    expect(store.has('b')).toBe(false);
    void store.get('b').set(2);
    void store.get('a').set(3);
    expect(store.names()).toEqual(['a', 'b']);
    expect(store.snapshot()).toEqual({ a: 3, b: 2 });
    expect(changes).toEqual([
      ['b', 2],
      ['a', 3],
    ]);
  });

  it('reports a throwing subscriber without failing the write', async () => {
    const errors: unknown[] = [];
    const store = new CollectionStore({}, (e) => errors.push(e));
    const c = store.get<number>('c');
    const good = vi.fn();
    c.subscribe(() => {
      throw new Error('listener bug');
    });
    c.subscribe(good);
    await expect(c.set(1)).resolves.toBe(1);
    expect(good).toHaveBeenCalledWith(1, undefined);
    expect(errors).toHaveLength(1);
  });
});
