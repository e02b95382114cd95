import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// Property-based tests run with one seed, so a CI run is reproducible; set FC_SEED to explore others.
import fc from 'fast-check';

fc.configureGlobal({ seed: Number(process.env['FC_SEED'] ?? 20261130) });

// Tests that read ../shared (specs, eval data) skip, loudly, where it is absent. CI always has it,
// so there a missing file fails every test file instead of letting those tests skip.
const SHARED_FILES = [
  'spec/rpc-contracts.md',
  'reference/control-plane.md',
  'eval-data/reference_scenarios.json',
  'eval-data/tau2_telecom/db.json',
];
if (process.env['CI']) {
  const shared = join(dirname(fileURLToPath(import.meta.url)), '..', 'shared');
  const missing = SHARED_FILES.map((f) => join(shared, f)).filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(`CI runs every test: ../shared is incomplete, missing ${missing.join(', ')}`);
  }
}
