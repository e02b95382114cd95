/**
 * Where the server's log lines go: a file descriptor (stderr by default) written
 * asynchronously, one write at a time, from a bounded buffer. Logging never blocks serving:
 * when the reader falls behind, lines over the buffer are dropped and counted (the count is
 * logged once writing resumes); when the reader is gone (EPIPE and the like), every later line
 * is dropped. Nothing is ever flushed synchronously, so a stuck or broken log pipe cannot keep
 * the process from shutting down.
 */
import { write } from 'node:fs';

/** Options of {@link LogDestination}. */
export interface LogDestinationOptions {
  /** @default 2 (stderr) */
  fd?: number;
  /** Most bytes held while the reader is behind; more lines are dropped. @default 1 MiB */
  maxBufferedBytes?: number;
}

/** How long to wait before writing again to a descriptor that is not ready (EAGAIN). */
const RETRY_MS = 20;

/** A pino destination: `write(line)` never blocks and never throws. */
export class LogDestination {
  readonly #fd: number;
  readonly #max: number;
  #lines: string[] = [];
  #bytes = 0;
  #writing = false;
  #broken = false;
  #dropped = 0;

  constructor(options: LogDestinationOptions = {}) {
    this.#fd = options.fd ?? 2;
    this.#max = options.maxBufferedBytes ?? 1024 * 1024;
  }

  /** Lines dropped so far (buffer full, or the descriptor broken). */
  get dropped(): number {
    return this.#dropped;
  }

  /** Bytes waiting to be written. */
  get buffered(): number {
    return this.#bytes;
  }

  write(line: string): boolean {
    if (this.#broken || this.#bytes + line.length > this.#max) {
      this.#dropped++;
      return true;
    }
    this.#lines.push(line);
    this.#bytes += line.length;
    if (!this.#writing) this.#next();
    return true;
  }

  #next(): void {
    if (this.#lines.length === 0 || this.#broken) {
      this.#writing = false;
      return;
    }
    if (this.#dropped > 0) {
      this.#lines.unshift(
        `${JSON.stringify({ level: 40, time: Date.now(), msg: 'log lines dropped: the log reader fell behind', dropped: this.#dropped })}\n`,
      );
      this.#dropped = 0;
    }
    const data = Buffer.from(this.#lines.join(''), 'utf8');
    this.#lines = [];
    this.#bytes = 0;
    this.#writing = true;
    this.#send(data, 0);
  }

  #send(data: Buffer, offset: number): void {
    write(this.#fd, data, offset, data.length - offset, null, (err, written) => {
      if (err) {
        if (err.code === 'EAGAIN') {
          setTimeout(() => this.#send(data, offset), RETRY_MS).unref();
          return;
        }
        // EPIPE, EBADF, ...: the reader is gone for good.
        this.#broken = true;
        this.#writing = false;
        this.#dropped += this.#lines.length + 1;
        this.#lines = [];
        this.#bytes = 0;
        return;
      }
      if (offset + written < data.length) this.#send(data, offset + written);
      else this.#next();
    });
  }
}
