/**
 * A small test domain and data root for server tests.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainRegistry, ToolError } from '../src/index.js';
import type { Db, DomainModule, JsonObject } from '../src/index.js';

export const TEST_DB = {
  users: [
    { user_id: 'u1', name: 'Ada', balance: 10 },
    { user_id: 'u2', name: 'Bob', balance: 0 },
  ],
  settings: { currency: 'EUR' },
};

function users(db: Db): JsonObject[] {
  return db['users'] as JsonObject[];
}

export const testDomain: DomainModule = {
  name: 'test',
  tools: [
    {
      name: 'get_user',
      aliases: ['GetUserTool'],
      description: 'Look up a user.',
      kind: 'read',
      parameters: {
        type: 'object',
        properties: { user_id: { type: 'string' } },
        required: ['user_id'],
      },
      execute(args, { state }) {
        const user = users(state.db ?? {}).find((u) => u['user_id'] === args['user_id']);
        if (!user) throw new ToolError(`User ${String(args['user_id'])} not found`);
        return user;
      },
    },
    {
      name: 'add_credit',
      description: 'Add credit to a user.',
      kind: 'write',
      parameters: {
        type: 'object',
        properties: { user_id: { type: 'string' }, amount: { type: 'number', default: 1 } },
        required: ['user_id'],
      },
      execute(args, { state }) {
        const user = users(state.db ?? {}).find((u) => u['user_id'] === args['user_id']);
        if (!user) throw new ToolError(`User ${String(args['user_id'])} not found`);
        user['balance'] = (user['balance'] as number) + (args['amount'] as number);
        return { balance: user['balance'] };
      },
    },
    {
      name: 'end_conversation',
      description: 'End the conversation.',
      kind: 'control',
      exitReason: 'The task is finished.',
      parameters: { type: 'object', properties: {} },
      execute() {
        return 'ok';
      },
    },
  ],
  initializationFunctions: {
    set_balance(db, args) {
      const user = users(db).find((u) => u['user_id'] === args['user_id']);
      if (!user) throw new Error(`no user ${String(args['user_id'])}`);
      user['balance'] = args['balance'];
    },
    fail_always() {
      throw new TypeError('always fails');
    },
  },
  predicates: {
    balance_of(db, args) {
      return users(db).find((u) => u['user_id'] === args['user_id'])?.['balance'];
    },
  },
};

export function testRegistry(): DomainRegistry {
  return new DomainRegistry().register(testDomain);
}

/** A temporary data root holding `test/db.json` (and a big db on request). */
export function makeDataRoot(extra: Record<string, unknown> = {}): {
  root: string;
  cleanup: () => void;
} {
  const root = mkdtempSync(join(tmpdir(), 'scenaro-data-'));
  mkdirSync(join(root, 'test'));
  writeFileSync(join(root, 'test', 'db.json'), JSON.stringify(TEST_DB));
  for (const [name, value] of Object.entries(extra)) {
    writeFileSync(join(root, 'test', `${name}.json`), JSON.stringify(value));
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
