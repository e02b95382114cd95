/**
 * A local OpenAI-compatible speech endpoint that can hang, for tests of
 * deadlines: `POST /v1/audio/speech` is answered as the audio test server
 * answers it ({@link testSpeechPcm}, raw 24 kHz PCM) unless `stall` says
 * otherwise for the request's input:
 *
 * - `silent`: the request is accepted and never answered (not even headers);
 * - `headers`: the 200 headers are sent, then nothing;
 * - `mid-body`: the headers and the first 100 ms of audio are sent, then nothing.
 *
 * A full answer comes in 100 ms pieces, 10 ms apart.
 *
 * Connections left hanging are closed by `close()`.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { listenLocally } from './local-http.js';
import { testSpeechPcm } from './openai-audio-test-server.js';

/** How the server answers one input. */
export type SpeechStall = 'none' | 'silent' | 'headers' | 'mid-body';

export interface StallingSpeechServer {
  /** Base URL with the version path, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly baseURL: string;
  /** The input of every speech request, in order of arrival. */
  readonly inputs: string[];
  /** How each input is answered (default: every input in full). */
  stall: (input: string) => SpeechStall;
  close(): Promise<void>;
}

/** 100 ms of 24 kHz PCM16. */
const PIECE_BYTES = 4800;

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

/** Answer `input`: the audio in 100 ms pieces 10 ms apart, or as much of it as `stall` lets. */
async function answer(res: ServerResponse, input: string, stall: SpeechStall): Promise<void> {
  if (stall === 'silent') return;
  res.writeHead(200, { 'content-type': 'audio/pcm', 'transfer-encoding': 'chunked' });
  const pcm = testSpeechPcm(input);
  if (stall === 'headers') {
    res.flushHeaders();
    return;
  }
  for (let offset = 0; offset < pcm.length; offset += PIECE_BYTES) {
    res.write(pcm.subarray(offset, offset + PIECE_BYTES));
    if (stall === 'mid-body') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  res.end();
}

/** Start the server on 127.0.0.1, on a free port. */
export async function startStallingSpeechServer(): Promise<StallingSpeechServer> {
  const inputs: string[] = [];
  const state: Pick<StallingSpeechServer, 'stall'> = { stall: () => 'none' };
  const server: Server = createServer((req, res) => {
    readJson(req)
      .then((fields) => {
        const input = String(fields['input'] ?? '');
        inputs.push(input);
        return answer(res, input, state.stall(input));
      })
      .catch(() => {
        res.writeHead(400).end();
      });
  });
  // The server is `state` itself, so a test's `stall` is the one requests use.
  return Object.assign(state, { ...(await listenLocally(server, '/v1')), inputs });
}
