/**
 * Every inbound RTVI message of a client-js transport, before the client handles it. client-js
 * has no callback for some server events (`bot-interrupted` among them); a transport hands every
 * message to the handler its `initialize(options, messageHandler)` received, so the tap wraps
 * that handler. Install it on the transport before the `PipecatClient` is created (the client
 * initializes its transport in its constructor).
 */
import { Emitter } from '../session/emitter.js';

/** An inbound RTVI message as client-js's transports deliver it. */
export interface RtviInboundMessage {
  type: string;
  id?: string;
  data?: unknown;
}

/** The part of a client-js `Transport` the tap wraps. */
export interface RtviTransportLike {
  initialize(options: unknown, messageHandler: (message: RtviInboundMessage) => void): void;
}

/** Subscribe to the tapped messages. */
export interface RtviMessageTap {
  subscribe(listener: (message: RtviInboundMessage) => void): () => void;
}

/** Tap `transport`'s inbound messages (call before `new PipecatClient({transport})`). */
export function tapRtviMessages(transport: RtviTransportLike): RtviMessageTap {
  const tapped = new Emitter<{ message: RtviInboundMessage }>();
  const initialize = transport.initialize.bind(transport);
  transport.initialize = (options, handler) =>
    initialize(options, (message) => {
      tapped.emit('message', message);
      handler(message);
    });
  return { subscribe: (listener) => tapped.on('message', listener) };
}
