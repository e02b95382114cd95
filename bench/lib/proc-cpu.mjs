// CPU time of a process and every process below it (threads included), read from /proc, so a
// benchmark can charge a server the recognizer processes it starts. Linux only.
import { readFileSync, readdirSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux (getconf CLK_TCK)

/** `{ppid, comm, ms}` of `pid` (utime + stime of all its threads), or undefined if it is gone. */
function readStat(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const close = text.lastIndexOf(')');
  const comm = text.slice(text.indexOf('(') + 1, close);
  const fields = text.slice(close + 2).split(' '); // fields[0] is field 3 (state)
  return {
    ppid: Number(fields[1]),
    comm,
    ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
  };
}

/**
 * CPU ms so far of `root` and of each live descendant: a Map pid -> {comm, ms, root}. Children
 * that already exited are not counted (the root's `cutime` would count them only once reaped).
 */
export function treeCpu(root) {
  const stats = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) stats.set(Number(name), stat);
  }
  const children = new Map();
  for (const [pid, { ppid }] of stats) {
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(pid);
  }
  const out = new Map();
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift();
    const stat = stats.get(pid);
    if (!stat) continue;
    out.set(pid, { comm: stat.comm, ms: stat.ms, root: pid === root });
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/**
 * CPU ms spent between two {@link treeCpu} snapshots, split into the root process and its
 * descendants (processes born in between count from 0), with the descendants' names.
 */
export function cpuBetween(before, after) {
  let root = 0;
  let children = 0;
  const names = new Set();
  for (const [pid, { ms, comm, root: isRoot }] of after) {
    const spent = ms - (before.get(pid)?.ms ?? 0);
    if (isRoot) root += spent;
    else {
      children += spent;
      names.add(comm);
    }
  }
  return { root_ms: root, children_ms: children, total_ms: root + children, children: [...names] };
}

/** CPU ms of this process's reaped children and theirs (`cutime + cstime`: those waited for). */
export function reapedChildrenMs() {
  const text = readFileSync('/proc/self/stat', 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
}
