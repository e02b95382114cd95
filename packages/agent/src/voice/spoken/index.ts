/**
 * Spoken text: written text as a person says it (for a text-to-speech
 * engine), what a recognizer heard back to written values, and word errors
 * counted on one canonical spoken form.
 */
export { toSpokenForm, UNSPOKEN_CHARACTERS } from './spoken-form.js';
export { looksLikeLetterCode } from './letter-code.js';
export type { SpokenFormOptions } from './spoken-form.js';
export {
  cardinalWords,
  digitWords,
  numberWords,
  ordinalWords,
  pairedNumberWords,
  parseSpokenNumber,
  yearWords,
} from './numbers.js';
export {
  sayCode,
  sayDate,
  sayEmail,
  sayFlightNumber,
  sayId,
  sayMoney,
  sayPhone,
  sayTime,
} from './say.js';
export {
  NATO_ALPHABET,
  parseSpokenAmount,
  parseSpokenCode,
  parseSpokenDate,
  parseSpokenEmail,
  parseSpokenId,
} from './heard.js';
export type { SpokenAmount } from './heard.js';
export { parseSpokenTime } from './heard-time.js';
export { extractEntities } from './entities.js';
export type { ExtractEntitiesOptions, SpokenEntity, SpokenEntityKind } from './entities.js';
export { canonicalSpokenWords, normalizedWordErrors } from './spoken-wer.js';
