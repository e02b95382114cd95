/**
 * Cross-side state sync of the telecom domain (dual control): the producer
 * that mirrors tau2's `TelecomEnvironment.sync_tools` / NeMo's
 * `sync_telecom_state`, and the `apply_sync_delta` applier.
 *
 * @module
 */
import { FORBIDDEN_KEYS, setAtPath } from '@scenaro/agent/scenario';
import type { Db, JsonObject, SyncApplyResult } from '@scenaro/agent/scenario';
import { setDictItem } from '@scenaro/agent/python';
import { errorMessage, isJsonObject } from '@scenaro/sdk/util';
import { dbAs } from '../../common/tool-kit.js';
import type { SyncDeltas } from '../../scenario.js';
import { findCustomerByPhone, findLineByPhone } from './crm.js';
import { BillStatus, LineStatus } from './db-types.js';
import type { PaymentRequest, TelecomDb, TelecomUserDb } from './db-types.js';
import { simulateNetworkSearch } from './device.js';

/**
 * Bring both sides in line after a write on either side, as tau2's
 * `sync_tools` does: the user's surroundings follow the line (active,
 * roaming allowed, data usage exceeded), a paid payment request marks its
 * bill paid, and the first bill awaiting payment becomes the user's payment
 * request.
 *
 * Like the reference `sync_telecom_state` it updates both dbs in place (so a
 * bridge can keep running it on shadow copies) and returns only the fields
 * that changed, as per-side deltas for `apply_sync_delta`: user paths
 * `surroundings.<field>`, agent paths `bills[<bill_id>].status`.
 */
export function syncTelecomState(agentDb: JsonObject, userDb: JsonObject): SyncDeltas {
  const deltas: SyncDeltas = { agent: {}, user: {} };
  const crm = dbAs<TelecomDb>(agentDb);
  const phone = dbAs<TelecomUserDb>(userDb);
  const surroundings = phone.surroundings;
  if (!isJsonObject(surroundings)) return deltas;
  const phoneNumber = surroundings.phone_number;
  if (phoneNumber === null || phoneNumber === undefined || !Array.isArray(crm.lines)) return deltas;
  const line = findLineByPhone(crm, phoneNumber);
  if (!line) return deltas;

  const setUser = <K extends keyof typeof surroundings>(
    key: K,
    value: (typeof surroundings)[K],
  ): void => {
    surroundings[key] = value;
    deltas.user[`surroundings.${key}`] = value;
  };

  const lineActive = line.status === LineStatus.ACTIVE;
  if (surroundings.line_active !== lineActive) setUser('line_active', lineActive);
  const roamingAllowed = Boolean(line.roaming_enabled);
  if (surroundings.roaming_allowed !== roamingAllowed) setUser('roaming_allowed', roamingAllowed);
  const plan = (crm.plans ?? []).find((p) => p.plan_id === line.plan_id);
  if (plan) {
    const exceeded = line.data_used_gb >= plan.data_limit_gb + line.data_refueling_gb;
    if (surroundings.mobile_data_usage_exceeded !== exceeded)
      setUser('mobile_data_usage_exceeded', exceeded);
  }

  let request = surroundings.payment_request;
  if (request && request.paid) {
    const bill = (crm.bills ?? []).find((b) => b.bill_id === request?.bill_id);
    if (bill && bill.status !== BillStatus.PAID) {
      bill.status = BillStatus.PAID;
      deltas.agent[`bills[${bill.bill_id}].status`] = BillStatus.PAID;
    }
    setUser('payment_request', null);
    request = null;
  }
  if (!request) {
    const customer = findCustomerByPhone(crm, phoneNumber);
    for (const billId of customer?.bill_ids ?? []) {
      const bill = (crm.bills ?? []).find((b) => b.bill_id === billId);
      if (bill && bill.status === BillStatus.AWAITING_PAYMENT) {
        const next: PaymentRequest = {
          bill_id: bill.bill_id,
          amount_due: bill.total_due,
          paid: false,
        };
        setUser('payment_request', next);
        break;
      }
    }
  }
  return deltas;
}

const BILL_PATH = /^bills\[([^\]]+)\]\.(.+)$/;
const SURROUNDINGS_PREFIX = 'surroundings.';

function forbidden(key: string): boolean {
  return key.split('.').some((part) => FORBIDDEN_KEYS.has(part));
}

/**
 * The `tau2_telecom` sync applier. Per path, first match wins:
 * `surroundings.<rest>` sets key `<rest>` (one key, dots included) of the
 * surroundings; `bills[<id>].<field>` sets `<field>` on the bill with that
 * `bill_id` (an unknown bill is reported as an error); anything else is a
 * plain dotted path. Segments `__proto__`, `constructor` and `prototype` are
 * refused. When any surroundings field was set, the phone's network search
 * is re-run.
 */
export function applyTelecomSyncDelta(db: Db, delta: JsonObject): SyncApplyResult {
  const applied: string[] = [];
  const errors: string[] = [];
  let surroundingsChanged = false;
  for (const path of Object.keys(delta)) {
    const value = delta[path];
    try {
      if (path.startsWith(SURROUNDINGS_PREFIX)) {
        const key = path.slice(SURROUNDINGS_PREFIX.length);
        if (key === '' || forbidden(key))
          throw new Error(`'${path}': forbidden or empty surroundings key`);
        let surroundings = Object.prototype.hasOwnProperty.call(db, 'surroundings')
          ? db['surroundings']
          : undefined;
        if (surroundings === undefined) {
          surroundings = {};
          setDictItem(db, 'surroundings', surroundings);
        }
        if (!isJsonObject(surroundings))
          throw new Error(`'${path}': 'surroundings' is not an object`);
        setDictItem(surroundings, key, structuredClone(value));
        surroundingsChanged = true;
      } else {
        const match = BILL_PATH.exec(path);
        if (match) {
          const billId = match[1] as string;
          const field = match[2] as string;
          if (forbidden(billId) || forbidden(field))
            throw new Error(`'${path}': forbidden path segment`);
          const bills = db['bills'];
          if (!Array.isArray(bills)) throw new Error(`'${path}': the db has no bills list`);
          const bill = bills.find(
            (b): b is JsonObject => isJsonObject(b) && b['bill_id'] === billId,
          );
          if (!bill) throw new Error(`'${path}': no bill with bill_id '${billId}'`);
          setDictItem(bill, field, structuredClone(value));
        } else {
          setAtPath(db, path, structuredClone(value));
        }
      }
      applied.push(path);
    } catch (err) {
      errors.push(errorMessage(err));
    }
  }
  if (surroundingsChanged && isJsonObject(db['device']) && isJsonObject(db['surroundings'])) {
    simulateNetworkSearch(dbAs<TelecomUserDb>(db));
  }
  return { applied, errors };
}
