/**
 * `scenaro hash PATH`: the `get_dict_hash` digest of a JSON file, or of a folder
 * of `*.json` shards merged by file stem.
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { Command } from 'commander';
import { getDictHash, loadDbArtifact } from '@scenaro/agent';

/** Hash the db at `path` (a file, or a directory of shards). */
export async function hashPath(path: string): Promise<string> {
  const full = resolve(path);
  let info;
  try {
    info = await stat(full);
  } catch {
    throw new Error(`no such file or directory: ${path}`);
  }
  const root = info.isDirectory() ? dirname(full) : dirname(full);
  const name = basename(full);
  const db = await loadDbArtifact(root, info.isDirectory() ? name : name);
  return getDictHash(db);
}

export function hashCommand(): Command {
  return new Command('hash')
    .description(
      'Print the get_dict_hash digest of a JSON db file, or of a folder of *.json shards.',
    )
    .argument('<path>', 'a .json file or a directory of .json shards')
    .action(async (path: string) => {
      console.log(await hashPath(path));
    });
}
