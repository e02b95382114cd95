/**
 * The events of the caller's line (`caller-line.ts`): the effects processor's and the caller's
 * behaviours, `{kind, start, end, detail}` in seconds on the timeline.
 *
 * @module
 */
import type { CallerEffectEvent } from '../caller/events.js';

/** A behaviour of the caller's on the timeline. */
export type CallerBehaviourEvent =
  | { kind: 'backchannel'; start: number; end: number; detail: { text: string } }
  | {
      kind: 'interruption';
      start: number;
      end: number;
      /** Seconds into the agent's turn where the caller stopped listening to cut in. */
      detail: { cutInAt: number };
    };

/** Everything on the caller's timeline: the effects and the behaviours. */
export type CallerLineEvent = CallerEffectEvent | CallerBehaviourEvent;
