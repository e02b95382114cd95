// The demo storefront end to end in real headless Chromium (Debian's `chromium`, driven by
// playwright-core): the page built by `npm run build`, served in-process with its bot server
// by `startDemo` (`@scenaro/demo/server`, what `scenaro demo` runs), and the scripted shop
// assistant driving the page through frontend tools. Screenshots of every step, at 1280 and 375 px, go to
// test-artifacts/demo/.
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@scenaro/agent';
import type { BotSession, ContextMessage } from '@scenaro/agent';
import { startDemo } from '@scenaro/demo/server';
import { asCommerceDb } from '@scenaro/domains';
import type { CartItem } from '@scenaro/domains';
import type { DemoServer } from '@scenaro/demo/server';
import {
  attribute,
  browserTestsRun,
  collectConsoleErrors,
  count,
  focused,
  launchChromium,
  shoot,
  text,
  waitFor,
} from './chromium.js';

const runs = browserTestsRun('apps/demo/test/demo.e2e.test.ts');

function cartOf(session: BotSession): CartItem[] {
  return asCommerceDb(session.state.db).users.find((u) => u.id === 'u_001')?.cart.items ?? [];
}

/** The last result the model was given for `tool` in a session's context. */
function lastToolResult(session: BotSession, tool: string): unknown {
  const messages: ContextMessage[] = session.context.messages();
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'assistant' || !m.tool_calls) continue;
    const call = m.tool_calls.find((c) => c.function.name === tool);
    if (!call) continue;
    const answer = messages.find((x) => x.role === 'tool' && x.tool_call_id === call.id);
    return answer?.role === 'tool' ? JSON.parse(answer.content) : undefined;
  }
  return undefined;
}

