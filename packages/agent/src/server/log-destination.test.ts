import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LogDestination } from './log-destination.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('LogDestination', () => {
  it('writes lines in order, asynchronously', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenaro-log-'));
    const fd = openSync(join(dir, 'log'), 'w');
    try {
      const destination = new LogDestination({ fd });
      for (let i = 0; i < 100; i++) destination.write(`line ${i}\n`);
      await settle();
      const lines = readFileSync(join(dir, 'log'), 'utf8').trim().split('\n');
      expect(lines).toEqual(Array.from({ length: 100 }, (_, i) => `line ${i}`));
      expect(destination.dropped).toBe(0);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('drops what is over its buffer and says how many lines it dropped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenaro-log-'));
    const fd = openSync(join(dir, 'log'), 'w');
    try {
      const destination = new LogDestination({ fd, maxBufferedBytes: 100 });
      // The first line is being written; the next ones fill the 100-byte buffer, the rest drop.
      for (let i = 0; i < 50; i++) destination.write(`${'x'.repeat(20)}${i}\n`);
      expect(destination.buffered).toBeLessThanOrEqual(100);
      expect(destination.dropped).toBeGreaterThan(40);
      await settle();
      destination.write('after\n');
      await settle();
      const text = readFileSync(join(dir, 'log'), 'utf8');
      expect(text).toMatch(/"msg":"log lines dropped: the log reader fell behind","dropped":4\d/);
      expect(text.trim().endsWith('after')).toBe(true);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('drops everything once its descriptor fails, without throwing', async () => {
    const fd = openSync('/dev/full', 'w');
    try {
      const destination = new LogDestination({ fd });
      destination.write('lost\n');
      await settle();
      for (let i = 0; i < 10; i++) expect(destination.write('also lost\n')).toBe(true);
      expect(destination.dropped).toBe(11);
      expect(destination.buffered).toBe(0);
    } finally {
      closeSync(fd);
    }
  });
});
