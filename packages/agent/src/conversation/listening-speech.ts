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
import { airportName } from './airports.js';
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
    if (key === 'date') parts.push(`on ${travelDate(v)}`);
    else if (key === 'dob') parts.push(`born ${valueWords(key, v)}`);
    else if (key === 'flight_number') parts.push(`flight ${flightWords(v)}`);
    else if (key === 'payment_id') parts.push(valueWords(key, v));
    else if (key === 'amount') parts.push(`for ${valueWords(key, v)}`);
    else parts.push(`${spokenKey(key)} ${valueWords(key, v)}`);
  }
  return parts.join(' ');
}

/**
 * A travel date as a travel agent says it, without the year ("2024-05-24" -> "May 24"): the
 * trips booked and changed are this year's. Other values are said as they are.
 */
function travelDate(value: unknown): string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return valueWords('date', value);
  }
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** Words for some of a record's fields, and which fields they say. */
interface Phrase {
  words: string;
  keys: string[];
}

/**
 * A record's trip as one phrase ("a one way trip from Denver to Boston, in basic economy")
 * rather than field by field ("origin DEN, destination BOS, cabin basic economy, ...").
 */
function tripPhrase(record: JsonObject): Phrase | undefined {
  const { origin, destination, flight_type: type, cabin } = record;
  if (typeof origin !== 'string' || typeof destination !== 'string') return undefined;
  const keys = ['origin', 'destination'];
  let words = 'a trip';
  if (typeof type === 'string') {
    words = `a ${type.replace(/_/g, ' ')}${/trip$/.test(type) ? '' : ' trip'}`;
    keys.push('flight_type');
  }
  words += ` from ${airportName(origin)} to ${airportName(destination)}`;
  if (typeof cabin === 'string') {
    words += `, in ${cabin.replace(/_/g, ' ')}`;
    keys.push('cabin');
  }
  return { words, keys };
}

