/**
 * Seeded randomness for the caller effects: a small deterministic generator (xoshiro128**,
 * seeded through splitmix32) and a stable string hash. Every random choice an effect makes goes
 * through a {@link Prng} made from the run's seed, so the same seed gives the same audio and the
 * same events on every machine; nothing here reads `Math.random`.
 */

/** FNV-1a over the UTF-8 bytes of `text`: a stable 32-bit hash (unsigned). */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** One step of splitmix32: spreads the bits of a seed. */
function splitmix32(state: number): [value: number, next: number] {
  const next = (state + 0x9e3779b9) | 0;
  let z = next;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  z ^= z >>> 16;
  return [z >>> 0, next];
}

/** The low 32 bits of an integer seed (negative and very large seeds included). */
function seedBits(seed: number): number {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
  const low = seed % 0x1_0000_0000;
  const high = Math.floor(seed / 0x1_0000_0000);
  return (low ^ Math.imul(high, 0x27d4eb2d)) >>> 0;
}

/** A seeded pseudo-random generator (xoshiro128**). */
export class Prng {
  readonly #s = new Uint32Array(4);

  /** A generator for `seed`, optionally a named stream of it (see {@link Prng.stream}). */
  constructor(seed: number, stream = '') {
    let state = (seedBits(seed) ^ (stream ? hashString(stream) : 0)) | 0;
    for (let i = 0; i < 4; i++) {
      const [value, next] = splitmix32(state);
      this.#s[i] = value;
      state = next;
    }
    if (this.#s.every((word) => word === 0)) this.#s[0] = 1;
  }

  /**
   * An independent generator for one purpose (`'bursts'`, `'drops'`): each effect draws from its
   * own stream, so turning one effect on or off leaves the others' choices unchanged.
   */
  static stream(seed: number, name: string): Prng {
    return new Prng(seed, name);
  }

  /** A uniform unsigned 32-bit integer. */
  nextUint32(): number {
    const s = this.#s;
    const result = Math.imul(rotl(Math.imul(s[1]!, 5), 7), 9) >>> 0;
    const t = s[1]! << 9;
    s[2]! ^= s[0]!;
    s[3]! ^= s[1]!;
    s[1]! ^= s[2]!;
    s[0]! ^= s[3]!;
    s[2]! ^= t;
    s[3] = rotl(s[3]!, 11);
    return result;
  }

  /** A uniform float in [0, 1). */
  next(): number {
    return this.nextUint32() / 0x1_0000_0000;
  }

  /** A uniform float in [min, max). */
  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** A uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('cannot pick from an empty list');
    return items[this.int(items.length)]!;
  }

  /** A standard normal deviate (Box-Muller). */
  gaussian(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return p > 0 && this.next() < p;
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}
