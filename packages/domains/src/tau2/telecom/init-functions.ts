/**
 * Telecom initialization functions (`apply_initialization` actions): the
 * user-side ones break or set up the phone, the agent-side ones prepare the
 * CRM. Names and arguments are those of tau2's task files.
 *
 * @module
 */
import type { InitializationFunction, JsonObject } from '@scenaro/agent/scenario';
import { dbAs } from '../../common/tool-kit.js';
import type { TelecomClock } from './clock.js';
import { getTargetLine, suspendLineForOverdueBill } from './crm.js';
import { NETWORK_MODE_PREFERENCES, PerformanceLevel, SimStatus } from './db-types.js';
import type { Line, TelecomDb, TelecomUserDb } from './db-types.js';
import * as phone from './device.js';

function argString(args: JsonObject, name: string): string {
  const value = args[name];
  if (typeof value !== 'string') throw new TypeError(`argument '${name}' must be a string`);
  return value;
}

function argBoolean(args: JsonObject, name: string, fallback?: boolean): boolean {
  const value = args[name];
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'boolean') throw new TypeError(`argument '${name}' must be a boolean`);
  return value;
}

function argNumber(args: JsonObject, name: string): number {
  const value = args[name];
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new TypeError(`argument '${name}' must be a number`);
  return value;
}

function userInit(fn: (db: TelecomUserDb, args: JsonObject) => void): InitializationFunction {
  return (db, args) => fn(dbAs<TelecomUserDb>(db), args);
}

function agentInit(fn: (db: TelecomDb, args: JsonObject) => void): InitializationFunction {
  return (db, args) => fn(dbAs<TelecomDb>(db), args);
}

/** Flip a phone setting with its `toggle` (which returns the new state) until it is `on`. */
function turn(db: TelecomUserDb, toggle: (db: TelecomUserDb) => boolean, on: boolean): void {
  if (toggle(db) !== on) toggle(db);
}

/** The customer's line that the `customer_id` and `line_id` arguments name. */
function targetLine(db: TelecomDb, args: JsonObject): Line {
  return getTargetLine(db, argString(args, 'customer_id'), argString(args, 'line_id'));
}

/** User-side initialization functions (they act on the phone db). */
export const telecomUserInitializationFunctions: Readonly<Record<string, InitializationFunction>> =
  {
    set_user_info: userInit((db, args) => {
      db.surroundings.name = argString(args, 'name');
      db.surroundings.phone_number = argString(args, 'phone_number');
    }),
    set_user_location: userInit((db, args) => {
      db.surroundings.is_abroad = argBoolean(args, 'abroad');
    }),
    set_network_mode_preference: userInit((db, args) => {
      const mode = argString(args, 'mode');
      if (!(NETWORK_MODE_PREFERENCES as readonly string[]).includes(mode)) {
        throw new RangeError(`'${mode}' is not a valid NetworkModePreference`);
      }
      db.device.network_mode_preference = mode;
      phone.simulateNetworkSearch(db);
    }),
    simulate_network_search: userInit((db) => phone.simulateNetworkSearch(db)),
    turn_airplane_mode_on: userInit((db) => turn(db, phone.toggleAirplaneMode, true)),
    unseat_sim_card: userInit((db) => {
      db.device.sim_card_missing = true;
      phone.simulateNetworkSearch(db);
    }),
    lock_sim_card: userInit((db, args) => {
      const mode = argString(args, 'mode');
      if (mode !== 'pin' && mode !== 'puk')
        throw new RangeError(`lock_sim_card: mode must be 'pin' or 'puk', got '${mode}'`);
      db.device.sim_card_status = mode === 'pin' ? SimStatus.LOCKED_PIN : SimStatus.LOCKED_PUK;
      phone.simulateNetworkSearch(db);
    }),
    turn_data_off: userInit((db) => turn(db, phone.toggleData, false)),
    turn_roaming_on: userInit((db) => turn(db, phone.toggleRoaming, true)),
    turn_roaming_off: userInit((db) => turn(db, phone.toggleRoaming, false)),
    turn_data_saver_mode_on: userInit((db) => turn(db, phone.toggleDataSaverMode, true)),
    break_apn_settings: userInit((db) => {
      db.device.active_apn_settings.apn_name = 'broken';
      phone.simulateNetworkSearch(db);
    }),
    break_apn_mms_setting: userInit((db) => {
      db.device.active_apn_settings.mmsc_url = null;
    }),
    set_wifi_calling: userInit((db, args) => {
      const enabled = argBoolean(args, 'enabled');
      if (db.device.wifi_calling_enabled !== enabled) phone.toggleWifiCalling(db);
      const mms = args['mms_over_wifi'];
      if (mms !== undefined && mms !== null)
        db.device.wifi_calling_mms_over_wifi = argBoolean(args, 'mms_over_wifi');
    }),
    break_vpn: userInit((db) => {
      phone.connectVpn(db);
      if (db.device.vpn_details) db.device.vpn_details.server_performance = PerformanceLevel.POOR;
    }),
    remove_app_permission: userInit((db, args) => {
      const app = Object.prototype.hasOwnProperty.call(
        db.device.app_statuses,
        argString(args, 'app_name'),
      )
        ? db.device.app_statuses[argString(args, 'app_name')]
        : undefined;
      const permission = argString(args, 'permission').toLowerCase();
      if (app && Object.prototype.hasOwnProperty.call(app.permissions, permission))
        app.permissions[permission] = false;
    }),
  };

/** Agent-side initialization functions (they act on the CRM db), running on `clock`. */
export function createTelecomAgentInitializationFunctions(
  clock: TelecomClock,
): Readonly<Record<string, InitializationFunction>> {
  return {
    enable_roaming: agentInit((db, args) => {
      targetLine(db, args).roaming_enabled = true;
    }),
    disable_roaming: agentInit((db, args) => {
      targetLine(db, args).roaming_enabled = false;
    }),
    set_data_usage: agentInit((db, args) => {
      const line = targetLine(db, args);
      line.data_used_gb = argNumber(args, 'data_used_gb');
    }),
    suspend_line_for_overdue_bill: agentInit((db, args) => {
      suspendLineForOverdueBill(
        db,
        clock,
        argString(args, 'customer_id'),
        argString(args, 'line_id'),
        argString(args, 'new_bill_id'),
        argBoolean(args, 'contract_ended', false),
      );
    }),
  };
}
