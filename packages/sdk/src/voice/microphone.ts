/**
 * Asking the browser for the microphone, and saying politely why it could not be had. Works on
 * the `navigator.mediaDevices` of the page (or one passed in); nothing here needs a voice
 * connection.
 */
import { errorMessage } from '../util/index.js';
import type { MicError, MicProblem } from './types.js';

/** The part of `MediaDevices` used here. */
export interface MediaDevicesLike {
  getUserMedia(constraints: { audio: boolean | Record<string, unknown> }): Promise<{
    getTracks(): { stop(): void }[];
  }>;
}

const MESSAGES: Record<MicProblem, string> = {
  unsupported:
    'This browser does not allow microphone capture here (it needs HTTPS or localhost). You can keep typing.',
  denied: 'Microphone access was denied, so the assistant cannot hear you. You can keep typing.',
  'not-found': 'No microphone was found. You can keep typing.',
  'in-use': 'The microphone is busy in another application. You can keep typing.',
  failed: 'The microphone could not start. You can keep typing.',
};

/** A {@link MicError} for `reason`, with its standard message (or `detail` appended). */
export function micError(reason: MicProblem, detail?: string): MicError {
  const message = MESSAGES[reason];
  return { reason, message: detail ? message.replace(/\.( You can)/, ` (${detail}).$1`) : message };
}

/** Classify what `getUserMedia` (or a recorder built on it) threw. */
export function micErrorOf(error: unknown): MicError {
  const name = (error as { name?: unknown } | null)?.name;
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
    case 'PermissionDeniedError':
      return micError('denied');
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return micError('not-found');
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return micError('in-use');
    case 'TypeError':
      return micError('unsupported');
    default: {
      const detail = errorMessage(error ?? '');
      return micError('failed', detail || undefined);
    }
  }
}

/** The page's `navigator.mediaDevices`, when it has one that can capture. */
export function pageMediaDevices(): MediaDevicesLike | undefined {
  const devices = (globalThis as { navigator?: { mediaDevices?: Partial<MediaDevicesLike> } })
    .navigator?.mediaDevices;
  return devices && typeof devices.getUserMedia === 'function'
    ? (devices as MediaDevicesLike)
    : undefined;
}

/**
 * Ask for the microphone once (the permission prompt, if any) and release it at once. Resolves
 * undefined when it can be used, or the {@link MicError} saying why not.
 */
export async function requestMicrophone(
  devices: MediaDevicesLike | undefined = pageMediaDevices(),
): Promise<MicError | undefined> {
  if (!devices) return micError('unsupported');
  try {
    const stream = await devices.getUserMedia({ audio: true });
    for (const track of stream.getTracks()) track.stop();
    return undefined;
  } catch (error) {
    return micErrorOf(error);
  }
}
