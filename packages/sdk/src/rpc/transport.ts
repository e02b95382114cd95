/**
 * `RpcTransport`: the one interface every transport (loopback, LiveKit, RTVI)
 * implements. The session and the agent-side caller only ever see this.
 */

/** What a method handler receives for one inbound call. */
export interface RpcInvocation {
  /** Transport-level id of this call (not the tool's `requestId`). */
  requestId: string;
  /** Identity of the participant that called. */
  callerIdentity: string;
  /** The request payload, usually JSON. */
  payload: string;
  /**
   * How long the caller says it waits, as the transport reports it. Untrustworthy
   * on LiveKit (JS callers report `max(t, 8000)`, Rust callers `max(t - 7000, 1000)`):
   * treat it as an upper bound only.
   */
  responseTimeoutMs: number;
  /** Aborted when the caller disconnects or the transport shuts down. */
  signal?: AbortSignal;
}

/** Handles one inbound call: returns the response payload, or throws (an `RpcError` keeps its code). */
export type RpcMethodHandler = (invocation: RpcInvocation) => Promise<string> | string;

/** An outbound call. */
export interface PerformRpcParams {
  destinationIdentity: string;
  method: string;
  payload: string;
  /** How long to wait for the response before rejecting with `RESPONSE_TIMEOUT` (1502). */
  responseTimeoutMs: number;
  /** Aborting rejects the call with the signal's reason; nothing is sent to the peer. */
  signal?: AbortSignal;
}

/** A disconnection the transport observed. */
export type RpcDisconnectEvent =
  /** A remote participant left; calls to and from it are over. */
  | { kind: 'peer'; identity: string }
  /** The local side lost its session; every peer is gone. */
  | { kind: 'local'; reason?: string };

/** Listener for {@link RpcTransport.onDisconnect}. */
export type RpcDisconnectListener = (event: RpcDisconnectEvent) => void;

/**
 * A request/response RPC channel between named participants, with LiveKit RPC
 * semantics: failures reject with `RpcError` (numeric codes), payloads are
 * strings limited to {@link RpcTransport.maxPayloadBytes} UTF-8 bytes.
 */
export interface RpcTransport {
  /** This side's participant identity. */
  readonly localIdentity: string;
  /** Largest request or response payload, in UTF-8 bytes, the peer is guaranteed to accept. */
  readonly maxPayloadBytes: number;
  /** Register a handler. Throws if `method` already has one. */
  registerMethod(method: string, handler: RpcMethodHandler): void;
  /** Remove a handler; unknown methods are ignored. */
  unregisterMethod(method: string): void;
  /** Call `method` on `destinationIdentity`; rejects with `RpcError` or the signal's reason. */
  performRpc(params: PerformRpcParams): Promise<string>;
  /** Subscribe to peer and session disconnects; returns the unsubscribe function. */
  onDisconnect(listener: RpcDisconnectListener): () => void;
}
