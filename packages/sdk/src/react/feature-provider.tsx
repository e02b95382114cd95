/**
 * `FeatureProvider`: gives its subtree a session and the latest state of every
 * feature (componentData, call status, error). Pass a session made with
 * `useScenaroSession`, or the session options to let the provider own one.
 */
import { useEffect, useMemo } from 'react';
import type { ReactNode } from 'react';
import { FeatureStore } from '../session/feature-store.js';
import type { ScenaroSession } from '../session/scenaro-session.js';
import { ScenaroContext } from './context.js';
import type { ScenaroContextValue } from './context.js';
import { useScenaroSession } from './use-scenaro-session.js';
import type { UseScenaroSessionOptions } from './use-scenaro-session.js';

/** Props of {@link FeatureProvider}: an existing session, or options to create one. */
export type FeatureProviderProps = { children?: ReactNode } & (
  { session: ScenaroSession | null } | UseScenaroSessionOptions
);

const NO_SESSION: UseScenaroSessionOptions = { transport: null, tools: [], handlers: {} };

/** Provides the session and the per-feature state to `useFeature` / `useCollection`. */
export function FeatureProvider(props: FeatureProviderProps): ReactNode {
  const { children, ...rest } = props;
  const external = 'session' in rest;
  const own = useScenaroSession(external ? NO_SESSION : (rest as UseScenaroSessionOptions));
  const session = external ? (rest as { session: ScenaroSession | null }).session : own;
  const features = useMemo(() => {
    void session; // a new store per session
    return new FeatureStore();
  }, [session]);
  useEffect(() => (session ? features.connect(session) : undefined), [session, features]);
  const value = useMemo<ScenaroContextValue>(() => ({ session, features }), [session, features]);
  return <ScenaroContext.Provider value={value}>{children}</ScenaroContext.Provider>;
}
