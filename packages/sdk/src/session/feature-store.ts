/**
 * Feature state for the UI: the latest `componentData`, call status and error of
 * each feature, fed by a session's feature events. Framework-agnostic; the React
 * bindings read it with `useSyncExternalStore`.
 */
import type { RpcToolResponse } from '../protocol/index.js';
import type { FeatureEvent, ToolCallStatus } from './types.js';

/** What the UI knows about one feature. */
export interface FeatureState {
  feature: string;
  /** Tool of the latest call. */
  tool: string;
  /** `requestId` of the latest call. */
  requestId: string;
  /** Status of the latest call. */
  status: ToolCallStatus;
  /** The latest `componentData` any call delivered (kept while a new call runs). */
  componentData?: unknown;
  /** Error of the latest call, if it failed. */
  error?: string;
  /** What the agent received for the latest finished call. */
  response?: RpcToolResponse;
}

/** Something that emits feature events (a `ScenaroSession`). */
export interface FeatureEventSource {
  on(event: 'feature', listener: (event: FeatureEvent) => void): () => void;
}

/** Latest state per feature, observable. Snapshots are immutable and replaced on change. */
export class FeatureStore {
  private states = new Map<string, FeatureState>();
  private readonly listeners = new Set<() => void>();

  /** Follow a session's feature events; returns the unsubscribe function. */
  connect(source: FeatureEventSource): () => void {
    return source.on('feature', (event) => this.apply(event));
  }

  /** Fold one event into the state. */
  apply(event: FeatureEvent): void {
    const previous = this.states.get(event.feature);
    const next: FeatureState = {
      feature: event.feature,
      tool: event.tool,
      requestId: event.requestId,
      status: event.status,
    };
    const componentData =
      event.componentData !== undefined ? event.componentData : previous?.componentData;
    if (componentData !== undefined) next.componentData = componentData;
    if (event.error !== undefined) next.error = event.error;
    if (event.response !== undefined) next.response = event.response;
    const states = new Map(this.states);
    states.set(event.feature, next);
    this.states = states;
    for (const listener of [...this.listeners]) listener();
  }

  /** State of one feature (a stable object until the feature changes). */
  get(feature: string): FeatureState | undefined {
    return this.states.get(feature);
  }

  /** Every feature's state (a new map after each change). */
  getSnapshot(): ReadonlyMap<string, FeatureState> {
    return this.states;
  }

  /** Subscribe to changes; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Forget everything. */
  clear(): void {
    this.states = new Map();
    for (const listener of [...this.listeners]) listener();
  }
}
