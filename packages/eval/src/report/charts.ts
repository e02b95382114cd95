/**
 * The report's charts, as inline SVG: horizontal bar charts of rates and histograms.
 *
 * @module
 */
import type { Rate } from '../scoring/statistics.js';
import { esc, pct } from './format.js';

interface BarRow {
  label: string;
  /** 0..1 of the bar length. */
  fraction: number;
  /** Text after the bar. */
  text: string;
  tone: 'good' | 'bad' | 'neutral';
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A horizontal bar chart. */
export function barChart(rows: readonly BarRow[], caption: string): string {
  if (rows.length === 0) return `<p class="muted">No data.</p>`;
  const width = 640;
  const labelWidth = 210;
  const textWidth = 120;
  const rowHeight = 26;
  const barMax = width - labelWidth - textWidth;
  const height = rows.length * rowHeight + 8;
  const bars = rows
    .map((row, i) => {
      const y = 4 + i * rowHeight;
      const w = Math.max(0, Math.min(1, row.fraction)) * barMax;
      return (
        `<text x="${labelWidth - 8}" y="${y + 17}" text-anchor="end" class="lbl">${esc(truncate(row.label, 30))}<title>${esc(row.label)}</title></text>` +
        `<rect x="${labelWidth}" y="${y + 4}" width="${barMax}" height="${rowHeight - 8}" class="track"/>` +
        `<rect x="${labelWidth}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowHeight - 8}" class="bar ${row.tone}"/>` +
        `<text x="${labelWidth + barMax + 8}" y="${y + 17}" class="val">${esc(row.text)}</text>`
      );
    })
    .join('');
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(caption)}" preserveAspectRatio="xMinYMin meet">${bars}</svg>`;
}

export function rateRows(entries: readonly [string, Rate][]): BarRow[] {
  return entries
    .filter(([, r]) => r.total > 0)
    .map(([label, r]) => ({
      label,
      fraction: r.rate ?? 0,
      text: `${pct(r.rate)} (${r.passed}/${r.total})`,
      tone:
        r.rate !== null && r.rate >= 0.8
          ? 'good'
          : r.rate !== null && r.rate < 0.5
            ? 'bad'
            : 'neutral',
    }));
}

function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const mantissa = raw / power;
  const nice =
    mantissa <= 1 ? 1 : mantissa <= 2 ? 2 : mantissa <= 2.5 ? 2.5 : mantissa <= 5 ? 5 : 10;
  return nice * power;
}

/** Histogram bins: `[start, end)` edges with counts. */
export function histogramBins(
  values: readonly number[],
  options: { integer?: boolean; maxBins?: number } = {},
): { start: number; end: number; count: number }[] {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return [];
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  const maxBins = options.maxBins ?? 20;
  let step: number;
  if (options.integer) {
    step = Math.max(1, Math.ceil((max - min + 1) / maxBins));
    step = step === 1 ? 1 : niceStep(step);
  } else {
    step = niceStep(
      (max - min) / Math.min(maxBins, Math.max(1, Math.ceil(Math.sqrt(finite.length)))),
    );
    if (max === min) step = Math.max(1, niceStep(Math.abs(max) / 10));
  }
  const start = Math.floor(min / step) * step;
  const count = Math.max(1, Math.floor((max - start) / step) + 1);
  const bins = Array.from({ length: count }, (_, i) => ({
    start: start + i * step,
    end: start + (i + 1) * step,
    count: 0,
  }));
  for (const v of finite) {
    const index = Math.min(count - 1, Math.floor((v - start) / step));
    const bin = bins[index];
    if (bin) bin.count++;
  }
  return bins;
}

/** A vertical-bar histogram. */
export function histogram(
  values: readonly number[],
  options: { integer?: boolean; unit: string; caption: string; format: (v: number) => string },
): string {
  const bins = histogramBins(values, options.integer ? { integer: true } : {});
  if (bins.length === 0) return `<p class="muted">No data.</p>`;
  const width = 640;
  const height = 220;
  const left = 40;
  const bottom = 40;
  const top = 12;
  const plotW = width - left - 10;
  const plotH = height - top - bottom;
  const maxCount = Math.max(...bins.map((b) => b.count));
  const barW = plotW / bins.length;
  const labelEvery = Math.max(1, Math.ceil(bins.length / 8));
  const parts: string[] = [];
  parts.push(
    `<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" class="axis"/>`,
  );
  parts.push(
    `<text x="${left - 6}" y="${top + 10}" text-anchor="end" class="val">${maxCount}</text>`,
  );
  parts.push(`<text x="${left - 6}" y="${top + plotH}" text-anchor="end" class="val">0</text>`);
  bins.forEach((bin, i) => {
    const h = maxCount === 0 ? 0 : (bin.count / maxCount) * plotH;
    const x = left + i * barW;
    const range =
      options.integer && bin.end - bin.start === 1
        ? options.format(bin.start)
        : `${options.format(bin.start)}–${options.format(bin.end)}`;
    parts.push(
      `<rect x="${(x + 1).toFixed(1)}" y="${(top + plotH - h).toFixed(1)}" width="${Math.max(1, barW - 2).toFixed(1)}" height="${h.toFixed(1)}" class="bar neutral"><title>${esc(`${range} ${options.unit}: ${bin.count}`)}</title></rect>`,
    );
    if (i % labelEvery === 0) {
      parts.push(
        `<text x="${(x + barW / 2).toFixed(1)}" y="${top + plotH + 16}" text-anchor="middle" class="val">${esc(options.format(bin.start))}</text>`,
      );
    }
  });
  parts.push(
    `<text x="${left + plotW / 2}" y="${height - 6}" text-anchor="middle" class="lbl">${esc(options.unit)}</text>`,
  );
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(options.caption)}" preserveAspectRatio="xMinYMin meet">${parts.join('')}</svg>`;
}
