/**
 * `useFeature`: the latest state of one feature.
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { RpcToolResponse } from '../protocol/index.js';
import type { ToolCallStatus } from '../session/types.js';
import { useScenaroContext } from './context.js';

/** What a feature component renders from. */
export interface FeatureView<C = unknown> {
  /** `idle` before any call; then the status of the latest call. */
  status: ToolCallStatus | 'idle';
  /** The latest `componentData` delivered to this feature. */
  componentData: C | undefined;
  /** Why the latest call failed, if it did. */
  error: string | undefined;
  requestId: string | undefined;
  tool: string | undefined;
  /** What the agent received for the latest finished call. */
  response: RpcToolResponse | undefined;
  /** Cancel the running call (it answers `CANCELLED`); false if none is running. */
  cancel: () => boolean;
}

/** Subscribe to one feature's state (re-renders only when that feature changes). */
export function useFeature<C = unknown>(feature: string): FeatureView<C> {
  const { session, features } = useScenaroContext();
  const subscribe = useCallback((listener: () => void) => features.subscribe(listener), [features]);
  const getSnapshot = useCallback(() => features.get(feature), [features, feature]);
  const state = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return useMemo(() => {
    const requestId = state?.requestId;
    return {
      status: state?.status ?? 'idle',
      componentData: state?.componentData as C | undefined,
      error: state?.error,
      requestId,
      tool: state?.tool,
      response: state?.response,
      cancel: () =>
        state?.status === 'running' && requestId !== undefined && session
          ? session.cancel(requestId)
          : false,
    };
  }, [state, session]);
}
