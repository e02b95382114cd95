// Starts bench/lib/voice-server-child.mjs (one voice bot server in its own process) and talks to
// it over IPC: its URL and pid, its per-turn timing marks, event-loop reports, a clean stop, and
// whether it died on its own (e.g. a crash: `crashed` holds the signal or exit code).
import { fork } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from './common.mjs';

/** A voice server in a child process; `config` = {stopMs, sttArgs}. */
export async function startVoiceServer(config) {
  const child = fork(
    path.join(repoRoot, 'bench/lib/voice-server-child.mjs'),
    [JSON.stringify(config)],
    { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const server = { child, stopMs: config.stopMs, onTiming: () => {}, crashed: undefined };
  child.on('error', (err) => console.error(`voice server: ${err.message}`));
  let pendingReply;
  let ready;
  child.on('message', (m) => {
    if (m.timing) server.onTiming(m.timing);
    else if (m.url) ready?.(m);
    else pendingReply?.(m);
  });
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      if (!server.stopping) {
        server.crashed = signal ?? `exit code ${code}`;
        console.error(`voice server exited unexpectedly (${server.crashed})`);
      }
      pendingReply?.(undefined);
      resolve();
    });
  });
  const hello = await Promise.race([
    new Promise((resolve) => (ready = resolve)),
    exited.then(() => {
      throw new Error(`voice server did not start (${server.crashed})`);
    }),
  ]);
  server.url = hello.url;
  server.pid = hello.pid;
  /** Send `message` and resolve with the reply (undefined if the server is gone). */
  server.ask = (message) =>
    new Promise((resolve) => {
      if (server.crashed || !child.connected) return resolve(undefined);
      pendingReply = resolve;
      child.send(message);
    });
  server.stop = async () => {
    server.stopping = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (child.connected) child.send('stop');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  return server;
}
