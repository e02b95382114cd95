/**
 * Money arithmetic in integer cents. Prices are stored as dollars with cents (`129.99`); every
 * sum is taken in cents and tax is rounded once, half up, on the subtotal.
 *
 * @module
 */

/** Sales tax rate in basis points: 8.25 %, applied to the subtotal of a cart or order. */
export const TAX_RATE_BASIS_POINTS = 825;
/** {@link TAX_RATE_BASIS_POINTS} as a fraction (0.0825), for display. */
export const TAX_RATE = TAX_RATE_BASIS_POINTS / 10_000;

/** Dollars with cents to integer cents (`19.99` -> `1999`). */
export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

/** Integer cents to dollars with cents (`1999` -> `19.99`). */
export function fromCents(cents: number): number {
  return cents / 100;
}

/** Tax on a subtotal, in cents: `round_half_up(subtotal * 8.25 %)`, computed without floats. */
export function taxCents(subtotalCents: number): number {
  return Math.floor((subtotalCents * TAX_RATE_BASIS_POINTS + 5_000) / 10_000);
}

/** Subtotal, tax and total of a list of lines, in dollars. */
export interface Totals {
  subtotal: number;
  tax: number;
  total: number;
}

/** Totals for lines given as unit price (dollars) and quantity. */
export function computeTotals(lines: readonly { unitPrice: number; quantity: number }[]): Totals & {
  totalCents: number;
} {
  const subtotal = lines.reduce((sum, line) => sum + toCents(line.unitPrice) * line.quantity, 0);
  const tax = taxCents(subtotal);
  return {
    subtotal: fromCents(subtotal),
    tax: fromCents(tax),
    total: fromCents(subtotal + tax),
    totalCents: subtotal + tax,
  };
}
