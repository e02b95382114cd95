/**
 * `useCollection`: a collection's current value, re-rendering on change.
 */
import { useCallback, useContext, useSyncExternalStore } from 'react';
import type { Collection, CollectionStore } from '../session/collections.js';
import { ScenaroContext } from './context.js';

/**
 * The value of collection `name` of the enclosing provider's session (or of
 * `store`, which works outside a provider too), and the collection itself to
 * write to (`undefined` until a session exists).
 */
export function useCollection<T = unknown>(
  name: string,
  store?: CollectionStore,
): readonly [T | undefined, Collection<T> | undefined] {
  const context = useContext(ScenaroContext);
  const collection = (store ?? context?.session?.collections)?.get<T>(name);
  const subscribe = useCallback(
    (listener: () => void) => (collection ? collection.subscribe(listener) : () => {}),
    [collection],
  );
  const getSnapshot = useCallback(() => collection?.get(), [collection]);
  const value = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return [value, collection] as const;
}
