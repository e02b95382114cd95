import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeTotals, fromCents, taxCents, toCents } from './money.js';

describe('money', () => {
  it('rounds tax half up, once, on the subtotal', () => {
    expect(taxCents(10_000)).toBe(825);
    expect(taxCents(1)).toBe(0); // 0.0825 cent
    expect(taxCents(6)).toBe(0); // 0.495
    expect(taxCents(7)).toBe(1); // 0.5775
    expect(taxCents(200)).toBe(17); // 16.5 -> 17 (half up)
    expect(taxCents(17_299)).toBe(1_427); // 1427.1675
  });

  it('sums lines in cents, so float noise never shows', () => {
    expect(
      computeTotals([
        { unitPrice: 0.1, quantity: 1 },
        { unitPrice: 0.2, quantity: 1 },
      ]),
    ).toMatchObject({
      subtotal: 0.3,
      tax: 0.02,
      total: 0.32,
    });
    expect(computeTotals([])).toEqual({ subtotal: 0, tax: 0, total: 0, totalCents: 0 });
  });

  it('keeps at most two decimals for any prices and quantities', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            cents: fc.integer({ min: 0, max: 500_000 }),
            quantity: fc.integer({ min: 1, max: 10 }),
          }),
        ),
        (lines) => {
          const totals = computeTotals(
            lines.map((l) => ({ unitPrice: fromCents(l.cents), quantity: l.quantity })),
          );
          for (const value of [totals.subtotal, totals.tax, totals.total]) {
            expect(toCents(value) / 100).toBe(value);
          }
          expect(toCents(totals.subtotal) + toCents(totals.tax)).toBe(totals.totalCents);
          // Rounded once, half up: within half a cent of the exact tax (exactly half a cent can happen).
          const exactTaxCents = toCents(totals.subtotal) * 0.0825;
          expect(Math.abs(toCents(totals.tax) - exactTaxCents)).toBeLessThanOrEqual(0.5 + 1e-9);
        },
      ),
    );
  });
});
