/**
 * What the listening reference agent says about a tool call: the read-back before a change
 * ("I will update the flights of reservation M05KNL, with cabin economy, flight HAT110 on
 * 2024-05-24, paid with the gift card ending in 7175.") and what a result says ("Okay, I have
 * cancelled the reservation."), as a person at a service desk says them. Written text: the
 * voice bot's text-to-speech normalizer turns ids, dates and amounts into words.
 *
 * @module
 */
import { isJsonObject } from '@scenaro/sdk/util';
import type { JsonObject } from '../scenario/types.js';
import { keyWords, plainSpeech, resultError } from './listening-common.js';

/** A field name as a read-back says it: "bags", not "baggages"; payments are "paid with". */
function spokenKey(key: string): string {
  if (key === 'payment_id' || key === 'payment_methods') return 'paid with';
  return keyWords(key)
    .replace(/\bnonfree\b/g, 'non-free')
    .replace(/\bbaggages\b/g, 'bags');
}

/** Fields that hold money (not counts such as `total_baggages`). */
const MONEY_KEY = /amount|price|refund|balance|cost|^total$/i;

/** A stored payment method (`credit_card_2198526`) as a person names it. */
const PAYMENT_ID = /^(credit_card|gift_card|certificate|paypal|bank_account)_(\d{4,})$/;

/** A value as words: ids lose their underscores, lists are joined with "and". */
export function valueWords(key: string, value: unknown): string {
  if (value === null) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return MONEY_KEY.test(key) ? `$${value}` : String(value);
  if (typeof value === 'string') {
    const payment = PAYMENT_ID.exec(value);
    if (payment) return `the ${payment[1]!.replace(/_/g, ' ')} ending in ${payment[2]!.slice(-4)}`;
    return value.replace(/_/g, ' ');
  }
  if (Array.isArray(value)) {
    const items = value.map((v) => valueWords(key, v)).filter(Boolean);
    if (items.length <= 1) return items.join('');
    return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
  }
  if (isJsonObject(value)) return objectWords(value);
  return '';
}

/** An object as words: a name first, then each field ("flight HAT110 on 2024-05-24"). */
export function objectWords(value: JsonObject): string {
  const parts: string[] = [];
  const first = value['first_name'];
  const last = value['last_name'];
  if (typeof first === 'string' || typeof last === 'string') {
    parts.push([first, last].filter((p) => typeof p === 'string').join(' '));
  }
  for (const [key, v] of Object.entries(value)) {
    if (key === 'first_name' || key === 'last_name' || v === null) continue;
    if (key === 'date') parts.push(`on ${valueWords(key, v)}`);
    else if (key === 'dob') parts.push(`born ${valueWords(key, v)}`);
    else if (key === 'flight_number') parts.push(`flight ${flightWords(v)}`);
    else if (key === 'payment_id') parts.push(valueWords(key, v));
    else if (key === 'amount') parts.push(`for ${valueWords(key, v)}`);
    else parts.push(`${spokenKey(key)} ${valueWords(key, v)}`);
  }
  return parts.join(' ');
}

/**
 * A flight number as the airline's own staff say it: its number without the carrier code
 * ("HAT110" -> "110"), which every flight of the airline shares.
 */
function flightWords(value: unknown): string {
  const words = valueWords('flight_number', value);
  return /^[A-Z]{2,3}\d{1,4}$/.test(words) ? words.replace(/^[A-Z]+/, '') : words;
}

/** What a tool's "not found" error was looking for, said as the thing the caller gave. */
const NOT_FOUND: Record<string, string> = {
  user: 'an account with that user id',
  customer: 'an account with those details',
  reservation: 'a reservation with that number',
  order: 'an order with that number',
  flight: 'that flight',
};

/**
 * A tool's error as a person tells a caller: a lookup that found nothing says what it did not
 * find ("User aarav_garcia_1177 not found" -> "I could not find an account with that user id")
 * rather than reading the system's message with the value in it; other errors are read out.
 */
function sayError(error: string): string {
  const missing = /^(\w+)\b.*\bnot found\W*$/i.exec(error.trim());
  const what = missing ? NOT_FOUND[missing[1]!.toLowerCase()] : undefined;
  if (what) return `I'm sorry, I could not find ${what}.`;
  return `I'm sorry, the system says: ${plainSpeech(error)}.`;
}

/** The words of a tool name without its verb: `update_reservation_flights` -> "reservation flights". */
function objectOf(name: string): string {
  return spokenKey(name.replace(/^[a-z]+_/, ''));
}

/**
 * The object and the field a tool changes, when its name has both and the object is what
 * `target` names: `update_reservation_flights` on "reservation M05KNL" -> the flights.
 */
function fieldOf(name: string, target: string): string | undefined {
  const [, object, ...field] = name.split('_');
  if (!object || field.length === 0 || !target.startsWith(object)) return undefined;
  return spokenKey(field.join('_'));
}

/** One argument as words; a list whose items already say what they are keeps no key of its own. */
function argumentPhrase(key: string, value: unknown): string {
  const words = valueWords(key, value);
  const name = spokenKey(key);
  if (Array.isArray(value) && words.startsWith(name.replace(/s$/, ''))) return words;
  return `${name} ${words}`;
}

