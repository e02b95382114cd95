// A child process holding the agent and user bots of an evaluation (the runner's local bots,
// scripted policies), so the benchmark can measure the bots' CPU and memory apart from the
// runner's. Talks over IPC:
//   -> {urls}                          once listening
//   <- 'reset'   -> {reset: true}       restart the CPU and peak-memory counters
//   <- 'report'  -> {cpu_ms, peak_rss, peak_heap, rss, heap, sessions}
//   <- 'stop'                          close the bots and exit
// Usage: fork('bench/lib/bots-child.mjs', [dataRoot, domainName]).
import { builtInDomains } from '@scenaro/domains';
import { startLocalBots } from '@scenaro/eval';

const [dataRoot, domainName] = process.argv.slice(2);
const domain = builtInDomains().get(domainName);
if (!domain) throw new Error(`unknown domain ${domainName}`);
const bots = await startLocalBots({ domains: [domain], dataRoot });

let cpu0 = process.cpuUsage();
let peakRss = 0;
let peakHeap = 0;
let peakSessions = 0;
const sample = () => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
  peakSessions = Math.max(peakSessions, bots.agent.sessionCount + bots.user.sessionCount);
};
const sampler = setInterval(sample, 25);

process.on('message', async (message) => {
  if (message === 'reset') {
    cpu0 = process.cpuUsage();
    peakRss = 0;
    peakHeap = 0;
    peakSessions = 0;
    sample();
    process.send({ reset: true });
  } else if (message === 'report') {
    sample();
    const cpu = process.cpuUsage(cpu0);
    const m = process.memoryUsage();
    process.send({
      cpu_ms: (cpu.user + cpu.system) / 1000,
      peak_rss: peakRss,
      peak_heap: peakHeap,
      peak_sessions: peakSessions,
      rss: m.rss,
      heap: m.heapUsed,
    });
  } else if (message === 'stop') {
    clearInterval(sampler);
    await bots.close();
    process.exit(0);
  }
});
process.send({ urls: { agent: bots.agentUrl, user: bots.userUrl }, token: bots.token });
