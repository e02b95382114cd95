// The WebSocket library unmasks what clients send with its native helper (`bufferutil`, an
// optional dependency of this package): in JavaScript, a 1 MiB audio frame takes about a
// millisecond of the event loop to unmask, natively a fiftieth of that.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

describe('the WebSocket library', () => {
  it('unmasks client frames natively', () => {
    const wsHelpers = require(join(dirname(require.resolve('ws')), 'lib/buffer-util.js')) as {
      unmask: (buffer: Buffer, mask: Buffer) => void;
    };
    // ws keeps its JavaScript `_unmask` when it cannot load bufferutil.
    expect(wsHelpers.unmask.name).not.toBe('_unmask');
    const data = Buffer.alloc(64, 0xaa);
    wsHelpers.unmask(data, Buffer.from([1, 2, 3, 4]));
    expect([...data.subarray(0, 4)]).toEqual([0xab, 0xa8, 0xa9, 0xae]);
  });
});
