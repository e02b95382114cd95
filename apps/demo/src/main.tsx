/**
 * Entry point: read `/config.json` (served by `scenaro demo`), build the Pipecat client, its
 * RTVI RPC transport and the conversation outside React, then render the storefront.
 */
import { LogLevel, PipecatClient, logger } from '@pipecat-ai/client-js';
import { WebSocketTransport } from '@pipecat-ai/websocket-transport';
import { createRtviTransport } from '@scenaro/sdk/rtvi';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ConversationController } from './conversation';
import { LazyMicMediaManager } from './media';
import type { DemoConfig } from './types';
import './styles.css';

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
  try {
    config = await loadConfig();
  } catch (err) {
    root.render(<ConfigError message={err instanceof Error ? err.message : String(err)} />);
    return;
  }
  document.title = config.storeName;
  logger.setLevel(LogLevel.WARN);
  // Microphone off until the shopper turns it on (and the browser allows it); no camera.
  const media = new LazyMicMediaManager();
  const client = new PipecatClient({
    transport: new WebSocketTransport({ mediaManager: media as never }),
    enableMic: false,
    enableCam: false,
  });
  const transport = createRtviTransport(client, { remoteIdentity: 'agent' });
  const conversation = new ConversationController(
    client,
    { wsUrl: config.wsUrl, ...(config.token ? { token: config.token } : {}) },
    media,
  );
  // Test hook (`?slowToolMs=3000`): frontend tools wait before answering.
  const slowToolMs = Number(new URLSearchParams(window.location.search).get('slowToolMs')) || 0;
  root.render(
    <StrictMode>
      <App
        config={config}
        transport={transport}
        conversation={conversation}
        slowToolMs={slowToolMs}
      />
    </StrictMode>,
  );
}

void main();
