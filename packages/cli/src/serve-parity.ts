/**
 * The `scenaro serve` settings where NeMo's evaluation bot and our defaults differ, turned into
 * library options: `--today` (the telecom clock) and `--resume-grace-ms` (how long a session
 * waits for its client to come back; `--single-client` is the server's `singleClient`).
 */
import type { BotServerOptions } from '@scenaro/agent';
import type { BuiltInDomainsOptions } from '@scenaro/domains';
import { parseIsoDate, systemClock } from '@scenaro/domains/clock';
import { parseInteger } from './flags.js';

/** The parsed parity flags of `scenaro serve`. */
export interface ParityFlags {
  /**
   * `--today`: the telecom clock reads the real local date (NeMo's `date.today()`);
   * `--today YYYY-MM-DD`: it is fixed at that date. @default tau2's fixed date
   */
  today?: boolean | string;
  /** `--resume-grace-ms`: milliseconds, 0 ends a session with its connection. @default 30000 */
  resumeGraceMs?: string;
}

/** The bot server options `flags` set. */
export function parityServerOptions(flags: ParityFlags): Partial<BotServerOptions> {
  if (flags.resumeGraceMs === undefined) return {};
  return { resumeGraceMs: parseInteger(flags.resumeGraceMs, '--resume-grace-ms', 0) };
}

/** The options `builtInDomains` is called with for `flags`. */
export function parityDomainOptions(flags: ParityFlags): BuiltInDomainsOptions {
  const { today } = flags;
  if (today === undefined || today === false) return {};
  if (today === true) return { telecom: { clock: systemClock() } };
  try {
    parseIsoDate(today);
  } catch {
    throw new Error(`--today must be a date YYYY-MM-DD (or nothing, for today's), got '${today}'`);
  }
  return { telecom: { today } };
}
