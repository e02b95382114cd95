/**
 * The composer's dictation methods of a voice session (`composer_start_dictation`,
 * `composer_end_dictation`, `composer_cancel_dictation`), registered on the session's RPC
 * transport: the page's microphone becomes words in its composer instead of a turn.
 *
 * @module
 */
import { RpcError } from '@scenaro/sdk';
import type { RpcTransport } from '@scenaro/sdk';
import { errorMessage } from '@scenaro/sdk/util';
import { FrontendToolCaller } from '../rpc/frontend-tool-caller.js';
import type { UserListener } from '../voice/user-listener.js';
import { settleWithin } from './shutdown.js';

/** Longest a dictation's end waits for the audio received before it to be heard (ms). */
const DICTATION_END_HEARING_MS = 4000;

/** What the dictation methods need of their voice session. */
export interface DictationHost {
  rpc: RpcTransport;
  /** The session's listener, started on first use; undefined when it cannot hear. */
  ears(): Promise<UserListener | undefined>;
  /** Resolves once every audio frame received so far has been heard. */
  drained(): Promise<void>;
}

/** Register the dictation methods on `host.rpc`; the result unregisters them. */
export function registerDictation(host: DictationHost): () => void {
  const caller = new FrontendToolCaller({
    transport: host.rpc,
    destinationIdentity: () => undefined,
  });
  const listener = async (): Promise<UserListener> => {
    const ready = await host.ears();
    if (!ready) {
      throw RpcError.builtIn('APPLICATION_ERROR', 'speech input is unavailable on this bot');
    }
    return ready;
  };
  const guard = <T>(run: () => T): T => {
    try {
      return run();
    } catch (err) {
      throw RpcError.builtIn('APPLICATION_ERROR', errorMessage(err));
    }
  };
  return caller.registerComposerMethods({
    start: async ({ dictationId }) => {
      const ears = await listener();
      await host.drained();
      guard(() => ears.startDictation(dictationId));
    },
    end: async ({ dictationId }) => {
      const ears = await listener();
      // What was said before the end is heard first, within a bound: the answer must come
      // inside the protocol's deadline even behind a backlog of audio.
      await settleWithin([host.drained()], DICTATION_END_HEARING_MS);
      const transcript = await guard(() => ears.endDictation(dictationId)).catch((err: unknown) => {
        throw RpcError.isInstance(err)
          ? err
          : RpcError.builtIn('APPLICATION_ERROR', errorMessage(err));
      });
      return { transcript };
    },
    cancel: async ({ dictationId }) => {
      const ears = await listener();
      await host.drained();
      guard(() => ears.cancelDictation(dictationId));
    },
  });
}
