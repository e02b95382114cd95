/**
 * What the PocketSphinx tests share: stand-in recognizers (shell scripts speaking the real
 * program's protocol) and whether a process is still there.
 */
import { chmod, writeFile } from 'node:fs/promises';

/** The shell line with which a stand-in logs the real program's ready line on stderr. */
export const STAND_IN_READY =
  'echo "INFO: continuous.c(307): /usr/bin/pocketsphinx_continuous COMPILED ON: test" >&2';

/** Write the stand-in recognizer `path`: a shell script running `lines`, executable. */
export async function writeStandInRecognizer(
  path: string,
  lines: readonly string[],
): Promise<string> {
  await writeFile(path, ['#!/bin/sh', ...lines, ''].join('\n'));
  await chmod(path, 0o755);
  return path;
}

/** True while process `pid` exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
