// Sessions that outlive their connection, over real sockets. NeMo's evaluation bridge sets a
// scenario up on one connection (reset, update_system_prompt, apply_initialization), disconnects,
// and runs the conversation on new connections: with singleClient the next connection gets the
// one session; otherwise a client comes back within the grace period with its resume token.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RpcError } from '@scenaro/sdk';
import type { BotServer, BotServerOptions, BotSession, Logger } from '../src/index.js';
import type { JsonObject } from '../src/scenario/index.js';
import type { BotReadySession } from '@scenaro/sdk/protocol';
import { RtviClient, connectPipecatClient, pollUntil } from '../src/testing/index.js';
import { listenTestServer, makeDataRoot, setUpBalanceScenario } from './fixtures.js';

let data: ReturnType<typeof makeDataRoot>;
const servers: BotServer[] = [];
const clients: RtviClient[] = [];

beforeAll(() => {
  data = makeDataRoot();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

afterAll(() => data?.cleanup());

/** A server over the test data root; `opened` gets each new session. */
async function start(
  options: BotServerOptions = {},
): Promise<{ server: BotServer; opened: BotSession[] }> {
  const opened: BotSession[] = [];
  const server = await listenTestServer({
    dataRoot: data.root,
    onSession: (s) => void opened.push(s),
    ...options,
  });
  servers.push(server);
  return { server, opened };
}

async function ready(url: string): Promise<RtviClient> {
  const c = await RtviClient.ready(url);
  clients.push(c);
  return c;
}

const withResume = (url: string, token: string) => `${url}/?resume=${encodeURIComponent(token)}`;

/** The bridge's setup: a prompt with tools, then a db with one initialization action. */
function setUp(c: RtviClient, who: string, balance: number): Promise<string> {
  return setUpBalanceScenario(c, `You are ${who}.`, balance);
}

async function dbHash(c: RtviClient): Promise<string | null> {
  return (await c.call<{ db_hash: string | null }>('get_scenario_summary', {})).db_hash;
}

async function context(c: RtviClient): Promise<unknown> {
  const { context } = await c.call<{ context: string }>('get_context_history', { format: 'json' });
  return JSON.parse(context);
}

/** A logger keeping the messages of warnings. */
function warningsInto(warnings: string[]): Logger {
  const logger: Logger = {
    debug() {},
    info() {},
    warn: (_obj, msg) => void warnings.push(msg ?? ''),
    error() {},
    child: () => logger,
  };
  return logger;
}

describe('singleClient: one session for whoever connects', () => {
  it('keeps the session set up on one connection for the next one', async () => {
    const { server, opened } = await start({ singleClient: true });
    const setup = await ready(server.url);
    const hash = await setUp(setup, 'the agent', 5);
    expect(setup.readySession).toBeUndefined(); // bot-ready as Pipecat's
    await setup.close();
    await pollUntil(() => server.detachedSessionCount === 1, 'the session to wait');
    expect(server.sessionCount).toBe(0);

    const run = await ready(server.url);
    expect(await dbHash(run)).toBe(hash);
    expect(await context(run)).toEqual([{ role: 'system', content: 'You are the agent.' }]);
    expect(opened).toHaveLength(1);
    expect(server.sessions).toEqual(opened);
    expect(server.detachedSessionCount).toBe(0);
    expect(opened[0]?.signal.aborted).toBe(false);
    // The tools bound on the first connection still run on the next.
    expect([...(opened[0]?.state.tools.keys() ?? [])]).toEqual(['get_user']);
  });

  it('hands the session to a new connection while the old one is open, closing the old', async () => {
    const { server, opened } = await start({ singleClient: true });
    const first = await ready(server.url);
    const hash = await setUp(first, 'the agent', 6);
    const second = await ready(server.url);
    expect(await first.waitForClose()).toEqual({
      code: 1000,
      reason: 'Session taken over by a new connection',
    });
    expect(await dbHash(second)).toBe(hash);
    expect(opened).toHaveLength(1);
    expect(server.sessionCount).toBe(1);
    // The third takes it from the second the same way.
    const third = await ready(server.url);
    expect((await second.waitForClose()).code).toBe(1000);
    expect(await dbHash(third)).toBe(hash);
  });

  it('ends the session on disconnect-bot; the next connection starts afresh', async () => {
    const { server, opened } = await start({ singleClient: true });
    const first = await ready(server.url);
    await setUp(first, 'the agent', 7);
    first.send({ label: 'rtvi-ai', type: 'disconnect-bot', id: 'bye', data: {} });
    expect((await first.waitForClose()).reason).toBe('disconnect-bot');
    await pollUntil(() => opened[0]?.signal.aborted === true, 'the session to end');
    expect(server.detachedSessionCount).toBe(0);
    const next = await ready(server.url);
    expect(await dbHash(next)).toBeNull();
    expect(opened).toHaveLength(2);
  });

  it('ends a waiting session when the server closes', async () => {
    const { server, opened } = await start({ singleClient: true });
    const first = await ready(server.url);
    await setUp(first, 'the agent', 8);
    await first.close();
    await pollUntil(() => server.detachedSessionCount === 1, 'the session to wait');
    await server.close();
    expect(opened[0]?.signal.aborted).toBe(true);
    expect(server.detachedSessionCount).toBe(0);
  });
});

describe('resume tokens: a client comes back to its session', () => {
  it('gives each bot-ready a new unguessable token', async () => {
    const { server } = await start();
    const c = await ready(server.url);
    const first = c.readySession;
    expect(first).toEqual({
      resume_token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      resume_grace_ms: 30_000,
      resumed: false,
    });
    await c.handshake();
    expect(c.readySession?.resume_token).not.toBe(first?.resume_token);
  });

  it('resumes the whole session within the grace period, once per token', async () => {
    const warnings: string[] = [];
    const { server, opened } = await start({ logger: warningsInto(warnings) });
    const setup = await ready(server.url);
    const hash = await setUp(setup, 'the agent', 5);
    const token = setup.readySession?.resume_token as string;
    await setup.close();
    await pollUntil(() => server.detachedSessionCount === 1, 'the session to wait');

    const run = await ready(withResume(server.url, token));
    expect(run.readySession).toMatchObject({ resumed: true });
    expect(run.readySession?.resume_token).not.toBe(token);
    expect(await dbHash(run)).toBe(hash);
    expect(await context(run)).toEqual([{ role: 'system', content: 'You are the agent.' }]);
    expect(opened).toHaveLength(1);
    expect(server.sessions).toEqual(opened);
    expect(server.detachedSessionCount).toBe(0);

    // A used token starts a new session (logged), and leaves the resumed one alone.
    const again = await ready(withResume(server.url, token));
    expect(again.readySession).toMatchObject({ resumed: false });
    expect(await dbHash(again)).toBeNull();
    expect(warnings).toContain('resume token unknown or expired; starting a new session');
    expect(run.isOpen).toBe(true);
    expect(await dbHash(run)).toBe(hash);
    expect(opened).toHaveLength(2);
  });

  it('takes the session over from a connection still open', async () => {
    const { server, opened } = await start();
    const first = await ready(server.url);
    const hash = await setUp(first, 'the agent', 9);
    const second = await ready(withResume(server.url, first.readySession?.resume_token as string));
    expect(await first.waitForClose()).toEqual({
      code: 1000,
      reason: 'Session taken over by a new connection',
    });
    expect(await dbHash(second)).toBe(hash);
    expect(server.sessionCount).toBe(1);
    expect(opened).toHaveLength(1);
  });

  it('ends the session when the grace period passes; its token then starts afresh', async () => {
    const { server, opened } = await start({ resumeGraceMs: 150 });
    const first = await ready(server.url);
    await setUp(first, 'the agent', 3);
    const token = first.readySession?.resume_token as string;
    expect(first.readySession?.resume_grace_ms).toBe(150);
    await first.close();
    await pollUntil(() => opened[0]?.signal.aborted === true, 'the grace period to pass');
    expect(server.detachedSessionCount).toBe(0);
    const late = await ready(withResume(server.url, token));
    expect(late.readySession).toMatchObject({ resumed: false });
    expect(await dbHash(late)).toBeNull();
  });

  it('starts a fresh session for a wrong token, and serves the other sessions meanwhile', async () => {
    const warnings: string[] = [];
    const { server, opened } = await start({ logger: warningsInto(warnings) });
    const other = await ready(server.url);
    const otherHash = await setUp(other, 'another agent', 1);
    const mine = await ready(server.url);
    const myHash = await setUp(mine, 'the agent', 2);
    const token = mine.readySession?.resume_token as string;
    await mine.close();

    const wrong = await ready(withResume(server.url, `${token}x`));
    expect(wrong.readySession).toMatchObject({ resumed: false });
    expect(await dbHash(wrong)).toBeNull();
    expect(warnings).toEqual(['resume token unknown or expired; starting a new session']);
    expect(await dbHash(other)).toBe(otherHash);
    const back = await ready(withResume(server.url, token));
    expect(await dbHash(back)).toBe(myHash);
    expect(await context(other)).toEqual([{ role: 'system', content: 'You are another agent.' }]);
    expect(opened).toHaveLength(3);
    expect(server.sessionCount).toBe(3);
  });

  it('with resumeGraceMs 0 sends no token and ends a session with its connection', async () => {
    const { server, opened } = await start({ resumeGraceMs: 0 });
    const c = await ready(server.url);
    expect(c.readySession).toBeUndefined();
    await c.close();
    await pollUntil(() => opened[0]?.signal.aborted === true, 'the session to end');
    expect(server.detachedSessionCount).toBe(0);
  });

  it('does not keep a session that said disconnect-bot', async () => {
    const { server, opened } = await start();
    const c = await ready(server.url);
    c.send({ label: 'rtvi-ai', type: 'disconnect-bot', id: 'bye', data: {} });
    await c.waitForClose();
    await pollUntil(() => opened[0]?.signal.aborted === true, 'the session to end');
    expect(server.detachedSessionCount).toBe(0);
  });

  it('counts waiting sessions against maxSessions, ending the oldest for a new connection', async () => {
    const { server, opened } = await start({ maxSessions: 2 });
    const first = await ready(server.url);
    await first.close();
    const second = await ready(server.url);
    await second.close();
    await pollUntil(() => server.detachedSessionCount === 2, 'both sessions to wait');
    const third = await ready(server.url);
    expect(opened[0]?.signal.aborted).toBe(true);
    expect(opened[1]?.signal.aborted).toBe(false);
    const fourth = await ready(server.url);
    expect(opened[1]?.signal.aborted).toBe(true);
    expect(server.detachedSessionCount).toBe(0);
    const fifth = await RtviClient.connect(server.url);
    clients.push(fifth);
    expect(await fifth.waitForClose()).toEqual({
      code: 1013,
      reason: 'Server is at its session limit; try again later',
    });
    expect(await third.call('reset', {})).toBe(true);
    expect(await fourth.call('reset', {})).toBe(true);
    await server.close();
    expect(opened.every((s) => s.signal.aborted)).toBe(true);
  });

  it('fails the browser calls of a connection that left; session.rpc reaches the next one', async () => {
    const { server, opened } = await start();
    const first = await ready(server.url);
    const session = opened[0] as BotSession;
    const pending = session.rpc
      .performRpc({
        destinationIdentity: 'browser',
        method: 'm',
        payload: '1',
        responseTimeoutMs: 5000,
      })
      .catch((err: unknown) => err);
    await first.waitFor(
      (m) => (m.data as JsonObject | undefined)?.['type'] === 'rpc-request',
      'rpc',
    );
    await first.close();
    const failed = await pending;
    expect(RpcError.isInstance(failed) && failed.code).toBe(1503);
    await expect(
      session.rpc.performRpc({
        destinationIdentity: 'browser',
        method: 'm',
        payload: '2',
        responseTimeoutMs: 5000,
      }),
    ).rejects.toMatchObject({ code: 1503 });

    const back = await ready(withResume(server.url, first.readySession?.resume_token as string));
    const answer = session.rpc.performRpc({
      destinationIdentity: 'browser',
      method: 'm',
      payload: '3',
      responseTimeoutMs: 5000,
    });
    const request = await back.waitFor(
      (m) => (m.data as JsonObject | undefined)?.['type'] === 'rpc-request',
      'the rpc request on the new connection',
    );
    const requestId = (request.data as { requestId: string }).requestId;
    await back.call('rpc-ack', { requestId });
    await back.call('rpc-response', { requestId, payload: 'pong' });
    expect(await answer).toBe('pong');
  });

  it('gives a Pipecat client a bot-ready it accepts, and takes its token back', async () => {
    const { server } = await start();
    const first = await connectPipecatClient(server.url);
    const token = (first.botReady as { session?: BotReadySession }).session?.resume_token;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(first.errors).toEqual([]);
    await first.disconnect();
    const back = await connectPipecatClient(withResume(server.url, token as string));
    try {
      expect((back.botReady as { session?: BotReadySession }).session?.resumed).toBe(true);
      expect(back.errors).toEqual([]);
    } finally {
      await back.disconnect();
    }
  });
});
