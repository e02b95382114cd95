/**
 * Audio mode with a bot whose recognizer is told what was said (the oracle) instead of hearing
 * it: each piece of the other bot's `bot-tts-text` (a sentence, in spoken form) is told to it as
 * a `client-message oracle-said {text}` right after that sentence's audio has been relayed to
 * it, before the next chunk, so the text lands on the listener's audio timeline where its speech
 * ends (a bot sends `bot-tts-text` after a sentence's audio, as Pipecat does).
 */
import { ORACLE_SAID_MESSAGE } from '@scenaro/agent/voice';
import type { OracleSaidData } from '@scenaro/agent/voice';
import type { BotConnection } from './bot-connection.js';
import type { BotRole } from './types.js';

export interface OracleEarOptions {
  /** The bots told what the other one said. */
  told: readonly BotRole[];
  /** Call `call` once the audio `source` sent so far has been relayed to the other bot. */
  whenRelayed(source: BotRole, call: () => void): void;
  /** The connected bot of a role. */
  bot: (role: BotRole) => BotConnection;
  /** Receives bridge-log lines. */
  log: (line: string) => void;
}

/** What to call with each `bot-tts-text` piece of `speaker`: tells the other bot, if it is told. */
export function oracleEar(options: OracleEarOptions): (speaker: BotRole, text: string) => void {
  return (speaker, text) => {
    const listener: BotRole = speaker === 'agent' ? 'user' : 'agent';
    const said = text.trim();
    if (!options.told.includes(listener) || said === '') return;
    const data: OracleSaidData = { text: said };
    options.whenRelayed(speaker, () => {
      let bot: BotConnection;
      try {
        bot = options.bot(listener);
      } catch {
        return; // not connected: the bridge hears of it from the connection
      }
      if (!bot.open) return;
      bot
        .request(ORACLE_SAID_MESSAGE, data)
        .catch((err: unknown) =>
          options.log(`the ${listener} bot was not told "${said}": ${(err as Error).message}`),
        );
    });
  };
}
