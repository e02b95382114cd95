/**
 * `useScenaroSession`: a `ScenaroSession` bound to a component's lifetime.
 */
import { useEffect, useMemo } from 'react';
import type { RpcTransport } from '../rpc/transport.js';
import { ScenaroSession } from '../session/scenaro-session.js';
import type { ScenaroSessionOptions } from '../session/scenaro-session.js';
import type { ToolDefinition, ToolHandlers, ToolSettings } from '../session/types.js';

/** Options of {@link useScenaroSession}. */
export interface UseScenaroSessionOptions extends Omit<
  ScenaroSessionOptions,
  'transport' | 'config' | 'handlers'
> {
  /** The transport; `null` until it exists (no session is created meanwhile). */
  transport: RpcTransport | null | undefined;
  /** Tools of the config payload; changes are applied by method name (no churn when equal). */
  tools: readonly ToolDefinition[];
  settings?: ToolSettings;
  /** Handlers by tool name; may change on every render. */
  handlers: ToolHandlers;
}

/**
 * Create a session for `transport`, start it while mounted and stop it on unmount
 * (StrictMode's double mount starts, stops and starts the same session). `tools`,
 * `settings` and `handlers` follow the props; the other options are read when the
 * session is created (once per transport).
 */
export function useScenaroSession(options: UseScenaroSessionOptions): ScenaroSession | null {
  const { transport, tools, settings, handlers, ...rest } = options;
  const session = useMemo(
    () =>
      transport
        ? new ScenaroSession({
            ...rest,
            transport,
            handlers,
            config: { tools, settings: settings ?? {} },
          })
        : null,
    // Only a new transport makes a new session; the rest follows through the effects below.
    [transport],
  );
  useEffect(() => {
    session?.setHandlers(handlers);
  }, [session, handlers]);
  useEffect(() => {
    session?.applyConfig({ tools, settings: settings ?? {} });
  }, [session, tools, settings]);
  useEffect(() => {
    if (!session) return undefined;
    session.start();
    return () => session.stop('the component unmounted');
  }, [session]);
  return session;
}