/** Checked bags and insurance as a phrase: "2 free bags and 1 paid bag, without travel insurance". */
function bagPhrase(record: JsonObject): Phrase | undefined {
  const total = record['total_baggages'];
  const paid = record['nonfree_baggages'];
  const insurance = record['insurance'];
  const parts: string[] = [];
  const keys: string[] = [];
  const bags = (n: number, kind: string) => `${n} ${kind}${n === 1 ? 'bag' : 'bags'}`;
  if (typeof total === 'number') {
    keys.push('total_baggages');
    if (typeof paid !== 'number') parts.push(bags(total, ''));
    else {
      keys.push('nonfree_baggages');
      const kinds = [
        total - paid > 0 ? bags(total - paid, 'free ') : '',
        paid > 0 ? bags(paid, 'paid ') : '',
      ];
      parts.push(kinds.filter(Boolean).join(' and ') || 'no bags');
    }
  }
  if (insurance === 'yes' || insurance === 'no' || typeof insurance === 'boolean') {
    keys.push('insurance');
    const covered = insurance === 'yes' || insurance === true;
    parts.push(`${covered ? 'with' : 'without'} travel insurance`);
  }
  return parts.length > 0 ? { words: parts.join(', '), keys } : undefined;
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

/** A tool name's parts: `update_reservation_flights` -> update, reservation_flights, reservation, flights. */
interface ToolParts {
  verb: string;
  /** The name without its verb (the whole name when it has one part). */
  rest: string;
  object: string | undefined;
  field: string | undefined;
}

function toolParts(name: string): ToolParts {
  const [verb = name, object, ...field] = name.split('_');
  return {
    verb,
    rest: object === undefined ? name : name.slice(verb.length + 1),
    object,
    field: field.length > 0 ? field.join('_') : undefined,
  };
}

/** The words of a tool name without its verb: `update_reservation_flights` -> "reservation flights". */
function objectOf(name: string): string {
  return spokenKey(toolParts(name).rest);
}

/**
 * The object and the field a tool changes, when its name has both and the object is what
 * `target` names: `update_reservation_flights` on "reservation M05KNL" -> the flights.
 */
function fieldOf(name: string, target: string): string | undefined {
  const { object, field } = toolParts(name);
  if (!object || !field || !target.startsWith(object)) return undefined;
  return spokenKey(field);
}

/**
 * One argument as words; a list whose items already say what they are keeps no key of its own,
 * and a list of one item names it in the singular ("passenger Mia Li").
 */
function argumentPhrase(key: string, value: unknown): string {
  const words = valueWords(key, value);
  const name = spokenKey(key);
  if (Array.isArray(value) && words.startsWith(name.replace(/s$/, ''))) return words;
  if (Array.isArray(value) && value.length === 1) return `${name.replace(/s$/, '')} ${words}`;
  return `${name} ${words}`;
}

/**
 * The arguments of a call as phrases: the trip first (when the call has one), then each other
 * argument, its bags and insurance, and how it is paid last.
 */
function argumentPhrases(args: JsonObject, skip: readonly string[] = []): string[] {
  const trip = skip.includes('origin') ? undefined : tripPhrase(args);
  const bags = skip.includes('total_baggages') ? undefined : bagPhrase(args);
  const said = new Set([...skip, ...(trip?.keys ?? []), ...(bags?.keys ?? [])]);
  const rest = Object.entries(args)
    .filter(([k]) => !said.has(k))
    .map(([k, v]) => argumentPhrase(k, v));
  const paid = rest.filter((p) => p.startsWith('paid with'));
  const other = rest.filter((p) => !p.startsWith('paid with'));
  return [trip?.words ?? '', ...other, bags?.words ?? '', ...paid].filter(Boolean);
}

/** The arguments of a call in words ("a round trip from Detroit to Atlanta, in economy, ..."). */
export function argumentWords(args: JsonObject, skip: readonly string[] = []): string {
  return argumentPhrases(args, skip).join(', ');
}

/** Phrases after a read-back's object: ", with cabin economy, paid with ..." (no "with paid with"). */
function withWords(phrases: readonly string[]): string {
  if (phrases.length === 0) return '';
  const words = phrases.join(', ');
  return /^(paid with|with|without)\b/.test(words) ? `, ${words}` : `, with ${words}`;
}

/** What the agent is about to do, as a sentence (for a read-back before a change). */
export function sayAction(name: string, args: JsonObject): string {
  const { verb } = toolParts(name);
  const idKey = Object.keys(args).find((k) => /_id$/.test(k) && typeof args[k] === 'string');
  const target = idKey
    ? `${keyWords(idKey).replace(/ number$/, '')} ${valueWords(idKey, args[idKey]!)}`
    : '';
  const withRest = withWords(argumentPhrases(args, idKey ? [idKey] : []));
  if (/^transfer/.test(name)) return 'I will transfer you to a human agent.';
  if (verb === 'cancel') return `I will cancel ${target || objectOf(name)}${withRest}.`;
  if (verb === 'update' || verb === 'modify' || verb === 'change') {
    const field = fieldOf(name, target);
    if (field) return `I will update the ${field} of ${target}${withRest}.`;
    return `I will update the ${objectOf(name)}${target ? ` of ${target}` : ''}${withRest}.`;
  }
  const trip = tripPhrase(args);
  if (verb === 'book' && trip) {
    // A booking is read back as the trip it makes; the caller's id was checked when it was heard.
    const skip = [...trip.keys, ...(idKey === 'user_id' ? [idKey] : [])];
    return `I will book ${trip.words}${withWords(argumentPhrases(args, skip))}.`;
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
  book: 'created',
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
  const { verb, object, field } = toolParts(name);
  const done = DONE_VERBS[verb];
  if (!done) return 'Okay, that is taken care of.';
  if ((done === 'updated' || done === 'exchanged') && object && field) {
    return `Okay, I have ${done} the ${spokenKey(field)} of the ${spokenKey(object)}.`;
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
  const { verb } = toolParts(name);
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
    const trip = tripPhrase(record);
    const said = fields
      .filter((k) => !trip?.keys.includes(k))
      .map((k) => `${spokenKey(k)} ${valueWords(k, record[k]!)}`);
    if (person) return `I have your account, ${[person, ...said].join(', ')}.`;
    if (trip) {
      const noun = objectOf(name).replace(/ details$/, '');
      return `Your ${noun} is ${[trip.words, ...said].join(', ')}.`;
    }
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
