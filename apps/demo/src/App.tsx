import { DictationController } from '@scenaro/sdk';
import type { RpcTransport, Voice } from '@scenaro/sdk';
import { FeatureProvider, useScenaroContext, useScenaroSession } from '@scenaro/sdk/react';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { CartPanel } from './components/CartPanel';
import { ComparisonPanel } from './components/ComparisonPanel';
import { ConversationPanel } from './components/ConversationPanel';
import { ProductDetail } from './components/ProductDetail';
import { ProductGrid } from './components/ProductGrid';
import { SelectionPanel } from './components/SelectionPanel';
import type { ConversationController } from './conversation';
import { createStoreApi, describeFailure } from './store-api';
import type { StoreApi } from './store-api';
import { StoreContext } from './store-context';
import type { StoreContextValue } from './store-context';
import { createToolHandlers } from './tool-handlers';
import { COLLECTIONS, FEATURES } from './types';
import type { CartView, DemoConfig, SelectionView } from './types';

/** Props of {@link App}. */
export interface AppProps {
  config: DemoConfig;
  /** The RTVI transport the ScenaroSession (frontend tools) and the store calls use. */
  transport: RpcTransport;
  /** The voice surface of the same connection (microphone, speaking, transcripts). */
  voice: Voice;
  conversation: ConversationController;
  /** Test hook: frontend tool handlers wait this long. */
  slowToolMs?: number;
}

const INITIAL_COLLECTIONS = { [COLLECTIONS.CART]: null, [COLLECTIONS.SELECTION]: null };

/** Keeps the cart and selection collections in step with the bot session's db. */
function useStoreSync(
  collections: { cart: (v: CartView | null) => void; selection: (v: SelectionView | null) => void },
  api: StoreApi,
  conversation: ConversationController,
  connected: boolean,
): void {
  useEffect(() => {
    if (!connected) {
      collections.cart(null);
      collections.selection(null);
      return undefined;
    }
    let live = true;
    const refresh = async () => {
      try {
        const state = await api.state();
        if (!live) return;
        collections.cart(state.cart);
        collections.selection(state.selection);
      } catch {
        // Disconnected meanwhile: the panels say so.
      }
    };
    void refresh();
    // Every write the agent (or the shopper) makes is pushed as `action-applied`.
    const off = conversation.onServerMessage((message) => {
      if (message['type'] === 'action-applied') void refresh();
    });
    return () => {
      live = false;
      off();
    };
  }, [collections, api, conversation, connected]);
}

