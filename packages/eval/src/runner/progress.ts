/**
 * Progress display for long runs: one updating line on a TTY (counts, success
 * so far, ETA), plain lines otherwise.
 */

export interface ProgressState {
  total: number;
  done: number;
  passed: number;
  failed: number;
  notScored: number;
  errors: number;
  startedAt: number;
}

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const mm = String(m % 60).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** The one-line status: `[12/50] 11 passed, 1 failed (92%) elapsed 00:20 ETA 01:03`. */
export function progressLine(state: ProgressState, now = Date.now()): string {
  const elapsed = (now - state.startedAt) / 1000;
  const scored = state.passed + state.failed;
  const rate = scored > 0 ? `${Math.round((100 * state.passed) / scored)}%` : '-';
  const eta = state.done > 0 ? (elapsed / state.done) * (state.total - state.done) : NaN;
  const extras = [
    state.notScored > 0 ? `${state.notScored} not scored` : '',
    state.errors > 0 ? `${state.errors} errors` : '',
  ].filter(Boolean);
  return (
    `[${state.done}/${state.total}] ${state.passed} passed, ${state.failed} failed (${rate})` +
    (extras.length ? `, ${extras.join(', ')}` : '') +
    ` elapsed ${formatDuration(elapsed)} ETA ${state.done === state.total ? '00:00' : formatDuration(eta)}`
  );
}

/** Writes progress to a stream: redraws one line on a TTY, prints a line per scenario otherwise. */
export class ProgressDisplay {
  readonly #stream: NodeJS.WriteStream | { write(text: string): unknown; isTTY?: boolean };
  readonly #tty: boolean;
  readonly state: ProgressState;

  constructor(total: number, stream: ProgressDisplay['stream'] = process.stderr) {
    this.#stream = stream;
    this.#tty = Boolean(stream.isTTY);
    this.state = {
      total,
      done: 0,
      passed: 0,
      failed: 0,
      notScored: 0,
      errors: 0,
      startedAt: Date.now(),
    };
  }

  get stream(): { write(text: string): unknown; isTTY?: boolean } {
    return this.#stream;
  }

  /** Record a finished scenario and show it. */
  finished(name: string, outcome: 'passed' | 'failed' | 'not-scored' | 'error', detail = ''): void {
    this.state.done++;
    if (outcome === 'passed') this.state.passed++;
    else if (outcome === 'failed') this.state.failed++;
    else if (outcome === 'not-scored') this.state.notScored++;
    else this.state.errors++;
    const mark = { passed: 'PASS', failed: 'FAIL', 'not-scored': 'N/A ', error: 'ERR ' }[outcome];
    const line = progressLine(this.state);
    if (this.#tty) {
      this.#stream.write(`\r\x1b[2K${mark} ${name}${detail ? ` (${detail})` : ''}\n${line}`);
    } else {
      this.#stream.write(`${mark} ${name}${detail ? ` (${detail})` : ''} ${line}\n`);
    }
  }

  /** A note above the status line. */
  note(text: string): void {
    this.#stream.write(this.#tty ? `\r\x1b[2K${text}\n${progressLine(this.state)}` : `${text}\n`);
  }

  end(): void {
    if (this.#tty) this.#stream.write('\n');
  }
}
