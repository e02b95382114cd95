/**
 * RTVI protocol version negotiation, as Pipecat does it in the `client-ready` handshake.
 */
import { RTVI_LEGACY_SUPPORTED_MAJOR, RTVI_PROTOCOL_VERSION } from './rtvi.js';

/** Outcome of checking a client's protocol version. */
export type VersionCheck =
  { ok: true; version: string; legacy: boolean } | { ok: false; version: string; error: string };

/**
 * Check a `client-ready` version the way Pipecat does: exactly three integer
 * parts; the server's major or the legacy major 1 are accepted (a legacy
 * client's version is echoed back). Anything else yields an error text, and the
 * server continues with its own version.
 */
export function negotiateVersion(clientVersion: unknown): VersionCheck {
  if (typeof clientVersion !== 'string') {
    return {
      ok: false,
      version: RTVI_PROTOCOL_VERSION,
      error: `Client version unknown. Server protocol is ${RTVI_PROTOCOL_VERSION}. Compatibility issues may occur.`,
    };
  }
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(clientVersion);
  const serverMajor = Number(RTVI_PROTOCOL_VERSION.split('.')[0]);
  const major = match ? Number(match[1]) : NaN;
  if (major === serverMajor) return { ok: true, version: RTVI_PROTOCOL_VERSION, legacy: false };
  if (major === RTVI_LEGACY_SUPPORTED_MAJOR)
    return { ok: true, version: clientVersion, legacy: true };
  return {
    ok: false,
    version: RTVI_PROTOCOL_VERSION,
    error: `RTVI version ${clientVersion} is not compatible with server protocol ${RTVI_PROTOCOL_VERSION}. Compatibility issues may occur.`,
  };
}
