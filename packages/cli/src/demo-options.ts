/**
 * `scenaro demo` flags as the options of `startDemo` (`@scenaro/demo/server`).
 */
import type { DemoOptions } from '@scenaro/demo/server';
import { chooseModel } from './brain.js';
import type { LlmFlags } from './llm-flags.js';
import type { VoiceFlags } from './voice-flags.js';
import { parsePort } from './flags.js';

/** Parsed `demo` flags (the voice flags are built into the bot's voice by `voice.ts`). */
export interface DemoFlags extends LlmFlags, VoiceFlags {
  host: string;
  /** Port of the page (0 picks a free one). */
  port: string;
  /** Port of the bot server (0 picks a free one). */
  botPort: string;
  /** Data root holding `commerce/db.json` (the shipped one by default). */
  dataRoot?: string;
}

/** Check the flags and turn them into demo options (an LLM assistant when one is configured). */
export function demoOptions(flags: DemoFlags): DemoOptions {
  const options: DemoOptions = {
    host: flags.host,
    port: parsePort(flags.port, '--port'),
    botPort: parsePort(flags.botPort, '--bot-port'),
  };
  if ((flags.llmBaseUrl === undefined) !== (flags.llmModel === undefined)) {
    throw new Error('--llm-base-url and --llm-model go together');
  }
  if (flags.dataRoot !== undefined) options.dataRoot = flags.dataRoot;
  if (flags.llmBaseUrl !== undefined) {
    const brain = chooseModel({ ...flags, policy: 'llm' });
    options.assistant = { label: brain.label, model: brain.factory };
  }
  return options;
}
