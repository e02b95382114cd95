/**
 * What a run is made of besides its options: its folders, and what its scenarios share (the
 * bots, the callers' sounds and voices) across the presets of a run of several.
 *
 * @module
 */
import type { DbCache } from '@scenaro/agent/scenario';
import type { CallerSounds } from '../caller/sound-bank.js';
import type { CallerVoices } from './caller-voices.js';
import type { BotEndpoints } from './scenario-run.js';
import type { BotSide } from './voices.js';

/** Where a run keeps its files. */
export interface RunFolders {
  runDir: string;
  /** Where the run-level files go: the run folder, or a shard's folder in it. */
  filesDir: string;
}

/** What the scenarios of a run (of every preset of it) share: the bots, the callers' parts. */
export interface SharedRun {
  dbCache: DbCache;
  endpoints: BotEndpoints;
  /** With caller effects: the sounds and the personas' voices. */
  callerParts?: { sounds: CallerSounds; voices: CallerVoices };
  /** The local bots whose recognizer is told what the other one said (the oracle). */
  told?: readonly BotSide[];
  close(): Promise<void>;
}
