/**
 * The launcher: a small Node process that starts the speech engines' processes for the process
 * thread (`process-host.ts`) and hands their pipes over to it.
 *
 * Starting a process forks the process that starts it. A fork of a server holding hundreds of
 * megabytes copies its page tables, and while it does the kernel holds the server's memory map:
 * every thread of the server that touches a page it has not touched since (the event loop's, as
 * it allocates) waits until the fork is done. On a busy 2-core machine that was 30-100 ms of the
 * event loop per recognizer start. The launcher is small, so its forks are short, and they hold
 * its memory map, not the server's.
 *
 * It is told over its IPC channel what to start (`{op: 'start', id, file, args, nice}`) or whom
 * to signal (`{op: 'kill', id, signal}`). For each start it answers `spawned` (with the pid, none
 * when it could not start), then sends the process's stdin, stdout and stderr (the three ends of
 * its pipes, as sockets, closed here once sent), `error` if starting failed, and `exit` (code,
 * signal) when it has ended. It exits when its channel closes: its parent is gone. It is named
 * `scenaro-launcher` in `ps` and `top`.
 *
 * @module
 */

// CommonJS, run with `node -e`.
export const LAUNCHER_SOURCE = `
process.title = 'scenaro-launcher';
const { spawn } = require('node:child_process');
const { setPriority } = require('node:os');
const { writeFileSync } = require('node:fs');
const children = new Map();
const send = (message, handle) => {
  if (process.connected) process.send(message, handle, { keepOpen: false }, () => {});
};
// A process in a session of its own has a scheduling group of its own where Linux groups by
// session (autogroup): the group gets the same share of the cores as the server's, the process's
// nice value counting only inside it. The group is given the nice value as well. Without
// CAP_SYS_ADMIN the kernel takes one such change per 100 ms in all (EAGAIN): tried again.
const groupNice = (child, nice, tries) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    writeFileSync('/proc/' + child.pid + '/autogroup', String(nice));
  } catch (error) {
    if (error && error.code === 'EAGAIN' && tries < 50)
      setTimeout(() => groupNice(child, nice, tries + 1), 100 + Math.random() * 50).unref();
  }
};
const start = ({ id, file, args, nice }) => {
  let ended = false;
  const exit = (code, signal) => {
    if (ended) return;
    ended = true;
    children.delete(id);
    send({ id, ev: 'exit', code, signal });
  };
  const failed = (error) =>
    send({ id, ev: 'error', message: String((error && error.message) || error), code: error && error.code });
  let child;
  try {
    child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  } catch (error) {
    send({ id, ev: 'spawned', pid: undefined });
    failed(error);
    return exit(null, null);
  }
  send({ id, ev: 'spawned', pid: child.pid });
  child.on('error', (error) => {
    failed(error);
    if (child.pid === undefined) exit(child.exitCode, null);
  });
  child.on('exit', exit);
  if (child.pid === undefined) return;
  children.set(id, child);
  // The process thread reads its output: Node starts reading a child's output pipes here at once
  // (and drops what it reads of a pipe being sent), so reading stops before the loop turns.
  for (const output of [child.stdout, child.stderr]) {
    output._handle.reading = false;
    output._handle.readStop();
  }
  if (nice) {
    try { setPriority(child.pid, nice); } catch {}
    groupNice(child, nice, 0);
  }
  send({ id, ev: 'stdio', fd: 0 }, child.stdin);
  send({ id, ev: 'stdio', fd: 1 }, child.stdout);
  send({ id, ev: 'stdio', fd: 2 }, child.stderr);
};
process.on('message', (message) => {
  if (message.op === 'start') return start(message);
  const child = children.get(message.id);
  if (message.op === 'kill' && child) {
    try { process.kill(-child.pid, message.signal); } catch {}
  }
});
process.on('disconnect', () => process.exit(0));
`;
