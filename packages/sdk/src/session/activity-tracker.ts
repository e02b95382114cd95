/**
 * UI activity tracker: follows pointer, key, scroll, touch, focus and visibility
 * events to answer the agent's `scenaro__ui_activity_check`.
 */
import type { UiActivitySnapshot } from '../protocol/index.js';
import { defaultClock } from '../rpc/timers.js';
import type { Clock } from '../rpc/timers.js';

/** The part of `EventTarget` the tracker uses (a `window`, a `document`, an element). */
export interface ActivityEventSource {
  addEventListener(
    type: string,
    listener: (event: unknown) => void,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: (event: unknown) => void,
    options?: boolean | EventListenerOptions,
  ): void;
}

/** The part of `document` the tracker reads. */
export interface ActivityDocument extends ActivityEventSource {
  readonly visibilityState?: string;
  hasFocus?(): boolean;
}

/** Options of a {@link UiActivityTracker}. */
export interface UiActivityTrackerOptions {
  /** Where interaction events are heard. @default globalThis.window, if any */
  target?: ActivityEventSource | null;
  /** Source of visibility and focus state. @default globalThis.document, if any */
  document?: ActivityDocument | null;
  clock?: Clock;
  /** Idle time after which the user no longer counts as active. @default 30000 */
  idleThresholdMs?: number;
}

/** Events that count as user activity (listened to in the capture phase, passive). */
export const ACTIVITY_EVENT_TYPES = [
  'pointerdown',
  'pointermove',
  'keydown',
  'wheel',
  'scroll',
  'touchstart',
  'focus',
] as const;

const CAPTURE: AddEventListenerOptions = { capture: true, passive: true };

/** Tracks the last user interaction and the page's visibility and focus. */
export class UiActivityTracker {
  readonly idleThresholdMs: number;
  private readonly target: ActivityEventSource | null;
  private readonly doc: ActivityDocument | null;
  private readonly clock: Clock;
  private lastActivityAt: number;
  private visible = true;
  private focused = true;
  private isRunning = false;
  private attached = 0;

  constructor(options: UiActivityTrackerOptions = {}) {
    const scope = globalThis as { window?: ActivityEventSource; document?: ActivityDocument };
    const fallback = scope.window;
    // A `window` without listeners (Node with a `window` shim, some test setups) cannot be watched.
    const usable = fallback && typeof fallback.addEventListener === 'function' ? fallback : null;
    this.target = options.target === undefined ? usable : options.target;
    this.doc = options.document === undefined ? (scope.document ?? null) : options.document;
    this.clock = options.clock ?? defaultClock;
    this.idleThresholdMs = options.idleThresholdMs ?? 30000;
    this.lastActivityAt = this.clock();
  }

  /** Whether the tracker is listening. */
  get running(): boolean {
    return this.isRunning;
  }

  /** Event listeners currently attached (0 when stopped). */
  get listenerCount(): number {
    return this.attached;
  }

  /** Start listening. Idempotent; the idle clock restarts. */
  start(): void {
    if (this.isRunning) return;
    this.isRunning = true;
    this.lastActivityAt = this.clock();
    this.visible = this.readVisible() ?? true;
    this.focused = this.readFocused() ?? true;
    if (this.target) {
      for (const type of ACTIVITY_EVENT_TYPES) {
        this.target.addEventListener(type, this.onActivity, CAPTURE);
        this.attached++;
      }
      this.target.addEventListener('blur', this.onBlur, CAPTURE);
      this.attached++;
    }
    if (this.doc) {
      this.doc.addEventListener('visibilitychange', this.onVisibility);
      this.attached++;
    }
  }

  /** Stop listening. Idempotent. */
  stop(): void {
    if (!this.isRunning) return;
    this.isRunning = false;
    if (this.target) {
      for (const type of ACTIVITY_EVENT_TYPES) {
        this.target.removeEventListener(type, this.onActivity, CAPTURE);
      }
      this.target.removeEventListener('blur', this.onBlur, CAPTURE);
    }
    this.doc?.removeEventListener('visibilitychange', this.onVisibility);
    this.attached = 0;
  }

  /** Record an interaction the tracker cannot hear (e.g. from a parent frame). */
  markActivity(): void {
    this.lastActivityAt = this.clock();
  }

  /** Current state, as answered to `scenaro__ui_activity_check`. */
  snapshot(): UiActivitySnapshot {
    const now = this.clock();
    const idleMs = Math.max(0, now - this.lastActivityAt);
    const visible = this.readVisible() ?? this.visible;
    const focused = this.readFocused() ?? this.focused;
    return {
      active: visible && idleMs < this.idleThresholdMs,
      idleMs,
      lastActivityAt: this.lastActivityAt,
      visible,
      focused,
    };
  }

  private readVisible(): boolean | undefined {
    const state = this.doc?.visibilityState;
    return state === undefined ? undefined : state !== 'hidden';
  }

  private readFocused(): boolean | undefined {
    return typeof this.doc?.hasFocus === 'function' ? this.doc.hasFocus() : undefined;
  }

  private readonly onActivity = (event: unknown): void => {
    this.lastActivityAt = this.clock();
    if ((event as { type?: unknown } | null)?.type === 'focus') this.focused = true;
  };

  private readonly onBlur = (event: unknown): void => {
    // Element blurs reach the window in the capture phase too; only the window's own counts.
    const target = (event as { target?: unknown } | null)?.target;
    if (target === undefined || target === null || target === this.target) this.focused = false;
  };

  private readonly onVisibility = (): void => {
    const visible = this.readVisible() ?? true;
    if (visible && !this.visible) this.lastActivityAt = this.clock();
    this.visible = visible;
  };
}
