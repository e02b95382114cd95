// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { StrictMode, useState } from 'react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RpcToolResponse } from '../protocol/index.js';
import { createLoopbackPair } from '../rpc/loopback.js';
import type { LoopbackTransport } from '../rpc/loopback.js';
import { CollectionStore } from '../session/collections.js';
import type { ScenaroSession } from '../session/scenaro-session.js';
import type { ToolDefinition, ToolHandlers } from '../session/types.js';
import { FeatureProvider } from './feature-provider.js';
import { useCollection } from './use-collection.js';
import { useFeature } from './use-feature.js';
import { useScenaroSession } from './use-scenaro-session.js';

const tools: ToolDefinition[] = [
  {
    name: 'show_products',
    feature: 'catalog',
    parameters: { type: 'object', required: ['query'] },
  },
  { name: 'add_to_cart', feature: 'cart' },
];

const handlers: ToolHandlers = {
  show_products: (requestId, args) => ({
    requestId,
    response: { code: 'SUCCESS', data: { count: 2 } },
    componentData: { query: args['query'], items: ['Chablis', 'Meursault'] },
  }),
  add_to_cart: async (requestId, args, _settings, collections) => {
    const cart = await collections
      .get<string[]>('cart')
      .update((items = []) => [...items, String(args['sku'])]);
    return { requestId, response: { code: 'SUCCESS', data: { size: cart.length } } };
  },
};

async function agentCall(
  agent: LoopbackTransport,
  method: string,
  request: Record<string, unknown>,
): Promise<RpcToolResponse> {
  let payload = '';
  await act(async () => {
    payload = await agent.performRpc({
      destinationIdentity: 'user',
      method,
      payload: JSON.stringify(request),
      responseTimeoutMs: 10000,
    });
  });
  return JSON.parse(payload) as RpcToolResponse;
}

function Catalog() {
  const feature = useFeature<{ query: string; items: string[] }>('catalog');
  return (
    <div data-testid="catalog">
      {feature.status}:{feature.componentData?.items.join(',') ?? '-'}:{feature.error ?? ''}
    </div>
  );
}

function Cart() {
  const [items] = useCollection<string[]>('cart');
  return <div data-testid="cart">{(items ?? []).join(',')}</div>;
}

function App(props: {
  transport: LoopbackTransport;
  tools?: ToolDefinition[];
  handlers?: ToolHandlers;
  children?: ReactNode;
}) {
  const session = useScenaroSession({
    transport: props.transport,
    tools: props.tools ?? tools,
    handlers: props.handlers ?? handlers,
    collections: { cart: [] },
    activity: false,
  });
  return (
    <FeatureProvider session={session}>
      <Catalog />
      <Cart />
      {props.children}
    </FeatureProvider>
  );
}

/** Render the test app in StrictMode (effects run twice, as in development). */
function renderStrict(transport: LoopbackTransport) {
  return render(
    <StrictMode>
      <App transport={transport} />
    </StrictMode>,
  );
}

