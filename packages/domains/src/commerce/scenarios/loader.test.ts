import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMERCE_DATA_ROOT } from '../data-root.js';
import { COMMERCE_TOOLS } from '../domain.js';
import { ScenarioDirError, ScenarioFileError } from './file-error.js';
import { loadScenarioDir, loadScenarioFile, MAX_SCENARIO_FILE_BYTES } from './loader.js';

const SHIPPED = path.join(COMMERCE_DATA_ROOT, 'commerce', 'scenarios');

/** A small valid scenario file, as an object to mutate. */
function validFile(): Record<string, unknown> {
  return {
    name: 'tmp_scenario',
    description: 'A test scenario.',
    user: {
      who: 'Tess, a tester.',
      wants: 'One headlamp in the cart.',
      knows: ['Any headlamp is fine.'],
    },
    initialization: { agent: [{ func_name: 'sign_in', arguments: { user_id: 'u_001' } }] },
    gold_actions: [
      { name: 'search_products', arguments: { query: 'headlamp' } },
      { name: 'add_to_cart', arguments: { product_id: 'p_0133', quantity: 1 } },
    ],
    expected_state: { 'users[u_001].cart.items[OUT-0133].quantity': 1 },
  };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'commerce-scenarios-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, content: string | Record<string, unknown>): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(
    file,
    typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`,
  );
  return file;
}

async function loadError(file: string): Promise<ScenarioFileError> {
  const error = await loadScenarioFile(file).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ScenarioFileError);
  return error as ScenarioFileError;
}

describe('loading valid files', () => {
  it('loads every shipped scenario into the Scenario shape', async () => {
    const scenarios = await loadScenarioDir(SHIPPED);
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
    for (const s of scenarios) {
      expect(s.name).toMatch(/^commerce__[a-z0-9_-]+$/);
      expect(s.name).toBe(`commerce__${path.basename(s.source, '.json')}`);
      expect(s.domain).toBe('commerce');
      expect(s.agent.sharedStateInit).toEqual({ db_path: 'commerce/db.json' });
      expect(s.agent.toolDomain).toBe('commerce');
      expect(Object.keys(s.agent.tools).sort()).toEqual(COMMERCE_TOOLS.map((t) => t.name).sort());
      expect(s.user.sharedStateInit).toEqual({});
      expect(s.referenceActions.every((a) => a.side === 'agent' && a.action_type === a.name)).toBe(
        true,
      );
      expect(s.expectedDbHash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('builds prompts, defaults and expected state from a file', async () => {
    const file = await write('tmp.json', {
      ...validFile(),
      agent: { notes: 'Mention free shipping.' },
    });
    const scenario = await loadScenarioFile(file, { policy: '# Policy\nBe nice.' });
    expect(scenario).toMatchObject({
      name: 'commerce__tmp_scenario',
      source: path.resolve(file),
      maxDurationSeconds: 600,
      successSignals: ['db_state_match', 'clean_exit'],
      nlAssertions: [],
      dbStateAssertions: [],
      initializationActions: [
        { func_name: 'sign_in', arguments: { user_id: 'u_001' }, side: 'agent' },
      ],
      referenceActions: [
        {
          action_type: 'search_products',
          name: 'search_products',
          arguments: { query: 'headlamp' },
          side: 'agent',
        },
        {
          action_type: 'add_to_cart',
          name: 'add_to_cart',
          arguments: { product_id: 'p_0133', quantity: 1 },
          side: 'agent',
        },
      ],
      expectedState: { agent: { 'users[u_001].cart.items[OUT-0133].quantity': 1 } },
    });
    expect(scenario.expectedDbHash).toBeUndefined();
    expect(scenario.agent.prompt).toMatch(/^# Policy\nBe nice.\n\n## Additional Notes to Follow\n/);
    expect(scenario.agent.prompt).toContain('- Mention free shipping.');
    expect(scenario.user.prompt).toContain('<scenario>\nWho you are: Tess, a tester.');
    expect(scenario.user.prompt).toContain('###STOP###');
    expect(scenario.userInstructions).toBe(
      'Who you are: Tess, a tester.\n\nWhat you want: One headlamp in the cart.\n\nWhat you know:\n- Any headlamp is fine.',
    );
  });

  it('uses the shipped policy by default and accepts a UTF-8 BOM', async () => {
    const file = await write('bom.json', `\uFEFF${JSON.stringify(validFile())}`);
    const scenario = await loadScenarioFile(file);
    const policy = await readFile(path.join(COMMERCE_DATA_ROOT, 'commerce', 'policy.md'), 'utf8');
    expect(scenario.agent.prompt.startsWith(policy.trimEnd())).toBe(true);
  });
});

describe('error messages', () => {
  it('names the file, line, column and JSON path of a wrong type at a nested path', async () => {
    const content = validFile();
    content['gold_actions'] = [
      { name: 'add_to_cart', arguments: { product_id: 'p_0133', quantity: 'two' } },
    ];
    content['user'] = { who: 'Tess', wants: 'x', knows: 'headlamps' };
    const file = await write('nested.json', content);
    const error = await loadError(file);
    expect(error.file).toBe(file);
    expect(error.issues).toEqual([
      {
        path: '$.user.knows',
        message: 'Invalid input: expected array, received string',
        line: 7,
        column: 14,
      },
    ]);
    expect(error.message).toBe(
      `${file}:7:14: $.user.knows: Invalid input: expected array, received string`,
    );
  });

  it('checks gold action arguments against the tool schema', async () => {
    const content = validFile();
    content['gold_actions'] = [
      { name: 'add_to_cart', arguments: { product_id: 'p_0133', quantity: 'two' } },
    ];
    const file = await write('args.json', content);
    const error = await loadError(file);
    expect(error.issues).toEqual([
      {
        path: '$.gold_actions[0].arguments.quantity',
        message: "invalid arguments for add_to_cart: argument 'quantity' must be integer",
        line: 26,
        column: 21,
      },
    ]);
  });

  it('reports an unknown tool name with a suggestion', async () => {
    const content = validFile();
    content['gold_actions'] = [
      { name: 'search_products', arguments: { query: 'headlamp' } },
      { name: 'add_to_card', arguments: { product_id: 'p_0133' } },
    ];
    const file = await write('tool.json', content);
    const error = await loadError(file);
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ path: '$.gold_actions[1].name', line: 29, column: 15 });
    expect(error.issues[0]?.message).toMatch(
      /^unknown tool 'add_to_card'; did you mean 'add_to_cart'\? \(tools: /,
    );
    expect(error.message).toContain(
      `${file}:29:15: $.gold_actions[1].name: unknown tool 'add_to_card'`,
    );
  });

  it('reports a JSON syntax error with its line and column', async () => {
    const text = '{\n  "name": "broken",\n  "description": "x",\n  "gold_actions": [],\n}\n';
    const file = await write('syntax.json', text);
    const error = await loadError(file);
    expect(error.issues).toEqual([
      { path: '$', message: "invalid JSON: trailing comma before '}'", line: 5, column: 1 },
    ]);
    expect(error.message).toBe(`${file}:5:1: $: invalid JSON: trailing comma before '}'`);
  });

  it('reports unterminated files where V8 gives no position', async () => {
    const file = await write('cut.json', '{\n  "name": "cut",\n  "user": {"who": tr');
    const error = await loadError(file);
    expect(error.issues[0]).toMatchObject({ line: 3, column: 19 });
    expect(error.issues[0]?.message).toMatch(/^invalid JSON: unexpected 't'; a value was expected/);
  });

  it('reports unknown fields with a suggestion, and missing ones at their parent', async () => {
    const content = validFile();
    content['gold_action'] = content['gold_actions'];
    delete content['gold_actions'];
    delete content['description'];
    const file = await write('fields.json', content);
    const error = await loadError(file);
    const byPath = Object.fromEntries(error.issues.map((i) => [i.path, i]));
    expect(byPath['$.gold_action']?.message).toMatch(
      /^unknown field 'gold_action'; did you mean 'gold_actions'\?/,
    );
    expect(byPath['$.gold_action']).toMatchObject({ line: 23, column: 3 });
    expect(byPath['$.description']).toMatchObject({ line: 1, column: 1 });
    expect(byPath['$.gold_actions']?.message).toMatch(/expected array, received undefined/);
  });

  it('checks initialization functions, their arguments and the side', async () => {
    const content = validFile();
    content['initialization'] = {
      agent: [
        { func_name: 'sign_in', arguments: { user_id: 7 } },
        { func_name: 'sign_up', arguments: {} },
        { func_name: 'set_stock', arguments: { product_id: 'p_0001', stock: 1, colour: 'red' } },
      ],
      user: [{ func_name: 'sign_in', arguments: { user_id: 'u_001' } }],
    };
    const file = await write('init.json', content);
    const error = await loadError(file);
    const messages = error.issues.map((i) => `${i.path}: ${i.message}`);
    expect(messages).toEqual([
      '$.initialization.user[0]: the commerce shopper has no database; initialization actions belong on the agent side',
      '$.initialization.agent[0].arguments.user_id: Invalid input: expected string, received number',
      "$.initialization.agent[1].func_name: unknown initialization function 'sign_up'; did you mean 'sign_in'? (available: sign_in, set_stock, seed_cart, seed_selection, set_gift_card_balance, set_order_status)",
      "$.initialization.agent[2].arguments.colour: unknown field 'colour' (fields: product_id, sku, stock)",
    ]);
    expect(error.issues.every((i) => i.line !== undefined)).toBe(true);
  });

  it('checks expected-state paths, hashes, signals and user-side gold actions', async () => {
    const content = validFile();
    content['expected_state'] = { 'users[u_001]..cart': 1, 'orders[o_1].status': 'pending' };
    content['expected_db_hash'] = 'ABC';
    content['success_signals'] = ['nl_assertion'];
    const file = await write('misc.json', content);
    const error = await loadError(file);
    expect(error.issues.map((i) => i.path)).toEqual(['$.expected_db_hash']);
    delete content['expected_db_hash'];
    content['gold_actions'] = [{ name: 'get_cart', arguments: {}, side: 'user' }];
    await write('misc.json', content);
    const second = await loadError(file);
    expect(second.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      '$.gold_actions[0].side: the commerce shopper has no tools; gold actions run on the agent side',
      `$["expected_state"]["users[u_001]..cart"]: bad path: malformed path segment '' in 'users[u_001]..cart'`.replace(
        '$["expected_state"]',
        '$.expected_state',
      ),
      "$.success_signals: 'nl_assertion' is listed but nl_assertions is empty",
    ]);
  });

  it('refuses non-object files, unreadable files and oversized files', async () => {
    expect((await loadError(await write('array.json', '[]'))).issues[0]?.message).toBe(
      'a scenario file must hold a JSON object',
    );
    expect((await loadError(path.join(dir, 'missing.json'))).issues[0]?.message).toMatch(
      /^cannot read file: ENOENT/,
    );
    const big = await write('big.json', ' '.repeat(MAX_SCENARIO_FILE_BYTES + 1));
    expect((await loadError(big)).issues[0]?.message).toMatch(
      /scenario files are limited to 1048576/,
    );
  });
});

describe('loadScenarioDir', () => {
  it('loads *.json files sorted by name and ignores other files', async () => {
    await write('b.json', { ...validFile(), name: 'b' });
    await write('a.json', { ...validFile(), name: 'a' });
    await write('notes.txt', 'not a scenario');
    expect((await loadScenarioDir(dir)).map((s) => s.name)).toEqual(['commerce__a', 'commerce__b']);
  });

  it('reports every broken file, and duplicate names with both files', async () => {
    await write('a.json', { ...validFile(), name: 'same' });
    const second = await write('b.json', { ...validFile(), name: 'same' });
    const broken = await write('c.json', '{');
    const error = await loadScenarioDir(dir).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ScenarioDirError);
    const errors = (error as ScenarioDirError).errors;
    expect(errors.map((e) => e.file)).toEqual([second, broken]);
    expect(errors[0]?.message).toBe(
      `${second}:2:11: $.name: scenario name 'commerce__same' is already used by ${path.join(dir, 'a.json')}`,
    );
    expect((error as Error).message).toMatch(/^2 scenario files in .* failed to load:\n/);
  });
});