/** The arguments of a call in words, the main id first ("reservation M05KNL, cabin economy, ..."). */
export function argumentWords(args: JsonObject, skip: readonly string[] = []): string {
  return Object.entries(args)
    .filter(([k]) => !skip.includes(k))
    .map(([k, v]) => argumentPhrase(k, v))
    .join(', ');
}

/** What the agent is about to do, as a sentence (for a read-back before a change). */
export function sayAction(name: string, args: JsonObject): string {
  const verb = name.split('_')[0] ?? name;
  const idKey = Object.keys(args).find((k) => /_id$/.test(k) && typeof args[k] === 'string');
  const target = idKey
    ? `${keyWords(idKey).replace(/ number$/, '')} ${valueWords(idKey, args[idKey]!)}`
    : '';
  const rest = argumentWords(args, idKey ? [idKey] : []);
  const withRest = rest ? `, with ${rest}` : '';
  if (/^transfer/.test(name)) return 'I will transfer you to a human agent.';
  if (verb === 'cancel') return `I will cancel ${target || objectOf(name)}${withRest}.`;
  if (verb === 'update' || verb === 'modify' || verb === 'change') {
    const field = fieldOf(name, target);
    if (field) return `I will update the ${field} of ${target}${withRest}.`;
    return `I will update the ${objectOf(name)}${target ? ` of ${target}` : ''}${withRest}.`;
  }
  if (verb === 'book' || verb === 'create' || verb === 'place') {
    return `I will ${verb} a new ${objectOf(name)}${target ? ` for ${target}` : ''}${withRest}.`;
  }
  if (verb === 'send' || verb === 'exchange' || verb === 'return') {
    return `I will ${verb} ${objectOf(name)}${target ? ` for ${target}` : ''}${withRest}.`;
  }
  const all = argumentWords(args);
  return `I will ${keyWords(name)}${all ? `, with ${all}` : ''}.`;
}

/** The past tense of a write tool's verb, for saying it is done. */
const DONE_VERBS: Record<string, string> = {
  cancel: 'cancelled',
  book: 'booked',
  create: 'created',
  place: 'placed',
  update: 'updated',
  modify: 'updated',
  change: 'updated',
  send: 'sent',
  exchange: 'exchanged',
  return: 'returned',
};

/** What a write that went through did, as a person says it ("Okay, I have updated the flights of the reservation."). */
function sayDone(name: string): string {
  if (/^transfer/.test(name)) return 'I am transferring you now.';
  const verb = name.split('_')[0] ?? name;
  const done = DONE_VERBS[verb];
  if (!done) return 'Okay, that is taken care of.';
  const [, object, ...field] = name.split('_');
  if ((done === 'updated' || done === 'exchanged') && object && field.length > 0) {
    return `Okay, I have ${done} the ${spokenKey(field.join('_'))} of the ${spokenKey(object)}.`;
  }
  return `Okay, I have ${done} the ${objectOf(name)}.`;
}

/** Short scalar fields of a record worth saying. */
const SAID_FIELDS = [
  'name',
  'first_name',
  'last_name',
  'status',
  'origin',
  'destination',
  'cabin',
  'flight_type',
  'reservation_id',
  'order_id',
  'total',
];

/** What a tool result says, as a sentence. */
export function sayResult(name: string, content: string): string {
  const error = resultError(content);
  if (error !== undefined) return sayError(error);
  let parsed: unknown;
  try {
    parsed = JSON.parse(content) as unknown;
  } catch {
    parsed = content;
  }
  const verb = name.split('_')[0] ?? name;
  const read = /^(get|search|list|find|calculate|check|lookup|think)$/.test(verb);
  if (!read) return sayDone(name);
  if (Array.isArray(parsed)) {
    return parsed.length === 0
      ? 'I found nothing matching that.'
      : `I found ${parsed.length} ${parsed.length === 1 ? 'match' : 'matches'}.`;
  }
  if (isJsonObject(parsed)) {
    const record = parsed;
    if (Array.isArray(record['results'])) {
      return record['results'].length === 0
        ? 'I found nothing matching that.'
        : `I found ${record['results'].length} matches.`;
    }
    const fields = SAID_FIELDS.filter(
      (k) => typeof record[k] === 'string' || typeof record[k] === 'number',
    ).slice(0, 4);
    const nameObj = record['name'];
    const person = isJsonObject(nameObj) ? objectWords(nameObj) : '';
    const said = fields.map((k) => `${spokenKey(k)} ${valueWords(k, record[k]!)}`);
    if (person) said.unshift(`name ${person}`);
    return said.length > 0
      ? `I have the ${objectOf(name)}: ${said.join(', ')}.`
      : `I have the ${objectOf(name)}.`;
  }
  if (typeof parsed === 'string' || typeof parsed === 'number') {
    const value = String(parsed).replace(/_/g, ' ');
    return verb === 'calculate' ? `That comes to ${value}.` : `The ${objectOf(name)} is ${value}.`;
  }
  return `I have the ${objectOf(name)}.`;
}
