import { describe, expect, it } from 'vitest';
import {
  CONTROL_DEFAULTS,
  CONTROL_MESSAGE_NAMES,
  isExitText,
  parseControlArgs,
  parseFinalResponseText,
  finalResponseText,
  EXIT_TEXT_END_CONVERSATION,
} from './index.js';
import { readSharedText } from '../test-support/shared-data.js';

// The control plane's source of truth is the reference in ../shared; this test reads its table.
const reference = readSharedText('reference/control-plane.md', 'control-plane names vs reference');

/** The `t` column of the "six handlers" table (the rows below its header), in order. */
function referenceHandlerNames(text: string): string[] {
  const section = text.split(/^## /m).find((part) => part.startsWith('3. The six handlers')) ?? '';
  const body = section.split(/^\|---.*$/m)[1] ?? '';
  return [...body.matchAll(/^\| `(\w+)` \|/gm)].map(([, name]) => name ?? '');
}

describe('control-plane names and defaults', () => {
  it.skipIf(reference === undefined)('names the six messages of the reference table', () => {
    const names = referenceHandlerNames(reference ?? '');
    expect(names).toHaveLength(6);
    expect(CONTROL_MESSAGE_NAMES).toEqual(names);
  });

  it('fills the documented defaults for missing arguments', () => {
    for (const name of CONTROL_MESSAGE_NAMES) {
      const result = parseControlArgs(name, {});
      expect(result).toEqual({ ok: true, value: CONTROL_DEFAULTS[name] });
      expect(parseControlArgs(name, undefined)).toEqual(result);
      expect(parseControlArgs(name, null)).toEqual(result);
    }
    expect(CONTROL_DEFAULTS.update_system_prompt).toEqual({
      prompt: '',
      tools: '{}',
      add_suffix: true,
      tool_domain: 'default',
    });
    expect(CONTROL_DEFAULTS.apply_initialization).toEqual({
      domain: 'default',
      shared_state_init: '{}',
      actions: [],
    });
  });

  it('accepts the spec examples', () => {
    expect(
      parseControlArgs('update_system_prompt', {
        prompt: 'You are a support agent.',
        tools: '{"GetUserDetailsTool": {}}',
        add_suffix: false,
        tool_domain: 'tau2_airline',
      }).ok,
    ).toBe(true);
    const init = parseControlArgs('apply_initialization', {
      domain: 'tau2_telecom',
      shared_state_init: '{"db_path": "tau2_telecom/db.json"}',
      actions: [{ func_name: 'set_data_usage', arguments: { usage_gb: 15.1 } }],
    });
    expect(init.ok && init.value.actions[0]?.arguments).toEqual({ usage_gb: 15.1 });
    expect(
      parseControlArgs('apply_sync_delta', {
        domain: 'tau2_telecom',
        delta: { 'surroundings.line_active': true, 'bills[B1002].status': 'Paid' },
      }).ok,
    ).toBe(true);
  });

  it('ignores unknown keys', () => {
    expect(parseControlArgs('get_scenario_summary', { include_db: true, other: 1 })).toMatchObject({
      ok: true,
      value: { include_db: true },
    });
  });

  it.each([
    ['update_system_prompt', { tools: { GetUserDetailsTool: {} } }, 'tools', /JSON string/],
    [
      'apply_initialization',
      { shared_state_init: { db_path: 'x' } },
      'shared_state_init',
      /JSON string/,
    ],
    ['apply_initialization', { actions: 'none' }, 'actions', /list/],
    ['apply_initialization', { actions: [{ arguments: {} }] }, 'actions.0.func_name', /./],
    ['apply_sync_delta', { delta: [1] }, 'delta', /./],
    ['get_scenario_summary', { include_db: 'yes' }, 'include_db', /./],
    ['get_context_history', { format: 'xml' }, 'format', /./],
  ] as const)('%s refuses %j naming %s', (name, d, path, pattern) => {
    const result = parseControlArgs(name, d);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.path).toBe(path);
      expect(result.message).toMatch(pattern);
      expect(result.message.startsWith(`${name}: ${path}`)).toBe(true);
    }
  });

  it('refuses non-object arguments', () => {
    expect(parseControlArgs('reset', [1]).ok).toBe(false);
    expect(parseControlArgs('reset', 'x').ok).toBe(false);
  });
});

describe('push texts', () => {
  it('recognises exit markers and final responses', () => {
    expect(isExitText(EXIT_TEXT_END_CONVERSATION)).toBe(true);
    expect(isExitText('all done')).toBe(false);
    expect(parseFinalResponseText(finalResponseText({ a: [1] }))).toEqual({ a: [1] });
    expect(parseFinalResponseText('<final_response>{bad</final_response>')).toBeUndefined();
  });
});
