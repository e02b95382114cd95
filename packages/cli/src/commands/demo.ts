/**
 * `scenaro demo`: the demo storefront in one command. It serves the page built into the
 * `@scenaro/demo` package and a bot server for it on loopback (`startDemo`), which hears and
 * speaks with the offline engines (PocketSphinx, Flite) unless the voice flags of `serve` choose
 * others.
 */
import { Command } from 'commander';
import { addLlmOptions } from '../llm-flags.js';
import { addVoiceOptions } from '../voice-flags.js';
import { closeOnSignal } from '../close-on-signal.js';
import type { DemoFlags } from '../demo-options.js';

export function demoCommand(): Command {
  const command = new Command('demo')
    .description(
      'Serve the demo storefront and a bot server for it on loopback: an agent drives the page through frontend tools.',
    )
    .option('--host <host>', 'address to bind (page and bot)', '127.0.0.1')
    .option('--port <port>', 'port of the page (0 picks a free one)', '4173')
    .option('--bot-port <port>', 'port of the bot server (0 picks a free one)', '0')
    .option('--data-root <dir>', 'folder holding commerce/db.json (default: the shipped data)');
  addVoiceOptions(command);
  return addLlmOptions(
    command,
    'OpenAI-compatible endpoint for the assistant (default: the scripted shop assistant)',
  ).action(async (flags: DemoFlags) => {
    // Loaded when the command runs, so that `scenaro --help` loads no server code.
    const [
      { startDemo },
      { demoOptions },
      { buildVoiceOptions, closeVoice, closeVoiceWithServer },
    ] = await Promise.all([
      import('@scenaro/demo/server'),
      import('../demo-options.js'),
      import('../voice.js'),
    ]);
    const options = demoOptions(flags);
    const voice = await buildVoiceOptions(flags);
    for (const warning of voice.warnings) console.warn(`scenaro: warning: ${warning}`);
    let demo;
    try {
      demo = await startDemo({ ...options, voice: voice.voice });
    } catch (err) {
      await closeVoice(voice.voice);
      throw err;
    }
    closeVoiceWithServer(demo, voice.voice);
    console.log(`  ${voice.summary}`);
    console.log('  press Ctrl+C to stop');
    closeOnSignal(demo);
  });
}