describe('React bindings (StrictMode, jsdom)', () => {
  afterEach(() => {
    cleanup();
  });

  it('registers once under StrictMode double mount and unregisters on unmount', async () => {
    const { agent, user } = createLoopbackPair();
    const register = vi.spyOn(user, 'registerMethod');
    const { unmount } = renderStrict(user);
    expect(user.registeredMethods.sort()).toEqual([
      'add_to_cart',
      'scenaro__cancel_tool_call',
      'show_products',
    ]);
    // StrictMode mounted, unmounted and mounted again: never a duplicate registration.
    expect(register.mock.calls.length).toBe(6);
    expect(
      (await agentCall(agent, 'show_products', { requestId: 'r1', args: { query: 'blanc' } })).code,
    ).toBe('SUCCESS');
    unmount();
    expect(user.registeredMethods).toEqual([]);
    expect(user.disconnectListenerCount).toBe(0);
  });

  it('renders componentData, status and errors through useFeature', async () => {
    const { agent, user } = createLoopbackPair();
    renderStrict(user);
    expect(screen.getByTestId('catalog').textContent).toBe('idle:-:');
    await agentCall(agent, 'show_products', { requestId: 'r1', args: { query: 'blanc' } });
    expect(screen.getByTestId('catalog').textContent).toBe('success:Chablis,Meursault:');
    await agentCall(agent, 'show_products', { requestId: 'r2', args: {} });
    expect(screen.getByTestId('catalog').textContent).toBe(
      'error:Chablis,Meursault:Invalid arguments: args.query is required',
    );
  });

  it('re-renders useCollection when a handler writes the collection', async () => {
    const { agent, user } = createLoopbackPair();
    renderStrict(user);
    const call = (requestId: string, sku: string) =>
      agent.performRpc({
        destinationIdentity: 'user',
        method: 'add_to_cart',
        payload: JSON.stringify({ requestId, args: { sku } }),
        responseTimeoutMs: 10000,
      });
    let answers: string[] = [];
    await act(async () => {
      answers = await Promise.all([call('a', 'chablis'), call('b', 'margaux')]);
    });
    expect(answers.map((a) => (JSON.parse(a) as RpcToolResponse).data)).toEqual([
      { size: 1 },
      { size: 2 },
    ]);
    expect(screen.getByTestId('cart').textContent).toBe('chablis,margaux');
  });

  it('follows tools and handlers props without re-registering unchanged methods', async () => {
    const { agent, user } = createLoopbackPair();
    const register = vi.spyOn(user, 'registerMethod');
    const { rerender } = render(<App transport={user} />);
    register.mockClear();
    const renamed: ToolHandlers = {
      ...handlers,
      show_products: (requestId) => ({ requestId, response: { code: 'SUCCESS', data: 'v2' } }),
    };
    rerender(<App transport={user} tools={[...tools, { name: 'checkout' }]} handlers={renamed} />);
    expect(register.mock.calls.map((c) => c[0])).toEqual(['checkout']);
    expect(
      (await agentCall(agent, 'show_products', { requestId: 'x', args: { query: 'q' } })).data,
    ).toBe('v2');
    rerender(<App transport={user} tools={[tools[0] as ToolDefinition]} handlers={renamed} />);
    expect(user.registeredMethods.sort()).toEqual(['scenaro__cancel_tool_call', 'show_products']);
  });

  it('lets FeatureProvider own the session, with a cancel button for the running call', async () => {
    const { agent, user } = createLoopbackPair();
    function Panel() {
      const feature = useFeature('slow');
      return (
        <button type="button" onClick={() => feature.cancel()}>
          {feature.status}
        </button>
      );
    }
    render(
      <StrictMode>
        <FeatureProvider
          transport={user}
          tools={[{ name: 'slow' }]}
          handlers={{ slow: () => new Promise<never>(() => {}) }}
          activity={false}
        >
          <Panel />
        </FeatureProvider>
      </StrictMode>,
    );
    let answer: Promise<string> | undefined;
    await act(async () => {
      answer = agent.performRpc({
        destinationIdentity: 'user',
        method: 'slow',
        payload: '{"requestId":"s1"}',
        responseTimeoutMs: 10000,
      });
      await Promise.resolve();
    });
    expect(screen.getByRole('button').textContent).toBe('running');
    await act(async () => {
      fireEvent.click(screen.getByRole('button'));
      await answer;
    });
    expect(JSON.parse((await answer) ?? '')).toMatchObject({ requestId: 's1', code: 'CANCELLED' });
    expect(screen.getByRole('button').textContent).toBe('cancelled');
  });

  it('answers the UI activity check from real DOM events', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { agent, user } = createLoopbackPair();
      let session: ScenaroSession | null = null;
      function Probe() {
        // Default activity tracking: jsdom's window and document.
        session = useScenaroSession({ transport: user, tools: [], handlers: {} });
        return null;
      }
      render(
        <StrictMode>
          <Probe />
        </StrictMode>,
      );
      expect(session).not.toBeNull();
      const check = async () => {
        let payload = '';
        await act(async () => {
          payload = await agent.performRpc({
            destinationIdentity: 'user',
            method: 'scenaro__ui_activity_check',
            payload: '',
            responseTimeoutMs: 3000,
          });
        });
        return JSON.parse(payload) as Record<string, unknown>;
      };
      vi.setSystemTime(Date.now() + 45_000);
      expect(await check()).toMatchObject({ active: false, idleMs: 45_000, visible: true });
      fireEvent.keyDown(window, { key: 'a' });
      expect(await check()).toMatchObject({ active: true, idleMs: 0 });
      cleanup();
      expect(user.registeredMethods).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads a standalone store outside any provider', () => {
    const store = new CollectionStore({ wishlist: ['pomerol'] });
    function Wishlist() {
      const [items, collection] = useCollection<string[]>('wishlist', store);
      const [clicks, setClicks] = useState(0);
      return (
        <button
          type="button"
          onClick={() => {
            setClicks(clicks + 1);
            void collection?.update((v = []) => [...v, `w${clicks}`]);
          }}
        >
          {(items ?? []).join(',')}
        </button>
      );
    }
    render(<Wishlist />);
    fireEvent.click(screen.getByRole('button'));
    expect(screen.getByRole('button').textContent).toBe('pomerol,w0');
  });
});
