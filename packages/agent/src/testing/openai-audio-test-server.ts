/**
 * A local OpenAI-compatible audio server for tests, listening on 127.0.0.1
 * on a free port and answering as OpenAI documents it:
 *
 * - `POST /v1/audio/speech` with JSON `{model, input, voice, response_format}`:
 *   `response_format: "pcm"` is answered with raw 24 kHz 16-bit little-endian
 *   mono (`content-type: audio/pcm`), sent in chunks of odd sizes so clients
 *   must rejoin samples split across chunks. The audio is a tone whose
 *   length grows with the input (10 ms per character). Other formats: 400.
 * - `POST /v1/audio/transcriptions` with `multipart/form-data` (`file`,
 *   `model`, `response_format`, optional `language`, `prompt`): answers
 *   `{"text": ...}` from `transcribe()`, given the uploaded file's bytes.
 * - Missing fields: 400; an unknown path: 404; errors are
 *   `{error: {message, type, param, code}}`. `failNext()` makes the next
 *   request fail with the given status (429 adds `retry-after: 0`).
 *
 * Every request is recorded in `requests` (path, headers, JSON body or form fields).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { listenLocally } from './local-http.js';

export interface AudioTestRequest {
  path: string;
  headers: IncomingMessage['headers'];
  /** The JSON body (speech) or the form's text fields (transcriptions). */
  fields: Record<string, unknown>;
  /** The uploaded file (transcriptions). */
  file?: { name: string; type: string; bytes: Uint8Array };
}

export interface OpenAIAudioTestServer {
  /** Base URL with the version path, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly baseURL: string;
  readonly requests: AudioTestRequest[];
  /** The text answered for an uploaded file (default `"hello world"`). */
  transcribe: (file: Uint8Array, fields: Record<string, unknown>) => string;
  /** Make the next `count` requests fail with `status`. */
  failNext(status: number, message?: string, count?: number): void;
  close(): Promise<void>;
}

/** The PCM the speech endpoint answers for `input`: a 440 Hz tone, 10 ms per character. */
export function testSpeechPcm(input: string): Uint8Array {
  const samples = input.length * 240;
  const out = new Uint8Array(samples * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < samples; i++) {
    view.setInt16(i * 2, Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 24_000)), true);
  }
  return out;
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  code: string | null,
): void {
  const type =
    status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  res.writeHead(status, {
    'content-type': 'application/json',
    ...(status === 429 ? { 'retry-after': '0', 'retry-after-ms': '0' } : {}),
  });
  res.end(JSON.stringify({ error: { message, type, param: null, code } }));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Start the server. */
export async function startOpenAIAudioTestServer(): Promise<OpenAIAudioTestServer> {
  const requests: AudioTestRequest[] = [];
  const failures: Array<{ status: number; message: string }> = [];
  const state: Pick<OpenAIAudioTestServer, 'transcribe'> = { transcribe: () => 'hello world' };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const body = await readBody(req);
    if (req.method !== 'POST' || !['/v1/audio/speech', '/v1/audio/transcriptions'].includes(path)) {
      sendError(res, 404, `no route ${req.method} ${path}`, 'not_found');
      return;
    }
    const failure = failures.shift();
    if (failure) {
      requests.push({ path, headers: req.headers, fields: {} });
      sendError(
        res,
        failure.status,
        failure.message,
        failure.status === 429 ? 'rate_limit_exceeded' : null,
      );
      return;
    }
    if (path === '/v1/audio/speech') {
      let fields: Record<string, unknown>;
      try {
        fields = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      } catch {
        sendError(res, 400, 'body is not JSON', null);
        return;
      }
      requests.push({ path, headers: req.headers, fields });
      for (const name of ['model', 'input', 'voice']) {
        if (typeof fields[name] !== 'string' || fields[name] === '') {
          sendError(
            res,
            400,
            `Missing required parameter: '${name}'.`,
            'missing_required_parameter',
          );
          return;
        }
      }
      if (fields['response_format'] !== 'pcm') {
        sendError(res, 400, 'this server only answers response_format "pcm"', 'unsupported_value');
        return;
      }
      const pcm = testSpeechPcm(fields['input'] as string);
      res.writeHead(200, { 'content-type': 'audio/pcm', 'transfer-encoding': 'chunked' });
      for (let offset = 0, size = 1001; offset < pcm.length; offset += size, size += 998) {
        res.write(pcm.subarray(offset, offset + size));
        await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
      return;
    }
    const form = await new Request('http://localhost/', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body: new Uint8Array(body),
    })
      .formData()
      .catch(() => undefined);
    if (!form) {
      sendError(res, 400, 'body is not multipart/form-data', null);
      return;
    }
    const fields: Record<string, unknown> = {};
    let file: AudioTestRequest['file'];
    const uploads: { name: string; value: File }[] = [];
    form.forEach((value, name) => {
      if (typeof value === 'string') fields[name] = value;
      else uploads.push({ name, value });
    });
    for (const { name, value } of uploads) {
      if (name === 'file') {
        file = {
          name: value.name,
          type: value.type,
          bytes: new Uint8Array(await value.arrayBuffer()),
        };
      }
    }
    requests.push({ path, headers: req.headers, fields, ...(file ? { file } : {}) });
    if (!file) {
      sendError(res, 400, "Missing required parameter: 'file'.", 'missing_required_parameter');
      return;
    }
    if (typeof fields['model'] !== 'string') {
      sendError(res, 400, "Missing required parameter: 'model'.", 'missing_required_parameter');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ text: state.transcribe(file.bytes, fields) }));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => sendError(res, 500, String(error), null));
  });
  // The server is `state` itself, so a test's `transcribe` is the one requests use.
  return Object.assign(state, {
    ...(await listenLocally(server, '/v1')),
    requests,
    failNext(status: number, message = `test failure ${status}`, count = 1) {
      for (let i = 0; i < count; i++) failures.push({ status, message });
    },
  });
}
