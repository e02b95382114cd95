/**
 * Layering of the workspace, checked by `npm run lint` (dependency-cruiser).
 *
 * Packages import only packages below them, as their package.json dependencies say:
 * sdk < agent < domains < eval, apps/demo < cli. Inside a package there are no import cycles.
 * Inside eval, the rooms follow the flow of a run: bridge -> scoring -> results -> runner, with
 * scenario (the unit of work and its expected end state) below scoring and report rendering only
 * what scoring computed.
 *
 * Type-only imports count (`tsPreCompilationDeps`): a cycle through a type is still a cycle.
 */

/** Where each workspace package lives. */
const packages = {
  sdk: '^packages/sdk/',
  agent: '^packages/agent/',
  domains: '^packages/domains/',
  eval: '^packages/eval/',
  demo: '^apps/demo/',
  cli: '^packages/cli/',
};

/**
 * The workspace packages each package may import: exactly its `@scenaro/*` dependencies in
 * package.json (sdk < agent < domains < eval, demo < cli). Any other is above it.
 */
const mayImport = {
  sdk: [],
  agent: ['sdk'],
  domains: ['sdk', 'agent'],
  eval: ['sdk', 'agent', 'domains'],
  demo: ['sdk', 'agent', 'domains'],
  cli: ['sdk', 'agent', 'domains', 'eval', 'demo'],
};

const layerRules = Object.entries(mayImport)
  .map(([name, allowed]) => [
    name,
    allowed,
    Object.keys(packages).filter((other) => other !== name && !allowed.includes(other)),
  ])
  .filter(([, , above]) => above.length > 0)
  .map(([name, allowed, above]) => ({
    name: `${name}-imports-no-package-above`,
    comment: `${name} imports ${allowed.length > 0 ? `only ${allowed.join(', ')}` : 'no other workspace package'}; never ${above.join(', ')}`,
    severity: 'error',
    from: { path: packages[name] },
    to: { path: above.map((other) => packages[other]) },
  }));

const evalRoom = (room) => `^packages/eval/src/${room}/`;

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'sdk-no-node-builtins',
      comment:
        '@scenaro/sdk runs in browsers too: its sources import no Node built-in (its tests and ' +
        'test support may).',
      severity: 'error',
      from: { path: '^packages/sdk/src/', pathNot: '([.]test[.]tsx?$|/test-support/)' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles inside a package (type-only imports included).',
      severity: 'error',
      from: { path: '^(packages|apps)/' },
      to: { circular: true },
    },
    {
      name: 'eval-scoring-not-on-runner-report',
      comment:
        'eval scoring is computed from a bridged run and the scenario; it imports nothing from ' +
        'the runner, the result files or the report.',
      severity: 'error',
      from: { path: evalRoom('scoring') },
      to: { path: [evalRoom('runner'), evalRoom('report'), evalRoom('results')] },
    },
    {
      name: 'eval-report-renders-scoring-only',
      comment: 'the eval report renders what scoring computed; it does not run or write anything.',
      severity: 'error',
      from: { path: evalRoom('report') },
      to: { path: [evalRoom('runner'), evalRoom('results'), evalRoom('bridge')] },
    },
    {
      name: 'eval-results-not-on-runner',
      comment: "eval's result files are written for the runner and the merge; they do not call it.",
      severity: 'error',
      from: { path: evalRoom('results') },
      to: { path: evalRoom('runner') },
    },
    {
      name: 'eval-scenario-below-scoring',
      comment:
        'eval scenario (work items, expected end states) is shared by scoring and the runner; ' +
        'it imports neither, nor the bridge, results or report.',
      severity: 'error',
      from: { path: evalRoom('scenario') },
      to: {
        path: [
          evalRoom('scoring'),
          evalRoom('runner'),
          evalRoom('report'),
          evalRoom('results'),
          evalRoom('bridge'),
        ],
      },
    },
    {
      name: 'eval-bridge-below-scoring',
      comment:
        'the eval bridge drives the bots; scoring, results, the runner and the report build on it.',
      severity: 'error',
      from: { path: evalRoom('bridge') },
      to: {
        path: [evalRoom('scoring'), evalRoom('runner'), evalRoom('report'), evalRoom('results')],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|coverage|test-artifacts|eval-results)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      // Workspace packages resolve to their sources, as vitest and the test typecheck see them.
      conditionNames: ['@scenaro/source', 'import', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
