// What bench/voice-fuzz.bench.mjs reads from /proc: the voice server's processes (its live
// recognizers among them) and the whole machine's CPU jiffies.
import { readFileSync, readdirSync } from 'node:fs';

function childrenOf(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .split(' ')
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    return [];
  }
}
export function procStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    return { comm, state: fields[0], ppid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}
/** The kernel keeps 15 characters of a process name. */
const RECOGNIZER = 'pocketsphinx_continuous'.slice(0, 15);
export const isRecognizer = (stat) =>
  stat !== undefined && stat.comm === RECOGNIZER && stat.state !== 'Z';
/** Live recognizers among the server's children and grandchildren, and all its descendants. */
export function serverProcesses(serverPid) {
  const pids = [];
  for (const pid of childrenOf(serverPid)) pids.push(pid, ...childrenOf(pid));
  return { all: pids.length, recognizers: pids.filter((pid) => isRecognizer(procStat(pid))) };
}

/** Machine-wide CPU jiffies (busy, total) from /proc/stat. */
export function machineJiffies() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1);
  const values = fields.map(Number);
  const idle = values[3] + (values[4] ?? 0);
  const total = values.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}
