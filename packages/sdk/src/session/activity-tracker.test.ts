import { describe, expect, it } from 'vitest';
import { ACTIVITY_EVENT_TYPES, UiActivityTracker } from './activity-tracker.js';

class FakeDocument extends EventTarget {
  visibilityState = 'visible';
  focused = true;
  hasFocus(): boolean {
    return this.focused;
  }
}

function setup(idleThresholdMs = 10000) {
  const target = new EventTarget();
  const doc = new FakeDocument();
  let now = 50_000;
  const clock = { advance: (ms: number) => (now += ms) };
  const tracker = new UiActivityTracker({
    target,
    document: doc,
    clock: () => now,
    idleThresholdMs,
  });
  return { target, doc, clock, tracker };
}

describe('UiActivityTracker', () => {
  it.each(ACTIVITY_EVENT_TYPES)('counts %s as activity', (type) => {
    const { target, clock, tracker } = setup();
    tracker.start();
    clock.advance(8000);
    target.dispatchEvent(new Event(type));
    clock.advance(5);
    expect(tracker.snapshot()).toMatchObject({ idleMs: 5, lastActivityAt: 58_000, active: true });
  });

  it('becomes inactive after the idle threshold', () => {
    const { clock, tracker } = setup(10000);
    tracker.start();
    clock.advance(9999);
    expect(tracker.snapshot().active).toBe(true);
    clock.advance(1);
    expect(tracker.snapshot()).toMatchObject({ active: false, idleMs: 10000 });
  });

  it('is inactive while hidden and counts becoming visible as activity', () => {
    const { doc, clock, tracker } = setup();
    tracker.start();
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    expect(tracker.snapshot()).toMatchObject({ active: false, visible: false, idleMs: 0 });
    clock.advance(3000);
    doc.visibilityState = 'visible';
    doc.dispatchEvent(new Event('visibilitychange'));
    expect(tracker.snapshot()).toMatchObject({ active: true, visible: true, idleMs: 0 });
  });

  it('reports focus from the document, or from window focus/blur without one', () => {
    const { doc, tracker } = setup();
    doc.focused = false;
    expect(tracker.snapshot().focused).toBe(false);

    const target = new EventTarget();
    const bare = new UiActivityTracker({ target, document: null, clock: () => 0 });
    bare.start();
    const element = new EventTarget();
    // An element's blur does not unfocus the window.
    element.dispatchEvent(new Event('blur'));
    target.dispatchEvent(new Event('blur'));
    expect(bare.snapshot().focused).toBe(false);
    target.dispatchEvent(new Event('focus'));
    expect(bare.snapshot().focused).toBe(true);
  });

  it('ignores events after stop and attaches listeners once however often started', () => {
    const { target, clock, tracker } = setup();
    tracker.start();
    tracker.start();
    expect(tracker.listenerCount).toBe(ACTIVITY_EVENT_TYPES.length + 2);
    tracker.stop();
    tracker.stop();
    expect(tracker.listenerCount).toBe(0);
    clock.advance(4000);
    target.dispatchEvent(new Event('keydown'));
    expect(tracker.snapshot().idleMs).toBe(4000);
  });

  it('accepts activity marked by the app', () => {
    const { clock, tracker } = setup();
    tracker.start();
    clock.advance(700);
    tracker.markActivity();
    expect(tracker.snapshot().idleMs).toBe(0);
  });
});
