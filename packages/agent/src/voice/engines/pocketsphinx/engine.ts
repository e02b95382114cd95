/**
 * The PocketSphinx recognizer as the registry declares it: offline, 16 kHz, interim transcripts;
 * its options are extra PocketSphinx command-line options, the spelling grammar and the
 * recognizers' nice value. On the fast clock an ended
 * utterance waits longer for the recognizer's output before its final is given as is.
 */
import { defineSpeechEngine, SpeechEngineOptionError } from '../speech-engine.js';
import type { PocketsphinxOptions } from './pocketsphinx-stt.js';

/**
 * On the fast clock a recognizer gets a long utterance at once and may print nothing for a
 * while as it decodes; its final waits this long for output (wall time) before it is given as is.
 */
export const FAST_CLOCK_FINAL_TIMEOUT_MS = 30_000;

export const pocketsphinxEngine = defineSpeechEngine({
  name: 'pocketsphinx',
  kind: 'stt',
  description: 'CMU PocketSphinx, US English, Debian pocketsphinx + pocketsphinx-en-us',
  capabilities: { streaming: true, sampleRates: [16_000], offline: true },
  options: {
    args: {
      description:
        'options for PocketSphinx as on its command line, replacing the defaults of the same ' +
        'name, e.g. "-ds 2 -fwdflat no" (faster, fewer words right: see BENCHMARKS.md)',
      type: 'string',
      valueName: 'options',
    },
    spelling: {
      description:
        'after the bot asks for a spelling, decode an answer in the spelling alphabet again ' +
        'with a grammar of its words, digits and separators',
      type: 'string',
      choices: ['on', 'off'],
      default: 'on',
      valueName: 'on|off',
    },
    nice: {
      description:
        "the recognizers' CPU priority as a nice value (default $SCENARO_RECOGNIZER_NICE, else " +
        "10: when the cores are full, the server's replies run first; 0 on a host whose other " +
        'work should not come first)',
      type: 'integer',
      min: 0,
      max: 19,
      valueName: 'n',
    },
  },
  async create(settings, context: { clock?: 'realtime' | 'fast'; tuning?: PocketsphinxOptions }) {
    const { createPocketsphinxSpeechToText, parsePocketsphinxArgs } =
      await import('./pocketsphinx-stt.js');
    let extraArgs: string[] | undefined;
    if (settings.args !== undefined) {
      try {
        extraArgs = parsePocketsphinxArgs(settings.args);
      } catch (error) {
        throw new SpeechEngineOptionError('args', (error as Error).message, { cause: error });
      }
    }
    return createPocketsphinxSpeechToText({
      ...(context.clock === 'fast' ? { finalTimeoutMs: FAST_CLOCK_FINAL_TIMEOUT_MS } : {}),
      ...context.tuning,
      ...(extraArgs ? { extraArgs } : {}),
      ...(settings.spelling === 'off' ? { spellingGrammar: false } : {}),
      ...(settings.nice !== undefined ? { nice: settings.nice } : {}),
    });
  },
  label: (settings) =>
    settings.args === undefined
      ? 'pocketsphinx'
      : `pocketsphinx(${settings.args.trim().split(/\s+/).join(' ')})`,
});
