/**
 * `RpcError`: a failed RPC, with LiveKit-compatible numeric codes so errors
 * cross the LiveKit, RTVI and loopback transports unchanged.
 *
 * Codes 1001-1999 are reserved for built-in errors; applications may throw any
 * other number from a handler.
 */
import { errorMessage } from '../util/index.js';
import { truncateBytes } from './utf8.js';

/** Built-in error codes, identical to livekit-client's `RpcError.ErrorCode`. */
export const RPC_ERROR_CODES = {
  APPLICATION_ERROR: 1500,
  CONNECTION_TIMEOUT: 1501,
  RESPONSE_TIMEOUT: 1502,
  RECIPIENT_DISCONNECTED: 1503,
  RESPONSE_PAYLOAD_TOO_LARGE: 1504,
  SEND_FAILED: 1505,
  UNSUPPORTED_METHOD: 1400,
  RECIPIENT_NOT_FOUND: 1401,
  REQUEST_PAYLOAD_TOO_LARGE: 1402,
  UNSUPPORTED_SERVER: 1403,
  UNSUPPORTED_VERSION: 1404,
} as const;

/** Name of a built-in error code. */
export type RpcErrorKey = keyof typeof RPC_ERROR_CODES;

/** Default message of each built-in code (livekit-client's texts). */
export const RPC_ERROR_MESSAGES: Readonly<Record<RpcErrorKey, string>> = {
  APPLICATION_ERROR: 'Application error in method handler',
  CONNECTION_TIMEOUT: 'Connection timeout',
  RESPONSE_TIMEOUT: 'Response timeout',
  RECIPIENT_DISCONNECTED: 'Recipient disconnected',
  RESPONSE_PAYLOAD_TOO_LARGE: 'Response payload too large',
  SEND_FAILED: 'Failed to send',
  UNSUPPORTED_METHOD: 'Method not supported at destination',
  RECIPIENT_NOT_FOUND: 'Recipient not found',
  REQUEST_PAYLOAD_TOO_LARGE: 'Request payload too large',
  UNSUPPORTED_SERVER: 'RPC not supported by server',
  UNSUPPORTED_VERSION: 'Unsupported RPC version',
};

const KEY_BY_CODE = new Map<number, RpcErrorKey>(
  (Object.entries(RPC_ERROR_CODES) as [RpcErrorKey, number][]).map(([key, code]) => [code, key]),
);

const MARKER = Symbol.for('@scenaro/sdk.RpcError');

/** The wire form of an {@link RpcError}. */
export interface RpcErrorWire {
  code: number;
  message: string;
  data?: string;
}

/** A failed RPC. `message` is capped at 256 UTF-8 bytes and `data` at 15,360. */
export class RpcError extends Error {
  /** Maximum UTF-8 bytes of `message`. */
  static readonly MAX_MESSAGE_BYTES = 256;
  /** Maximum UTF-8 bytes of `data`. */
  static readonly MAX_DATA_BYTES = 15360;
  /** Built-in codes by name. */
  static readonly ErrorCode = RPC_ERROR_CODES;

  override readonly name: string = 'RpcError';
  /** Numeric wire code. */
  readonly code: number;
  /** Optional detail sent with the error. */
  readonly data: string | undefined;

  constructor(code: number, message: string, data?: string, options?: { cause?: unknown }) {
    super(truncateBytes(message, RpcError.MAX_MESSAGE_BYTES), options);
    this.code = code;
    this.data = data ? truncateBytes(data, RpcError.MAX_DATA_BYTES) : undefined;
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** A built-in error with its default message. */
  static builtIn(key: RpcErrorKey, data?: string, options?: { cause?: unknown }): RpcError {
    return new RpcError(RPC_ERROR_CODES[key], RPC_ERROR_MESSAGES[key], data, options);
  }

  /** `instanceof` that also recognises instances from another copy of this package. */
  static isInstance(value: unknown): value is RpcError {
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as Record<symbol, unknown>)[MARKER] === true
    );
  }

  /** Rebuild an error from its wire form. */
  static fromWire(wire: RpcErrorWire, options?: { cause?: unknown }): RpcError {
    return new RpcError(wire.code, wire.message, wire.data, options);
  }

  /**
   * Normalise anything thrown: our own errors pass through; an error-like value
   * with a numeric `code` and string `message` (livekit-client's `RpcError`)
   * keeps its code; anything else becomes `APPLICATION_ERROR` with the text in `data`.
   */
  static from(value: unknown): RpcError {
    if (RpcError.isInstance(value)) return value;
    if (typeof value === 'object' && value !== null) {
      const { code, message, data } = value as {
        code?: unknown;
        message?: unknown;
        data?: unknown;
      };
      if (typeof code === 'number' && Number.isInteger(code) && typeof message === 'string') {
        return new RpcError(code, message, typeof data === 'string' ? data : undefined, {
          cause: value,
        });
      }
    }
    const text = errorMessage(value);
    return RpcError.builtIn('APPLICATION_ERROR', `Uncaught error: ${text}`, { cause: value });
  }

  /** The built-in name of this error's code, if it is one. */
  get key(): RpcErrorKey | undefined {
    return KEY_BY_CODE.get(this.code);
  }

  /** The wire form (what crosses the transport). */
  toWire(): RpcErrorWire {
    const wire: RpcErrorWire = { code: this.code, message: this.message };
    if (this.data !== undefined) wire.data = this.data;
    return wire;
  }

  toJSON(): RpcErrorWire {
    return this.toWire();
  }
}

/** Whether a code means the caller gave up waiting (no ack, or no response in time). */
export function isTimeoutCode(code: number): boolean {
  return code === RPC_ERROR_CODES.CONNECTION_TIMEOUT || code === RPC_ERROR_CODES.RESPONSE_TIMEOUT;
}
