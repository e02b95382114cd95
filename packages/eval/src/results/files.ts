/**
 * Result files. Every file is written atomically (a temporary file in the same
 * folder, then a rename), so a run killed at any moment never leaves a
 * half-written file behind.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Write `content` to `path` atomically, creating folders as needed. */
export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${randomUUID()}.tmp`);
  try {
    await writeFile(tmp, content);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** The temporary name {@link writeFileAtomic} writes under before its rename. */
const UNFINISHED_WRITE = /^\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/;

/**
 * Remove what a killed process left of its atomic writes in `dir` (and below it, when
 * `recursive`): their temporary files, which never hold a whole file, since the complete one is
 * only ever the renamed result. Only for a folder no live process writes to. Returns how many
 * were removed; a missing `dir` has none.
 */
export async function removeUnfinishedWrites(dir: string, recursive = false): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir, { recursive });
  } catch {
    return 0;
  }
  const unfinished = names.filter((name) => UNFINISHED_WRITE.test(basename(name)));
  await Promise.all(unfinished.map((name) => rm(join(dir, name), { force: true })));
  return unfinished.length;
}

/** Write JSON (2-space indented) atomically. */
export function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  return writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Whether anything exists at `path`. */
export function pathExists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
