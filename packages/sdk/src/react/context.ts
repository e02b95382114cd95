/**
 * The React context shared by `FeatureProvider` and the hooks.
 */
import { createContext, useContext } from 'react';
import type { FeatureStore } from '../session/feature-store.js';
import type { ScenaroSession } from '../session/scenaro-session.js';

/** What `FeatureProvider` gives its subtree. */
export interface ScenaroContextValue {
  session: ScenaroSession | null;
  features: FeatureStore;
}

/** @internal */
export const ScenaroContext = createContext<ScenaroContextValue | null>(null);

/** The nearest `FeatureProvider`'s session and feature store. Throws outside one. */
export function useScenaroContext(): ScenaroContextValue {
  const value = useContext(ScenaroContext);
  if (!value) throw new Error('Scenaro hooks must be used inside <FeatureProvider>');
  return value;
}
