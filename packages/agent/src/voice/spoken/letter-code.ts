/**
 * Whether an all-capital word is a code to spell ("SDZQKO", "HXDUBJ") or a
 * word to say ("PLEASE", "FLIGHTS"): English spelling rarely puts certain
 * consonants side by side, starts a word with certain pairs, or runs three
 * vowels, while random letters usually do one of these.
 */

/** Capital words said as words whatever the letter rules say. */
const CAPITAL_WORDS = new Set(
  (
    'ABOUT AFTER AGAIN AGENT ALERT ALWAYS ANSWER BASIC BEFORE BOOKED CABIN CANCEL CHANGE CHECK ' +
    'CLASS CLOSED DELAYED ECONOMY ERROR EXTRA FIRST FLIGHT GREAT HELLO HOTEL IMPORTANT LUGGAGE ' +
    'MEMBER NEVER NOTE NOTICE OFFER ORDER PLEASE POLICY REFUND RETURN SILVER SORRY STATUS STRICT ' +
    'STRENGTH SUCCESS TERMS THANK THANKS TICKET TODAY TOTAL UPDATE URGENT WARNING WORLD'
  ).split(' '),
);

/** Consonant pairs English words have inside them ("FL", "GHT", "NTH", "RLD", ...). */
const COMMON_PAIRS = new Set(
  (
    'TH GH CH SH PH WH CK NG NK NT ND ST SP SK SC SL SM SN SW TR DR BR CR FR GR PR BL CL FL GL PL ' +
    'RL LD LT LS RS TS DS NS MS KS PS LL SS RD RT RK RN RM LM LP MP MB NC RC LK FT PT CT XT TW DW ' +
    'SQ HT GT NF NV RG RV RB RF RP LF LV PF BB DD FF GG MM NN PP RR TT ZZ CC HS MN LN NL WL WN WS ' +
    'WT RH DG LB LG LC TL DL BS GS LW PD XP PG XC SF GN HL KL WR DV DJ BT CQ DN KN NJ NR TC BJ RW ' +
    'NW HM HN HR TB NB'
  ).split(' '),
);

/** Consonant pairs an English word may start with. */
const ONSETS = new Set(
  'BL BR CH CL CR DR DW FL FR GL GN GR KN PH PL PR PS SC SH SK SL SM SN SP SQ ST SW TH TR TW WH WR'.split(
    ' ',
  ),
);

/** Vowel runs of three English words have. */
const VOWEL_RUNS = new Set(['EAU', 'IOU', 'EOU', 'UEU', 'IEU', 'UOI', 'OUA', 'UEE', 'OOE']);

/**
 * Whether an all-capital word looks like a code to spell rather than a word:
 * a known word never does; otherwise it does when it has no vowel, a Q
 * without U, a letter three times in a row, "AA", "II" or "UU", a run of three vowels English
 * hardly has, starts with two consonants no English word starts with, or
 * has two consonants side by side that English words hardly have ("DZ",
 * "HX", "QK").
 */
export function looksLikeLetterCode(word: string): boolean {
  const upper = word.toUpperCase();
  if (CAPITAL_WORDS.has(upper)) return false;
  if (!/[AEIOUY]/.test(upper)) return true;
  if (/Q(?!U)|(.)\1\1|AA|II|UU/.test(upper)) return true;
  if ((upper.match(/[AEIOU]{3}/g) ?? []).some((run) => !VOWEL_RUNS.has(run))) return true;
  const start = /^[^AEIOU]{2}/.exec(upper)?.[0];
  if (start !== undefined && !ONSETS.has(start)) return true;
  for (let i = 0; i + 1 < upper.length; i++) {
    const pair = upper.slice(i, i + 2);
    if (/^[^AEIOUY]{2}$/.test(pair) && !COMMON_PAIRS.has(pair)) return true;
  }
  return false;
}
