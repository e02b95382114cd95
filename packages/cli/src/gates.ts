/**
 * Exit codes CI can tell apart, and the gates that choose them:
 *
 * | code | meaning |
 * | --- | --- |
 * | 0 | the command did its work and every gate passed |
 * | 1 | a gate failed: `eval --fail-under`, `eval compare --fail-on-regression` |
 * | 2 | a usage error (unknown flag, bad value) or an infrastructure error (a bot that does not start, a folder that is not a run) |
 */
import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { mkdir } from 'node:fs/promises';

export const EXIT_PASS = 0;
export const EXIT_GATE_FAILED = 1;
export const EXIT_ERROR = 2;

/** A gate that failed: the command ran, and its result is below the bar CI set. */
export class GateFailure extends Error {
  override name = 'GateFailure';
}

/** `--fail-under` as a rate in [0, 1]: `0.8` or `80%`. */
export function parseRate(text: string, flag: string): number {
  const percent = text.trim().endsWith('%');
  const value = Number(percent ? text.trim().slice(0, -1) : text);
  const rate = percent ? value / 100 : value;
  if (text.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1)
    throw new Error(
      `${flag} takes a rate from 0 to 1 or a percentage (e.g. 0.8 or 80%), not '${text}'`,
    );
  return rate;
}

/** Fail the gate when the run's success rate (of scored scenarios) is below `bar`. */
export function checkFailUnder(rate: number | null, bar: number): string {
  const shown = (r: number): string => `${(r * 100).toFixed(1)}%`;
  if (rate === null)
    throw new GateFailure(
      `--fail-under ${shown(bar)}: no scenario was scored, so the rate is unknown`,
    );
  if (rate < bar)
    throw new GateFailure(`success rate ${shown(rate)} is under --fail-under ${shown(bar)}`);
  return `gate passed: success rate ${shown(rate)} >= ${shown(bar)}`;
}

/** Write a report file, making its folder. */
export async function writeReportFile(path: string, text: string): Promise<string> {
  const file = resolve(path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}