function Storefront(props: {
  api: StoreApi;
  connected: boolean;
  conversation: ConversationController;
  children: ReactNode;
}) {
  const { api, connected } = props;
  const { session, features } = useScenaroContext();
  const [status, setStatus] = useState<{ text: string; tone: 'info' | 'error'; n: number }>();
  const opened = useRef(0);

  const setters = useMemo(
    () => ({
      cart: (v: CartView | null) => void session?.collections.get(COLLECTIONS.CART).set(v),
      selection: (v: SelectionView | null) =>
        void session?.collections.get(COLLECTIONS.SELECTION).set(v),
    }),
    [session],
  );
  useStoreSync(setters, api, props.conversation, connected);

  const report = useCallback((text: string, tone: 'info' | 'error' = 'info') => {
    setStatus((s) => ({ text, tone, n: (s?.n ?? 0) + 1 }));
  }, []);
  useEffect(() => {
    if (!status) return undefined;
    const timer = setTimeout(() => setStatus(undefined), status.tone === 'error' ? 8000 : 4000);
    return () => clearTimeout(timer);
  }, [status]);

  const run = useCallback(
    async <T,>(what: string, action: () => Promise<T>): Promise<T | undefined> => {
      try {
        const result = await action();
        // The cart/selection panels follow the `action-applied` push; a direct refresh is faster.
        const state = await api.state().catch(() => undefined);
        if (state) {
          setters.cart(state.cart);
          setters.selection(state.selection);
        }
        return result;
      } catch (err) {
        report(`Could not ${what}: ${describeFailure(err)}.`, 'error');
        return undefined;
      }
    },
    [api, report, setters],
  );

  const runAndReport = useCallback(
    async (what: string, action: () => Promise<unknown>, done: string): Promise<void> => {
      if (await run(what, action)) report(done);
    },
    [run, report],
  );

  const showProduct = useCallback(
    (productId: string) => {
      const requestId = `shopper-${++opened.current}`;
      const base = { feature: FEATURES.PRODUCT_DETAIL, tool: 'shopper', requestId };
      features.apply({ ...base, status: 'running' });
      const heading = document.getElementById('detail-heading');
      heading?.focus();
      heading?.scrollIntoView({ block: 'start', behavior: 'smooth' });
      api.product(productId).then(
        (product) => features.apply({ ...base, status: 'success', componentData: { product } }),
        (err: unknown) => features.apply({ ...base, status: 'error', error: describeFailure(err) }),
      );
    },
    [api, features],
  );

  const value = useMemo<StoreContextValue>(
    () => ({ api, connected, report, showProduct, run, runAndReport }),
    [api, connected, report, showProduct, run, runAndReport],
  );
  return (
    <StoreContext.Provider value={value}>
      {props.children}
      <p
        className={`action-status ${status?.tone ?? 'info'}`}
        role="status"
        key={status?.n ?? 0}
        hidden={!status}
      >
        {status?.text}
      </p>
    </StoreContext.Provider>
  );
}

/** The demo storefront. */
export function App(props: AppProps) {
  const { config, transport, voice, conversation } = props;
  const api = useMemo(() => createStoreApi(transport), [transport]);
  const handlers = useMemo(
    () => createToolHandlers(api, { slowMs: props.slowToolMs ?? 0 }),
    [api, props.slowToolMs],
  );
  // One ScenaroSession for the page: registers show_products / show_product /
  // show_comparison on the RTVI transport, answers the UI activity check, and
  // holds the collections shared by the panels and the handlers.
  const session = useScenaroSession({
    transport,
    tools: config.tools,
    handlers,
    collections: INITIAL_COLLECTIONS,
    agentIdentity: 'agent',
  });
  // Dictation into the message box: the session's composer calls, the voice's microphone.
  const dictation = useMemo(
    () => (session ? new DictationController({ composer: session.composer, voice }) : null),
    [session, voice],
  );
  const chat = useSyncExternalStore(conversation.subscribe, conversation.getSnapshot);
  const connected = chat.status === 'connected';

  return (
    <FeatureProvider session={session}>
      <a className="skip-link" href="#message">
        Skip to the message box
      </a>
      <header className="site-header">
        <p className="brand">
          <span className="logo" aria-hidden="true">
            S
          </span>
          {config.storeName}
        </p>
        <p className="shopper">
          Signed in as <strong>{config.shopper.name}</strong>
        </p>
      </header>
      <Storefront api={api} connected={connected} conversation={conversation}>
        <div className="layout">
          <div className="area-chat">
            <ConversationPanel
              controller={conversation}
              state={chat}
              assistant={config.assistant}
              voice={voice}
              voiceConfig={config.voice}
              dictation={dictation}
            />
          </div>
          <main className="area-store" id="store" aria-label="Store">
            <ProductGrid />
            <ProductDetail />
            <ComparisonPanel />
          </main>
          <aside className="area-baskets" aria-label="Your cart and selection">
            <CartPanel />
            <SelectionPanel />
          </aside>
        </div>
      </Storefront>
      <footer className="site-footer">
        <p>
          A Scenaro demo: the assistant's tool calls run in this page through{' '}
          <code>@scenaro/sdk</code> over RTVI, typed or spoken. Prices and products are made up.
        </p>
      </footer>
    </FeatureProvider>
  );
}
