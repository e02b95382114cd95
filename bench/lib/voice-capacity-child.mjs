// A child process holding one voice bot server (VAD, PocketSphinx, Flite, real-time pacing)
// whose every reply is a fixed two-sentence answer, so the benchmark measures the server's CPU
// and memory apart from the clients'. Talks over IPC:
//   -> {url}                          once listening
//   <- 'report' -> {cpu_ms, rss, sessions}   CPU of this process and its reaped children
//                                           (the recognizers), from /proc/self/stat
//   <- 'stop'                         close the server and exit
import { readFileSync } from 'node:fs';
import {
  BotServer,
  createConversationEngine,
  createFliteTextToSpeech,
  createPocketsphinxSpeechToText,
  silentLogger,
} from '@scenaro/agent';

const REPLY = 'Sure, I can help with that. Your flight is now booked for tomorrow morning.';
const model = {
  processor: 'FixedReply',
  model: 'scripted:fixed',
  scripted: true,
  async *stream() {
    yield { type: 'text-delta', text: REPLY };
  },
};
const server = await new BotServer({
  port: 0,
  logger: silentLogger,
  resumeGraceMs: 0,
  conversation: createConversationEngine({ model: () => model }),
  voice: {
    stt: createPocketsphinxSpeechToText(),
    tts: createFliteTextToSpeech({ voice: 'slt' }),
    pacing: 'realtime',
    vad: { stopMs: 600 },
  },
}).listen();

/** utime + stime + cutime + cstime of this process, in ms. */
function cpuMs() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

process.on('message', async (message) => {
  if (message === 'report') {
    process.send({
      cpu_ms: cpuMs(),
      rss: process.memoryUsage().rss,
      sessions: server.sessionCount,
    });
  } else if (message === 'stop') {
    await server.close();
    process.exit(0);
  }
});
process.send({ url: server.url });
