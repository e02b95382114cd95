/**
 * `scenaro hash PATH`: the `get_dict_hash` digest of a JSON file, or of a folder
 * of `*.json` shards merged by file stem.
 */
import { Command } from 'commander';

export function hashCommand(): Command {
  return new Command('hash')
    .description(
      'Print the get_dict_hash digest of a JSON db file, or of a folder of *.json shards.',
    )
    .argument('<path>', 'a .json file or a directory of .json shards')
    .action(async (path: string) => {
      const { hashPath } = await import('../hash-path.js');
      console.log(await hashPath(path));
    });
}
