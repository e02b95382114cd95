/**
 * `scenaro hash PATH`: the `get_dict_hash` digest of a JSON file, or of a folder
 * of `*.json` shards merged by file stem.
 */
import { Command } from 'commander';
import { hashPath } from '../hash-path.js';

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
