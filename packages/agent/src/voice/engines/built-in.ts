/**
 * The speech engines that come with the package, one line each, in the order `--help` lists
 * them (per kind). Another engine is one folder under `engines/` and one line here.
 */
import { espeakNgEngine } from './espeak-ng/engine.js';
import { fliteEngine } from './flite/engine.js';
import { noneSttEngine, noneTtsEngine } from './none/engine.js';
import { openaiSttEngine, openaiTtsEngine } from './openai/engine.js';
import { oracleEngine } from './oracle/engine.js';
import { pocketsphinxEngine } from './pocketsphinx/engine.js';
import type { AnySpeechEngine } from './speech-engine.js';

export const BUILT_IN_SPEECH_ENGINES: readonly AnySpeechEngine[] = [
  pocketsphinxEngine,
  openaiSttEngine,
  oracleEngine,
  noneSttEngine,
  fliteEngine,
  openaiTtsEngine,
  espeakNgEngine,
  noneTtsEngine,
];
