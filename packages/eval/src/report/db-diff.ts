/**
 * A scenario's db diff in the report: the expected/actual differences flattened into one table
 * row per path.
 *
 * @module
 */
import type {
  DbDiff,
  ListLengthMismatchDiff,
  TypeMismatchDiff,
  ValueDiff,
  ValueMismatchDiff,
} from '@scenaro/agent/scenario';
import type { DbDiffReport } from '../scoring/types.js';
import { esc, short } from './format.js';

/** One differing leaf of a db: its path, both values and what kind of difference it is. */
export interface DiffRow {
  path: string;
  expected: string;
  actual: string;
  note: string;
}

/** A row for something added or removed at `path`. */
function presence(path: string, note: string): DiffRow {
  return { path, expected: '', actual: '', note };
}

/** A row for two values that differ at `path`. */
function mismatch(path: string, expected: unknown, actual: unknown, note: string): DiffRow {
  return { path, expected: short(expected, 200, true), actual: short(actual, 200, true), note };
}

function flattenValueDiff(diff: ValueDiff, path: string, rows: DiffRow[]): void {
  if ('fields_modified' in diff) {
    for (const f of diff.fields_added) rows.push(presence(`${path}.${f}`, 'field added'));
    for (const f of diff.fields_removed) rows.push(presence(`${path}.${f}`, 'field removed'));
    for (const [f, d] of Object.entries(diff.fields_modified))
      flattenValueDiff(d, `${path}.${f}`, rows);
    return;
  }
  if (diff.type === 'list_differences') {
    for (const d of diff.differences) flattenValueDiff(d.diff, `${path}[${d.index}]`, rows);
    return;
  }
  rows.push(mismatch(path, diff.expected, diff.actual, mismatchNote(diff)));
}

function mismatchNote(diff: TypeMismatchDiff | ListLengthMismatchDiff | ValueMismatchDiff): string {
  switch (diff.type) {
    case 'type_mismatch':
      return `type ${diff.expected_type} → ${diff.actual_type}`;
    case 'list_length_mismatch':
      return `length ${diff.expected_length} → ${diff.actual_length}`;
    case 'value_mismatch':
      return '';
  }
}

/** Every differing leaf of a db diff, tables in order. */
export function diffRows(diff: DbDiff): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const t of diff.tables_added) rows.push(presence(t, 'table added'));
  for (const t of diff.tables_removed) rows.push(presence(t, 'table removed'));
  for (const [table, tableDiff] of Object.entries(diff.tables_modified)) {
    if ('type' in tableDiff) {
      rows.push(mismatch(table, tableDiff.expected, tableDiff.actual, 'table differs'));
      continue;
    }
    for (const r of tableDiff.records_added) rows.push(presence(`${table}[${r}]`, 'record added'));
    for (const r of tableDiff.records_removed)
      rows.push(presence(`${table}[${r}]`, 'record removed'));
    for (const [record, d] of Object.entries(tableDiff.records_modified))
      flattenValueDiff(d, `${table}[${record}]`, rows);
  }
  return rows;
}

export function dbDiff(report: DbDiffReport | undefined, label: string): string {
  if (!report) return '';
  if (report.status !== 'computed')
    return `<h4>${esc(label)}</h4><p class="muted">${esc(report.message)}</p>`;
  const rows = diffRows(report.diff);
  const shown = rows.slice(0, 200);
  const body = shown
    .map(
      (r) =>
        `<tr><td><code>${esc(r.path)}</code></td><td>${esc(r.expected)}</td><td>${esc(r.actual)}</td><td>${esc(r.note)}</td></tr>`,
    )
    .join('');
  return (
    `<h4>${esc(label)}</h4>` +
    (rows.length === 0
      ? '<p class="muted">The dbs differ only in what hashing normalises away.</p>'
      : `<div class="scroll"><table class="diff"><thead><tr><th>path</th><th>expected</th><th>actual</th><th></th></tr></thead><tbody>${body}</tbody></table></div>` +
        (rows.length > shown.length
          ? `<p class="muted">${rows.length - shown.length} more differences not shown.</p>`
          : ''))
  );
}
