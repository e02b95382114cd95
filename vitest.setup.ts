// Property-based tests run with one seed, so a CI run is reproducible; set FC_SEED to explore others.
import fc from 'fast-check';

fc.configureGlobal({ seed: Number(process.env['FC_SEED'] ?? 20261130) });
