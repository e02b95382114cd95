/**
 * `useDictation`: a {@link DictationController}'s state in a component, with its actions.
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { DictationController, DictationState } from '../voice/dictation-controller.js';

const IDLE: DictationState = { phase: 'idle', before: '', interim: '', error: undefined };
const noSubscription = () => () => {};

/** What {@link useDictation} gives. */
export interface DictationView extends DictationState {
  /** Start dictating into a box that holds `before`. */
  start: (before: string) => Promise<boolean>;
  /** The box's new text, or undefined when the agent did not answer. */
  end: () => Promise<string | undefined>;
  /** The text the box held before. */
  cancel: () => Promise<string>;
  dismissError: () => void;
}

/** The dictation's state (re-rendering on change); idle and inert while `controller` is null. */
export function useDictation(controller: DictationController | null | undefined): DictationView {
  const subscribe = useCallback(
    (listener: () => void) => (controller ? controller.subscribe(listener) : noSubscription()),
    [controller],
  );
  const getSnapshot = useCallback(() => controller?.getSnapshot() ?? IDLE, [controller]);
  const state = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return useMemo(
    () => ({
      ...state,
      start: async (before) => (controller ? controller.start(before) : false),
      end: async () => controller?.end(),
      cancel: async () => (controller ? controller.cancel() : state.before),
      dismissError: () => controller?.dismissError(),
    }),
    [state, controller],
  );
}
