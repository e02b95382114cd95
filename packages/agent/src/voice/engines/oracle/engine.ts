/**
 * The oracle recognizer as the registry declares it: offline, interim transcripts, no engine of
 * its own (it is told what the other bot said by an evaluation's bridge, so only the local bots
 * of `scenaro eval --mode audio` can use it); its one option is a fault of its ear.
 */
import { defineSpeechEngine } from '../speech-engine.js';

/** The faults the oracle's ear can be given (`--stt-fault`). */
export const ORACLE_FAULTS = ['swap-digit'] as const;

export const oracleEngine = defineSpeechEngine({
  name: 'oracle',
  kind: 'stt',
  description:
    "hears exactly what the other bot said, told by the evaluation's bridge " +
    '(scenaro eval --mode audio, local bots only)',
  capabilities: { streaming: true, sampleRates: [16_000], offline: true },
  evaluationOnly:
    "it is told what the other bot said by the evaluation's bridge: only the local bots of " +
    '`scenaro eval --mode audio` can use it',
  options: {
    fault: {
      description: 'hearing fault',
      type: 'string',
      choices: ORACLE_FAULTS,
      setting: 'sttFault',
      valueName: 'kind',
    },
  },
  async create(settings) {
    const { createOracleSpeechToText } = await import('./oracle-stt.js');
    return createOracleSpeechToText(settings.fault === undefined ? {} : { fault: settings.fault });
  },
  label: (settings) => (settings.fault === undefined ? 'oracle' : `oracle(${settings.fault})`),
});
