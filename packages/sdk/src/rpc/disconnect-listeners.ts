/**
 * The disconnect listeners of one transport: added and removed by `onDisconnect`, called in
 * order on each disconnect; a listener that throws is logged and the others still run.
 */
import type { Logger } from './logger.js';
import type { RpcDisconnectEvent, RpcDisconnectListener } from './transport.js';

/** A transport's set of {@link RpcDisconnectListener}s. */
export class DisconnectListeners {
  private readonly listeners = new Set<RpcDisconnectListener>();
  private readonly logger: () => Logger;

  /** `logger` is read at each call, so a transport may change its logger later. */
  constructor(logger: () => Logger) {
    this.logger = logger;
  }

  /** How many listeners are registered. */
  get size(): number {
    return this.listeners.size;
  }

  /** Add `listener`; the returned function removes it. */
  add(listener: RpcDisconnectListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Call every listener with `event`. */
  emit(event: RpcDisconnectEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        this.logger().error({ error: String(err) }, 'disconnect listener threw');
      }
    }
  }

  /** Forget every listener. */
  clear(): void {
    this.listeners.clear();
  }
}
