/**
 * The `get_dict_hash` digest of a db on disk: a JSON file, or a folder of `*.json` shards
 * merged by file stem.
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { getDictHash, loadDbArtifact } from '@scenaro/agent/db';

/** Hash the db at `path` (a file, or a directory of shards). */
export async function hashPath(path: string): Promise<string> {
  const full = resolve(path);
  try {
    await stat(full);
  } catch {
    throw new Error(`no such file or directory: ${path}`);
  }
  const db = await loadDbArtifact(dirname(full), basename(full));
  return getDictHash(db);
}
