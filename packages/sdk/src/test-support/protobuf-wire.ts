/**
 * The protobuf wire-format rules the frames use (varint, length-delimited), written out here to
 * check the codec byte for byte and to build frames its encoders never write (fields repeated,
 * out of order, unknown, over-long varints).
 */

/** The base-128 varint of `n`. */
export function varint(n: bigint | number): number[] {
  let v = BigInt(n);
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

/** Field `field`, length-delimited, holding `bytes`. */
export function ld(field: number, bytes: ArrayLike<number>): number[] {
  return [(field << 3) | 2, ...varint(bytes.length), ...Array.from(bytes)];
}

/** Field `field`, a varint. */
export function vi(field: number, n: bigint | number): number[] {
  return [field << 3, ...varint(n)];
}