describe.skipIf(!runs)('demo storefront in headless Chromium', () => {
  let demo: DemoServer;
  let context: BrowserContext;
  let closeBrowser: () => Promise<void>;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    demo = await startDemo({
      host: '127.0.0.1',
      port: 0,
      botPort: 0,
      logger: silentLogger,
      out: () => {},
    });
    ({ context, close: closeBrowser } = await launchChromium());
  });

  afterAll(async () => {
    await closeBrowser?.();
    await demo?.close();
  });

  async function open(query = ''): Promise<Page> {
    const page = await context.newPage();
    collectConsoleErrors(page, consoleErrors);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${demo.url}${query}`);
    await text(page.getByTestId('connection')).toContain('Disconnected');
    return page;
  }

  /** Every control of the page has an accessible name (from the browser's accessibility tree). */
  async function expectNamedControls(page: Page): Promise<void> {
    const tree = await page.locator('body').ariaSnapshot();
    const unnamed = tree
      .split('\n')
      .filter((line) =>
        /^\s*- (button|textbox|combobox|spinbutton|checkbox|link|searchbox)(\s*\[[^\]]*\])*\s*:?\s*$/.test(
          line,
        ),
      );
    expect(unnamed, `controls without a name:\n${tree}`).toEqual([]);
  }

  async function focusOutline(page: Page): Promise<{ style: string; width: number; tag: string }> {
    return page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const css = getComputedStyle(el);
      return { style: css.outlineStyle, width: parseFloat(css.outlineWidth), tag: el.tagName };
    });
  }

  async function say(page: Page, text: string): Promise<void> {
    const box = page.getByRole('textbox', { name: 'Message to the assistant' });
    await box.fill(text);
    await box.press('Enter');
  }

  /** The assistant's reply to the last message, once its turn is over. */
  async function lastReply(page: Page): Promise<string> {
    await count(page.locator('.thinking')).toBe(0);
    return (await page.locator('.msg.bot').last().innerText()).replace(/^Assistant\s*/i, '');
  }

  function session(): BotSession {
    const open = demo.bot.sessions;
    expect(open).toHaveLength(1);
    return open[0] as BotSession;
  }

  /** Connect: one bot session, to which the page announced its frontend tools. */
  async function connect(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Connect' }).click();
    await text(page.getByTestId('connection')).toContain('Connected');
    await waitFor(() => demo.bot.sessionCount === 1, 'the bot session');
    await waitFor(
      () => session().rpc.hasRemoteMethod('show_products'),
      'the rpc-methods announcement',
    );
  }

  it('connects, searches, shows results from componentData, and shares the cart with the agent', async () => {
    const page = await open();
    const grid = page.locator('[data-feature="product_grid"]');
    const cart = page.locator('[data-panel="cart"]');

    // Keyboard: Tab reaches the message box, then the send button, each with a visible outline.
    await expectNamedControls(page);
    const box = page.getByRole('textbox', { name: 'Message to the assistant' });
    for (let i = 0; i < 15 && !(await box.evaluate((el) => el === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    await focused(box);
    expect(await focusOutline(page)).toMatchObject({ style: 'solid', tag: 'INPUT' });
    expect((await focusOutline(page)).width).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Tab');
    await focused(page.getByRole('button', { name: 'Send' }));
    expect(await focusOutline(page)).toMatchObject({ style: 'solid', tag: 'BUTTON' });
    await shoot(page, '01-loaded');

    // Connect: one bot session, the browser announced its frontend tools.
    await connect(page);
    // The page's UI activity tracker answers the agent during the session.
    const activity = JSON.parse(
      await session().rpc.performRpc({
        destinationIdentity: session().rpc.remoteIdentity,
        method: 'scenaro__ui_activity_check',
        payload: '',
        responseTimeoutMs: 3000,
      }),
    ) as { active: boolean; idleMs: number; visible: boolean };
    expect(activity).toMatchObject({ active: true, visible: true });
    expect(activity.idleMs).toBeLessThan(10_000);
    await shoot(page, '02-connected');

    // A typed search: the bot searches, then show_products runs in this page.
    await say(page, 'show me headphones under $100');
    await attribute(grid, 'data-status').toBe('success');
    const cards = grid.locator('.card');
    await count(cards).toBe(2);
    await text(cards.first()).toContain('Veltro Nova Studio Monitor Headphones');
    await text(grid.getByRole('heading', { level: 2 })).toBe('Headphones under $100');
    expect(await lastReply(page)).toMatch(/^I found 2 products for "headphones" under \$100/);
    await attribute(page.locator('.tool[data-tool="show_products"]'), 'data-status').toBe('done');
    // What the agent got back came from the page's handler (it marks cart membership).
    expect(lastToolResult(session(), 'show_products')).toMatchObject({
      feature: 'product_grid',
      shown: 2,
      products: [{ product_id: 'p_0012' }, { product_id: 'p_0277' }],
    });
    await expectNamedControls(page);
    await shoot(page, '03-search-results');

    // Ask the agent to add one: the cart panel follows the bot's db.
    await say(page, 'add the first one to my cart');
    await count(cart.locator('.line')).toBe(1);
    await text(cart).toContain('Veltro Nova Studio Monitor Headphones');
    await text(cart.getByTestId('cart-total')).toBe('$82.80');
    expect(cartOf(session())).toEqual([{ product_id: 'p_0012', sku: 'AUD-0012', quantity: 1 }]);
    await text(cards.first()).toContain('In your cart');
    await shoot(page, '04-added-by-agent');

    // The shopper removes it on the page: the agent's next get_cart sees the change.
    await cart
      .getByRole('button', { name: 'Remove Veltro Nova Studio Monitor Headphones from cart' })
      .click();
    await text(cart).toContain('Your cart is empty.');
    expect(cartOf(session())).toEqual([]);
    expect(session().state.actions.map((a) => a.name)).toEqual(['add_to_cart', 'remove_from_cart']);
    await say(page, "what's in my cart");
    expect(await lastReply(page)).toBe('Your cart is empty.');
    expect(lastToolResult(session(), 'get_cart')).toMatchObject({ items: [], total: 0 });
    await shoot(page, '05-removed-by-shopper');

    // Detail and comparison panels, fed by show_product / show_comparison.
    await say(page, 'show the first one');
    const detail = page.locator('[data-feature="product_detail"]');
    await attribute(detail, 'data-status').toBe('success');
    await text(detail.locator('.detail-title')).toBe('Veltro Nova Studio Monitor Headphones');
    await say(page, 'compare the first two');
    const comparison = page.locator('[data-feature="comparison"]');
    await attribute(comparison, 'data-status').toBe('success');
    await count(comparison.locator('thead th')).toBe(3);
    // The shopper adds from the detail panel (a product with options: pick one).
    await cards
      .nth(1)
      .getByRole('button', { name: /^Choose options of/ })
      .click();
    await text(detail.locator('.detail-title')).toMatch(/Phantom Wireless Gaming Headset/);
    await focused(page.locator('#detail-heading'));
    await detail.getByRole('button', { name: 'Add to cart' }).click();
    await count(cart.locator('.line')).toBe(1);
    expect(cartOf(session())).toHaveLength(1);
    await expectNamedControls(page);
    await shoot(page, '06-detail-comparison');

    // The microphone: headless Chromium has none, so the toggle explains and typing goes on.
    const mic = page.getByRole('button', { name: 'Microphone' });
    await mic.click();
    await text(page.locator('.mic-note')).toMatch(/keep typing|does not allow/);
    await attribute(mic, 'aria-pressed').toBe('false');
    await say(page, 'hello');
    expect(await lastReply(page)).toMatch(/scripted assistant|show me headphones under \$100/);

    await page.getByRole('button', { name: 'Disconnect' }).click();
    await text(page.getByTestId('connection')).toContain('Disconnected');
    await waitFor(() => demo.bot.sessionCount === 0, 'the bot session to close');
    await page.close();
    expect(consoleErrors).toEqual([]);
  }, 60_000);

  it('disconnecting during a frontend tool call ends in a clear state, not a hang', async () => {
    // Test hook: the page's frontend tools wait 8 s before answering.
    const page = await open('?slowToolMs=8000');
    const grid = page.locator('[data-feature="product_grid"]');
    await connect(page);
    await say(page, 'show me kettles');
    const running: Locator = page.locator('.tool[data-tool="show_products"]');
    await attribute(running, 'data-status').toBe('running');
    await attribute(grid, 'data-status').toBe('running');
    await text(grid).toContain('Loading results');
    await waitFor(() => session().rpc.pendingCount === 1, 'the pending show_products call');
    const bot = session();
    await shoot(page, '07-tool-running');

    const started = Date.now();
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await text(page.getByTestId('connection')).toContain('Disconnected');
    await attribute(running, 'data-status').toBe('interrupted');
    await attribute(grid, 'data-status').toBe('cancelled');
    await text(grid).toContain('Stopped showing the results');
    await text(page.locator('.notice').last()).toContain(
      'Disconnected while the assistant was working (show_products interrupted)',
    );
    await count(page.locator('.thinking')).toBe(0);
    await text(page.locator('[data-panel="cart"]')).toContain('Connect to the assistant');
    expect(Date.now() - started).toBeLessThan(5000); // well before the 8 s handler or 10 s deadline
    // The bot side let go too: session closed, nothing pending.
    await waitFor(() => demo.bot.sessionCount === 0, 'the bot session to close');
    expect(bot.rpc.pendingCount).toBe(0);
    await shoot(page, '08-disconnected-mid-call');

    // Connecting again starts over and works.
    await page.getByRole('button', { name: 'Connect' }).click();
    await text(page.getByTestId('connection')).toContain('Connected');
    await text(page.locator('[data-panel="cart"]')).toContain('Your cart is empty.');
    await page.close();
    expect(consoleErrors).toEqual([]);
  }, 60_000);
});
