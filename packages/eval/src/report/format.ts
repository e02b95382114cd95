/**
 * Text formatting of the report: HTML escaping, value previews, percentages, durations, and a
 * scenario's status.
 *
 * @module
 */
import type { ScenarioMetrics } from '../scoring/types.js';

/** Escape text for HTML element content and quoted attribute values. */
export function escapeHtml(text: unknown): string {
  return String(text ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export const esc = escapeHtml;

export function short(value: unknown, max = 400, quoteStrings = false): string {
  let text: string;
  try {
    text =
      typeof value === 'string' && !quoteStrings ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

export function pct(rate: number | null, digits = 1): string {
  return rate === null ? 'N/A' : `${(rate * 100).toFixed(digits)}%`;
}

export function ms(value: number): string {
  return value < 0
    ? '—'
    : value >= 1000
      ? `${(value / 1000).toFixed(2)} s`
      : `${value.toFixed(0)} ms`;
}

export type Status = 'passed' | 'failed' | 'not-scored';

export function statusOf(m: ScenarioMetrics): Status {
  return m.is_successful === true ? 'passed' : m.is_successful === false ? 'failed' : 'not-scored';
}

export const STATUS_LABEL: Record<Status, string> = {
  passed: 'passed',
  failed: 'failed',
  'not-scored': 'not scored',
};
