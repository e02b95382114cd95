// The engines' process thread: processes started off the event loop's thread, their lines, writes
// acknowledged once in the pipe, exits, signals, and a start that fails.
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RecognizerProcess } from './pocketsphinx/pocketsphinx-process.js';
import { HostedProcess } from './process-host.js';
import type { HostedProcessEvents, HostedProcessOptions } from './process-host.js';

interface Seen {
  pid: number | undefined;
  stdout: string[];
  stderr: string[];
  errors: string[];
  data: Uint8Array[];
  written: number;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function run(
  file: string,
  args: string[],
  options: HostedProcessOptions = {},
): { process: HostedProcess; seen: Seen } {
  let exited!: (exit: { code: number | null; signal: NodeJS.Signals | null }) => void;
  const seen: Seen = {
    pid: undefined,
    stdout: [],
    stderr: [],
    errors: [],
    data: [],
    written: 0,
    exit: new Promise((resolve) => (exited = resolve)),
  };
  const events: HostedProcessEvents = {
    spawned: (pid) => (seen.pid = pid),
    stdout: (line) => seen.stdout.push(line),
    data: (chunk) => seen.data.push(chunk),
    stderr: (line) => seen.stderr.push(line),
    stdinError: (error) => seen.errors.push(`stdin: ${error.message}`),
    error: (error) => seen.errors.push(`${error.code ?? ''} ${error.message}`),
    written: (bytes) => (seen.written += bytes),
    closed: (code, signal) => exited({ code, signal }),
  };
  return { process: new HostedProcess(file, args, events, options), seen };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

const hostDist = fileURLToPath(
  new URL('../../../dist/voice/engines/process-host.js', import.meta.url),
);
if (!existsSync(hostDist))
  console.warn('\n!!! process-host exit test SKIPPED: run `npm run build` first !!!\n');

// A process that waited unheld (a spare recognizer) is stopped, and nothing else keeps Node's
// event loop alive: its exit must still be heard, or whoever waits for it never resumes.
const STOP_UNHELD = `
const { HostedProcess } = await import(process.argv[1]);
const quiet = () => {};
const events = { spawned: quiet, stdout: quiet, stderr: quiet, stdinError: quiet, error: quiet,
  written: quiet, closed: (code, signal) => console.log('closed', signal) };
const sleeper = new HostedProcess('sleep', ['30'], events);
sleeper.hold(false);
setTimeout(() => sleeper.kill(), 300);
`;

// Three processes started at once by a user without CAP_SYS_ADMIN, whom the kernel lets change
// one scheduling group per 100 ms (root's changes, other tests', count against that too): each
// group must still end at the nice value, within 8 s. Prints them.
const GROUPS_UNPRIVILEGED = `
const { HostedProcess } = await import(process.argv[1]);
const { readFileSync } = await import('node:fs');
const quiet = () => {};
const pids = [];
const events = { spawned: (pid) => pids.push(pid), error: quiet, closed: quiet };
const kids = [0, 1, 2].map(() => new HostedProcess('sleep', ['10'], events, { nice: 7 }));
const group = (pid) => readFileSync('/proc/' + pid + '/autogroup', 'utf8').trim().split(' nice ')[1];
const done = () => pids.length === 3 && pids.every((pid) => group(pid) === '7');
for (let i = 0; i < 400 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
console.log(pids.map(group).join(','));
for (const kid of kids) kid.kill('SIGKILL');
`;
/** Whether this test run can start a process as `nobody` (root, `setpriv`, autogroups). */
const canDropPrivileges =
  process.getuid?.() === 0 && existsSync('/usr/bin/setpriv') && existsSync('/proc/self/autogroup');
if (!canDropPrivileges)
  console.warn(
    '\n!!! unprivileged autogroup test SKIPPED: needs root, setpriv and autogroups !!!\n',
  );

/** /proc/<pid>/stat's fields after the command's closing parenthesis (state first, then ppid). */
const statOf = (pid: number): string[] =>
  readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
const parentOf = (pid: number): number => Number(statOf(pid)[1]);
const stateOf = (pid: number): string => statOf(pid)[0]!;

/** Child processes this thread owns (each is a `ProcessWrap` among its active resources). */
const ownProcesses = () => process.getActiveResourcesInfo().filter((r) => r === 'ProcessWrap');

describe("the engines' process thread", () => {
  it('runs a process for this thread, which owns none of it: lines, writes, exit', async () => {
    const { process: child, seen } = run('sh', ['-c', 'read x; echo "got $x"; echo note >&2']);
    expect(ownProcesses()).toEqual([]);
    child.write(new TextEncoder().encode('hello\n'));
    child.end();
    await expect(seen.exit).resolves.toEqual({ code: 0, signal: null });
    expect(seen).toMatchObject({ stdout: ['got hello'], stderr: ['note'], errors: [], written: 6 });
    expect(seen.pid).toBeGreaterThan(0);
  });

  it('reads output as bytes when asked', async () => {
    const { process: child, seen } = run('sh', ['-c', 'printf "a\\000b\\n\\377"'], { bytes: true });
    await seen.exit;
    expect(Buffer.concat(seen.data)).toEqual(Buffer.from([0x61, 0, 0x62, 0x0a, 0xff]));
    expect(seen.stdout).toEqual([]);
    child.end();
  });

  it('writes a copy of a view, not the rest of its buffer', async () => {
    const { process: child, seen } = run('sh', ['-c', 'cat']);
    const buffer = new TextEncoder().encode('xxabcxx\n');
    child.write(buffer.subarray(2, 5));
    child.write(buffer.subarray(7));
    buffer.fill(0);
    child.end();
    await seen.exit;
    expect(seen.stdout).toEqual(['abc']);
    expect(seen.written).toBe(4);
  });

  it('gives a process all the writes of one turn, in order, before its end', async () => {
    const { process: child, seen } = run('sh', ['-c', 'cat'], { bytes: true });
    // Its pipes are in the process thread's hands by now (a write there is not queued).
    child.write(new Uint8Array([0xff]));
    await until(() => seen.written === 1);
    const sent: number[] = [0xff];
    for (let i = 0; i < 1000; i++) {
      const piece = new Uint8Array(1 + (i % 7)).fill(i & 0xff);
      sent.push(...piece);
      child.write(piece);
    }
    child.end();
    await seen.exit;
    expect(Buffer.concat(seen.data)).toEqual(Buffer.from(sent));
    expect(seen.written).toBe(sent.length);
  });

  it('signals the process group, and says a process that cannot start is gone', async () => {
    const sleeper = run('sh', ['-c', 'sleep 30 & wait']);
    await until(() => sleeper.seen.pid !== undefined);
    sleeper.process.kill();
    await expect(sleeper.seen.exit).resolves.toEqual({ code: null, signal: 'SIGTERM' });

    const missing = run('/nonexistent/recognizer', []);
    const exit = await missing.seen.exit;
    expect(exit.code === null || exit.code < 0 || exit.code === 127).toBe(true);
    expect(missing.seen.errors.join(' ')).toMatch(/^ENOENT /);
  });

  it('runs a process at its nice value, and its scheduling group too where Linux has them', async () => {
    const sleeper = run('sleep', ['30'], { nice: 7 });
    await until(() => sleeper.seen.pid !== undefined);
    const proc = `/proc/${sleeper.seen.pid}`;
    try {
      // /proc/<pid>/stat: the 19th field, counted after the command's closing parenthesis.
      const niceOf = () =>
        Number(readFileSync(`${proc}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
      await until(() => niceOf() === 7);
      // In a session of its own the process has a group of its own (autogroup), which would get
      // the server's share of the cores whatever the process's own nice value.
      if (!existsSync(`${proc}/autogroup`)) {
        console.warn(
          '\n!!! autogroup check SKIPPED: this kernel has no /proc/<pid>/autogroup !!!\n',
        );
        return;
      }
      await until(() => / nice 7$/.test(readFileSync(`${proc}/autogroup`, 'utf8').trim()));
    } finally {
      sleeper.process.kill();
      await sleeper.seen.exit;
    }
  });

  it.skipIf(!existsSync(hostDist) || !canDropPrivileges)(
    "gives each process's group its nice value when the kernel takes one change per 100 ms",
    async () => {
      // `nobody` must be able to read the modules: copies in a directory anyone may enter.
      const dir = mkdtempSync(join(tmpdir(), 'process-host-'));
      try {
        chmodSync(dir, 0o755);
        for (const name of ['process-host.js', 'process-launcher.js']) {
          copyFileSync(join(dirname(hostDist), name), join(dir, name));
          chmodSync(join(dir, name), 0o644);
        }
        const module = join(dir, 'process-host.js');
        const child = spawn('setpriv', [
          '--reuid=65534',
          '--regid=65534',
          '--clear-groups',
          process.execPath,
          '--input-type=module',
          '-e',
          GROUPS_UNPRIVILEGED,
          module,
        ]);
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
        const code = await new Promise<number | null>((r) => child.once('close', r));
        expect({ code, out: out.trim() }).toEqual({ code: 0, out: '7,7,7' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!existsSync(hostDist))(
    'hears the exit of a process stopped after it waited unheld, with nothing else to do',
    async () => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', STOP_UNHELD, hostDist]);
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      const code = await new Promise<number | null>((r) => child.once('close', r));
      expect({ code, out: out.trim() }).toEqual({ code: 0, out: 'closed SIGTERM' });
    },
  );

  it('has the processes started by a launcher, so this process is never forked', async () => {
    const { process: child, seen } = run('sleep', ['30']);
    await until(() => seen.pid !== undefined);
    const launcher = parentOf(seen.pid!);
    expect(launcher).not.toBe(process.pid);
    expect(parentOf(launcher)).toBe(process.pid);
    expect(readFileSync(`/proc/${launcher}/cmdline`, 'utf8')).toMatch(/^scenaro-launcher/);
    child.kill();
    await seen.exit;
  });

  it('reads all the output of a process that writes it at once', async () => {
    // Written before the launcher has handed the pipes over: none of it may be read there.
    const { seen } = run('sh', ['-c', 'seq 1 20000; seq 1 3000 >&2']);
    await expect(seen.exit).resolves.toEqual({ code: 0, signal: null });
    expect(seen.stdout).toHaveLength(20000);
    expect(seen.stdout.at(-1)).toBe('20000');
    expect(seen.stderr).toHaveLength(3000);
  });

  it('says the processes of a launcher that dies are gone, and starts the next with a new one', async () => {
    const first = run('sh', ['-c', 'sleep 30 & wait']);
    await until(() => first.seen.pid !== undefined);
    const launcher = parentOf(first.seen.pid!);
    process.kill(launcher, 'SIGKILL');
    await expect(first.seen.exit).resolves.toEqual({ code: null, signal: null });
    expect(first.seen.errors.join(' ')).toMatch(/process launcher ended \(SIGKILL\)/);
    // Killed with it, its whole group: nothing of it is left running.
    await until(() => !existsSync(`/proc/${first.seen.pid}`) || stateOf(first.seen.pid!) === 'Z');
    const next = run('sh', ['-c', 'read x; echo "got $x"']);
    await until(() => next.seen.pid !== undefined);
    expect(parentOf(next.seen.pid!)).not.toBe(launcher);
    next.process.write(new TextEncoder().encode('again\n'));
    next.process.end();
    await expect(next.seen.exit).resolves.toEqual({ code: 0, signal: null });
    expect(next.seen.stdout).toEqual(['got again']);
  });

  it('starts a recognizer process off this thread, which then owns no process', async () => {
    const recognizer = new RecognizerProcess('sh', ['-c', 'cat > /dev/null']);
    await until(() => recognizer.pid !== undefined);
    expect(recognizer.running).toBe(true);
    expect(ownProcesses()).toEqual([]);
    await recognizer.write(new Uint8Array(64 * 1024));
    recognizer.end();
    await expect(recognizer.exited).resolves.toEqual({ code: 0, signal: null });
  });
});
