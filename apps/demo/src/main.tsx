/**
 * Entry point: read `/config.json` (served by `scenaro demo`) while the connection code loads,
 * build the Pipecat client, its RTVI RPC transport and the conversation outside React
 * (`connection.ts`), then render the storefront.
 */
import { errorMessage } from '@scenaro/sdk/util';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import type { createConnection } from './connection';
import type { DemoConfig } from './types';
import './styles/base.css';
import './styles/layout.css';
import './styles/conversation.css';
import './styles/store.css';
import './styles/baskets.css';

async function loadConfig(): Promise<DemoConfig> {
  const response = await fetch('/config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`config.json answered ${response.status}`);
  const config = (await response.json()) as Partial<DemoConfig>;
  if (typeof config.wsUrl !== 'string' || !Array.isArray(config.tools)) {
    throw new Error('config.json has no wsUrl or tools');
  }
  return config as DemoConfig;
}

function ConfigError(props: { message: string }) {
  return (
    <main className="fatal">
      <h1>The demo store could not start</h1>
      <p role="alert">{props.message}</p>
      <p>
        Start it with <code>npx scenaro demo</code> and open the address it prints.
      </p>
    </main>
  );
}

async function main(): Promise<void> {
  const element = document.getElementById('root');
  if (!element) return;
  const root = createRoot(element);
  let config: DemoConfig;
  let connection: { createConnection: typeof createConnection };
  try {
    [config, connection] = await Promise.all([loadConfig(), import('./connection')]);
  } catch (err) {
    root.render(<ConfigError message={errorMessage(err)} />);
    return;
  }
  document.title = config.storeName;
  const { transport, voice, conversation } = connection.createConnection(config);
  // Test hook (`?slowToolMs=3000`): frontend tools wait before answering.
  const slowToolMs = Number(new URLSearchParams(window.location.search).get('slowToolMs')) || 0;
  root.render(
    <StrictMode>
      <App
        config={config}
        transport={transport}
        voice={voice}
        conversation={conversation}
        slowToolMs={slowToolMs}
      />
    </StrictMode>,
  );
}

void main();
