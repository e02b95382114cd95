/**
 * The callers of a run with caller effects: for each scenario, its config and seed (a
 * speech-complexity preset, per task from the suite's `tasks_voice.json` for the tau2 domains
 * and sampled from the preset for the others, or one `--caller-effects` config for every
 * scenario), and the sounds they are made of (the stand-ins, spoken with Flite, with the
 * recordings of `--noise-dir` in their place).
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallerEffects, SpeechComplexity } from '../caller/config.js';
import { presetForTask, taskSeed } from '../caller/presets.js';
import { createFliteSpeaker } from '../caller/babble.js';
import { createStandInSounds, loadNoiseDir } from '../caller/sound-bank.js';
import type { CallerSounds } from '../caller/sound-bank.js';
import { RELAY_SAMPLE_RATE } from '../bridge/audio-timeline.js';
import type { WorkItem } from '../scenario/select.js';

/** One scenario's caller. */
export interface ScenarioCaller {
  /** The task id the seed is drawn from (tau2's id, else the scenario's name). */
  taskId: string;
  complexity: SpeechComplexity;
  seed: number;
  effects: CallerEffects;
  /** The task's entry in `tasks_voice.json`, the preset sampled, or the `--caller-effects` file. */
  from: 'tasks_voice' | 'preset' | 'file';
}

/** How the callers of a run are chosen. */
export interface RunCallersOptions {
  dataRoot: string;
  /** A preset: each scenario's config from its suite's `tasks_voice.json`, else sampled. */
  preset?: SpeechComplexity;
  /** One config for every scenario (`--caller-effects`). */
  effects?: CallerEffects;
  /** The sounds, when made already (see {@link runSounds}). */
  sounds?: CallerSounds;
  /** Otherwise: recordings named like tau2's sounds, in place of the stand-ins. */
  noiseDir?: string;
}

/** The tau2 task id of a scenario (`tau2-bench airline task 24`), else its name. */
export function taskIdOf(item: WorkItem): string {
  return /\btask (.+)$/.exec(item.scenario.source)?.[1] ?? item.scenario.name;
}

/** Where a tau2 domain keeps `tasks_voice.json` (`tau2_telecom_workflow` reads telecom's). */
export function tasksVoicePath(dataRoot: string, domain: string): string | undefined {
  const suite = /^tau2_(airline|retail|telecom)/.exec(domain)?.[1];
  return suite ? join(dataRoot, `tau2_${suite}`, 'tasks_voice.json') : undefined;
}

/** The callers of one run (or one preset of it). */
export class RunCallers {
  readonly sounds: CallerSounds;
  readonly #options: RunCallersOptions;
  readonly #tasksVoice = new Map<string, Promise<unknown>>();

  private constructor(options: RunCallersOptions, sounds: CallerSounds) {
    this.#options = options;
    this.sounds = sounds;
  }

  /** The callers of a run, with their sounds made (and `noiseDir` read). */
  static async create(options: RunCallersOptions): Promise<RunCallers> {
    if ((options.preset === undefined) === (options.effects === undefined))
      throw new Error('caller effects need either a preset or a config');
    return new RunCallers(options, options.sounds ?? (await runSounds(options.noiseDir)));
  }

  /** The caller of `item`. */
  async forScenario(item: WorkItem): Promise<ScenarioCaller> {
    const taskId = taskIdOf(item);
    const { effects, preset } = this.#options;
    if (effects)
      return {
        taskId,
        complexity: effects.complexity,
        seed: taskSeed(taskId),
        effects,
        from: 'file',
      };
    const path = tasksVoicePath(this.#options.dataRoot, item.scenario.domain);
    const tasksVoice = path ? await this.#read(path) : undefined;
    const task = presetForTask(tasksVoice, taskId, preset!);
    return {
      taskId,
      complexity: task.complexity,
      seed: task.seed,
      effects: task.effects,
      from: task.from,
    };
  }

  /** A suite's `tasks_voice.json`, read once (undefined when it has none). */
  #read(path: string): Promise<unknown> {
    let read = this.#tasksVoice.get(path);
    if (!read) {
      read = readFile(path, 'utf8').then(
        (text) => JSON.parse(text) as unknown,
        (err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT') return undefined;
          throw err;
        },
      );
      this.#tasksVoice.set(path, read);
    }
    return read;
  }
}

/** The stand-in sounds at the relay's rate, spoken with Flite, with `noiseDir`'s recordings. */
export async function runSounds(noiseDir: string | undefined): Promise<CallerSounds> {
  const speaker = createFliteSpeaker(RELAY_SAMPLE_RATE);
  let sounds: CallerSounds;
  try {
    sounds = await createStandInSounds({ sampleRate: RELAY_SAMPLE_RATE, speaker });
  } finally {
    await speaker.close();
  }
  return noiseDir ? (await loadNoiseDir(noiseDir, sounds)).sounds : sounds;
}
