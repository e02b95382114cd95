/**
 * The tools of the simulated telecom customer's phone (tau2's
 * `TelecomUserTools`). Read tools answer with tau2's texts; write tools
 * return the compact result the reference harness records. A write that
 * changes nothing in tau2 (a failed permission grant, Wi-Fi while in
 * airplane mode, no VPN to disconnect, no payment request) is refused with
 * tau2's message so that no action is recorded.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import type { JsonObject, ToolDefinition } from '@scenaro/agent/scenario';
import { pyFloatStr, pythonRepr } from '@scenaro/agent/python';
import {
  booleanParam,
  enumParam,
  integerParam,
  itemSchema,
  lookup,
  sessionDb,
  stringParam,
  toolParameters,
} from '../../common/tool-kit.js';
import { NETWORK_MODE_PREFERENCES, SimStatus, defaultApnSettings } from './db-types.js';
import type { ApnSettings, TelecomUserDb } from './db-types.js';
import {
  canSendMms,
  connectVpn,
  disconnectVpn,
  runSpeedTest,
  simStatus,
  simulateNetworkSearch,
  statusBar,
  toggleAirplaneMode,
  toggleData,
  toggleDataSaverMode,
  toggleRoaming,
  toggleWifiCalling,
} from './device.js';

type NoArgs = Record<string, never>;

function phone(context: Parameters<ToolDefinition['execute']>[1]): TelecomUserDb {
  return sessionDb<TelecomUserDb>(context);
}

/** A phone tool without arguments that runs `run` on the phone db. */
function phoneTool(
  kind: 'read' | 'write',
  name: string,
  description: string,
  run: (db: TelecomUserDb) => string | JsonObject,
): ToolDefinition<NoArgs> {
  return {
    name,
    kind,
    description,
    parameters: toolParameters({}),
    execute: (_a, c) => run(phone(c)),
  };
}

/** A read tool: it answers with tau2's text. */
const readTool = (name: string, description: string, run: (db: TelecomUserDb) => string) =>
  phoneTool('read', name, description, run);

/** A write tool: it returns the compact result the reference harness records. */
const writeTool = (name: string, description: string, run: (db: TelecomUserDb) => JsonObject) =>
  phoneTool('write', name, description, run);

const SIM_MESSAGES: Record<string, string> = {
  [SimStatus.ACTIVE]: 'Your SIM card is active and working.',
  [SimStatus.MISSING]: 'No SIM card detected in the phone.',
  [SimStatus.LOCKED_PIN]: 'The SIM card is locked with a PIN code.',
  [SimStatus.LOCKED_PUK]: 'The SIM card is locked with a PUK code.',
};

const SPEED_ADVICE: Record<string, string> = {
  'Very Poor': 'Connection is very slow. Basic web browsing might be difficult.',
  Poor: 'Connection is slow. Web browsing may be sluggish, streaming difficult.',
  Fair: 'Connection is okay for web browsing and some standard definition streaming.',
  Good: 'Connection is good for most activities, including HD streaming.',
  Excellent: 'Connection is very fast.',
};

function grantedPermissions(permissions: Record<string, boolean>): string[] {
  return Object.entries(permissions)
    .filter(([, granted]) => granted)
    .map(([name]) => name.replace(/_/g, ' ').toLowerCase());
}

const onOff = (on: boolean): string => (on ? 'ON' : 'OFF');
const yesNo = (on: boolean): string => (on ? 'Yes' : 'No');

const checkStatusBar = readTool(
  'check_status_bar',
  "Show the icons in the phone's status bar: signal strength, network type, mobile data (on, off, data saver), " +
    'Wi-Fi, VPN and battery.',
  (db) => `Status Bar: ${statusBar(db)}`,
);

const checkNetworkStatus = readTool(
  'check_network_status',
  "Show the phone's connection details: airplane mode, SIM, cellular connection, signal and network type, " +
    'mobile data, data roaming and Wi-Fi.',
  (db) => {
    const d = db.device;
    const lines = [
      `Airplane Mode: ${onOff(d.airplane_mode)}`,
      `SIM Card Status: ${simStatus(db)}`,
      `Cellular Connection: ${d.network_connection_status}`,
      `Cellular Signal: ${d.network_signal_strength}`,
      `Cellular Network Type: ${d.network_technology_connected}`,
      `Mobile Data Enabled: ${yesNo(d.data_enabled)}`,
      `Data Roaming Enabled: ${yesNo(d.roaming_enabled)}`,
      `Wi-Fi Radio: ${onOff(d.wifi_enabled)}`,
      `Wi-Fi Connected: ${yesNo(d.wifi_connected)}`,
    ];
    if (d.wifi_connected) lines.push(`Connected Wi-Fi Network: ${d.wifi_ssid ?? 'None'}`);
    return lines.join('\n');
  },
);

const checkNetworkModePreference = readTool(
  'check_network_mode_preference',
  'Show which cellular network type the phone prefers.',
  (db) => `Network Mode Preference: ${db.device.network_mode_preference}`,
);

const setNetworkModePreference: ToolDefinition<{ mode: string }> = {
  name: 'set_network_mode_preference',
  kind: 'write',
  description:
    'Choose which cellular network type the phone prefers. Faster types (4G/5G) give faster data but may use ' +
    'more battery.',
  parameters: toolParameters({
    mode: stringParam(
      `The preference: one of ${NETWORK_MODE_PREFERENCES.map((m) => `'${m}'`).join(', ')}.`,
    ),
  }),
  execute: ({ mode }, context) => {
    const db = phone(context);
    if (!(NETWORK_MODE_PREFERENCES as readonly string[]).includes(mode)) {
      throw new ToolError(
        `Failed to set network mode: '${mode}' is not a valid option. Please use one of: ` +
          `${NETWORK_MODE_PREFERENCES.join(', ')}\nStatus Bar: ${statusBar(db)}`,
      );
    }
    db.device.network_mode_preference = mode;
    simulateNetworkSearch(db);
    return { network_mode_preference: mode };
  },
};

const runSpeedTestTool = readTool(
  'run_speed_test',
  "Measure the phone's current download speed and say what it is good enough for.",
  (db) => {
    const [speed, description] = runSpeedTest(db);
    if (speed === null) return `Speed test failed: ${description || 'Could not determine speed'}.`;
    return `Speed Test Result: ${speed.toFixed(2)} Mbps (${description}). ${lookup(SPEED_ADVICE, description) ?? ''}`;
  },
);

const toggleAirplaneModeTool = writeTool(
  'toggle_airplane_mode',
  'Turn airplane mode on or off. While on, all radios (cellular, Wi-Fi, Bluetooth) are off.',
  (db) => ({ airplane_mode: toggleAirplaneMode(db) }),
);

const checkSimStatus = readTool(
  'check_sim_status',
  'Check whether the SIM card works: active, missing, or locked with a PIN or PUK code.',
  (db) => {
    const status = simStatus(db);
    return lookup(SIM_MESSAGES, status) ?? `Unknown SIM status: ${status}`;
  },
);

const reseatSimCard = writeTool(
  'reseat_sim_card',
  'Take the SIM card out and put it back in, which can fix a SIM that is not recognised.',
  (db) => {
    db.device.sim_card_missing = false;
    simulateNetworkSearch(db);
    return { sim_card_missing: false };
  },
);

const toggleDataTool = writeTool(
  'toggle_data',
  'Turn mobile data on or off (internet over the cellular network when there is no Wi-Fi).',
  (db) => ({ data_enabled: toggleData(db) }),
);

const toggleRoamingTool = writeTool(
  'toggle_roaming',
  "Turn data roaming on or off. With it on, the phone can use data on networks outside the carrier's coverage.",
  (db) => ({ roaming_enabled: toggleRoaming(db) }),
);

const checkDataRestrictionStatus = readTool(
  'check_data_restriction_status',
  'Check whether a data-limiting feature (Data Saver mode) is on.',
  (db) =>
    db.device.data_saver_mode
      ? 'Data Saver mode is ON (limits data usage).'
      : 'Data Saver mode is OFF.',
);

const toggleDataSaverModeTool = writeTool(
  'toggle_data_saver_mode',
  'Turn Data Saver mode on or off. While on it reduces data use, which can slow data down.',
  (db) => ({ data_saver_mode: toggleDataSaverMode(db) }),
);

const checkApnSettings = readTool(
  'check_apn_settings',
  "Show the phone's mobile data APN settings: the APN name and the MMSC URL used for picture messages.",
  (db) => {
    const apn = db.device.active_apn_settings;
    return (
      `Current APN Name: ${apn.apn_name || 'Not Set'}\n` +
      `MMSC URL (for picture messages): ${apn.mmsc_url || 'Not Set'}\n` +
      '(These are technical settings, usually best left unchanged.)'
    );
  },
);

type ApnArgs = { apn_settings: Partial<ApnSettings> };

const setApnSettings: ToolDefinition<ApnArgs> = {
  name: 'set_apn_settings',
  kind: 'write',
  description: "Replace the phone's APN settings; fields left out take their default values.",
  parameters: toolParameters({
    apn_settings: {
      ...itemSchema(
        {
          apn_name: enumParam(['internet', 'broken'], 'APN name.'),
          reset_at_reboot: booleanParam('Whether the APN settings reset at the next reboot.'),
          mms_apn: { type: ['string', 'null'], description: 'APN used for MMS.' },
          mmsc_url: { type: ['string', 'null'], description: 'MMSC URL, needed for MMS.' },
          mms_proxy: { type: ['string', 'null'], description: 'MMS proxy address.' },
          mms_port: { ...integerParam('MMS proxy port.'), type: ['integer', 'null'] },
        },
        [],
      ),
      additionalProperties: false,
      description: 'The new APN settings.',
    },
  }),
  execute: ({ apn_settings }, context) => {
    const db = phone(context);
    const settings: ApnSettings = { ...defaultApnSettings(), ...apn_settings };
    db.device.active_apn_settings = settings;
    simulateNetworkSearch(db);
    return structuredClone(settings);
  },
};

const resetApnSettings = writeTool(
  'reset_apn_settings',
  'Reset the APN settings to their defaults. The reset takes effect at the next reboot.',
  (db) => {
    db.device.active_apn_settings.reset_at_reboot = true;
    simulateNetworkSearch(db);
    return { reset_at_reboot: true };
  },
);

const checkWifiStatus = readTool(
  'check_wifi_status',
  'Check Wi-Fi: whether it is on, which network it is connected to and the signal strength.',
  (db) => {
    const d = db.device;
    if (!d.wifi_enabled) return 'Wi-Fi is turned OFF.';
    if (d.wifi_connected) {
      return `Wi-Fi is ON and connected to '${d.wifi_ssid ?? 'None'}'. Signal strength: ${d.wifi_signal_strength}.`;
    }
    return 'Wi-Fi is ON but not connected to any network.';
  },
);

const toggleWifi = writeTool('toggle_wifi', 'Turn the Wi-Fi radio on or off.', (db) => {
  const d = db.device;
  if (d.airplane_mode) {
    throw new ToolError(
      `Cannot change Wi-Fi settings while Airplane Mode is ON.\nStatus Bar: ${statusBar(db)}`,
    );
  }
  d.wifi_enabled = !d.wifi_enabled;
  if (!d.wifi_enabled) {
    d.wifi_connected = false;
    d.wifi_ssid = null;
    d.wifi_signal_strength = 'none';
  }
  return { wifi_enabled: d.wifi_enabled };
});

const checkWifiCallingStatus = readTool(
  'check_wifi_calling_status',
  'Check whether Wi-Fi Calling (calls over Wi-Fi instead of the cellular network) is on.',
  (db) => `Wi-Fi Calling is currently turned ${onOff(db.device.wifi_calling_enabled)}.`,
);

const toggleWifiCallingTool = writeTool(
  'toggle_wifi_calling',
  'Turn Wi-Fi Calling on or off. It lets the phone make and receive calls over Wi-Fi where cellular signal is weak.',
  (db) => ({ wifi_calling_enabled: toggleWifiCalling(db) }),
);

const checkVpnStatus = readTool(
  'check_vpn_status',
  'Check whether a VPN is on and connected, with its connection details.',
  (db) => {
    const d = db.device;
    if (d.vpn_connected) {
      return d.vpn_details
        ? `VPN is ON and connected. Details: ${pythonRepr(d.vpn_details)}`
        : 'VPN is ON and connected (no specific details available).';
    }
    if (d.vpn_enabled_setting) return 'VPN is turned ON in settings, but currently not connected.';
    return 'VPN is turned OFF.';
  },
);

const connectVpnTool = writeTool('connect_vpn', 'Connect to the VPN.', (db) => {
  if (!connectVpn(db)) throw new ToolError('VPN already connected.');
  return { vpn_connected: true };
});

const disconnectVpnTool = writeTool(
  'disconnect_vpn',
  'Disconnect the active VPN connection, so traffic no longer goes through a VPN server.',
  (db) => {
    if (!disconnectVpn(db))
      throw new ToolError(`No active VPN connection to disconnect.\nStatus Bar: ${statusBar(db)}`);
    return { vpn_connected: false };
  },
);

const checkInstalledApps = readTool(
  'check_installed_apps',
  'List the apps installed on the phone.',
  (db) => {
    return `The following apps are installed on the phone: ${Object.keys(db.device.app_statuses).join(', ')}`;
  },
);

const appNameParam = stringParam("The app's name, for example 'messaging'.");

const checkAppStatus: ToolDefinition<{ app_name: string }> = {
  name: 'check_app_status',
  kind: 'read',
  description: 'Show the status of one app, including the permissions it has.',
  parameters: toolParameters({ app_name: appNameParam }),
  execute: ({ app_name }, context) => {
    const app = lookup(phone(context).device.app_statuses, app_name);
    if (!app) return `App '${app_name}' not found on this phone.`;
    const granted = grantedPermissions(app.permissions);
    const lines = [`Status for App: ${app_name}`];
    if (granted.length === 0) lines.push(' - Permissions: None granted.');
    else lines.push(' - Permissions Granted:', ...granted.map((p) => `   - ${p}`));
    return lines.join('\n');
  },
};

const checkAppPermissions: ToolDefinition<{ app_name: string }> = {
  name: 'check_app_permissions',
  kind: 'read',
  description: 'List the permissions (storage, SMS, phone, network, ...) an app has.',
  parameters: toolParameters({ app_name: appNameParam }),
  execute: ({ app_name }, context) => {
    const app = lookup(phone(context).device.app_statuses, app_name);
    if (!app) return `App '${app_name}' not found on this phone.`;
    const granted = grantedPermissions(app.permissions);
    if (granted.length === 0) return `App '${app_name}' currently has no permissions granted.`;
    return `App '${app_name}' has permission for: ${granted.join(', ')}.`;
  },
};

const grantAppPermission: ToolDefinition<{ app_name: string; permission: string }> = {
  name: 'grant_app_permission',
  kind: 'write',
  description:
    'Give an app a permission (for example storage or sms) that some of its features need.',
  parameters: toolParameters({
    app_name: appNameParam,
    permission: stringParam("The permission, in lowercase, for example 'storage' or 'sms'."),
  }),
  execute: ({ app_name, permission }, context) => {
    const db = phone(context);
    const app = lookup(db.device.app_statuses, app_name);
    const key = permission.toLowerCase();
    if (!app) {
      throw new ToolError(
        `Error. App '${app_name}' not found. Cannot grant permission.\nStatus Bar: ${statusBar(db)}`,
      );
    }
    if (!Object.prototype.hasOwnProperty.call(app.permissions, key)) {
      throw new ToolError(
        `Error. Permission '${key}' not tracked for app '${app_name}', available permissions: ` +
          `${pythonRepr(Object.keys(app.permissions))}\nStatus Bar: ${statusBar(db)}`,
      );
    }
    app.permissions[key] = true;
    return { granted: true };
  },
};

const canSendMmsTool = readTool(
  'can_send_mms',
  'Check whether the messaging app can send MMS (picture) messages.',
  (db) =>
    canSendMms(db)
      ? 'Your messaging app can send MMS messages.'
      : 'Your messaging app cannot send MMS messages.',
);

const rebootDevice = writeTool(
  'reboot_device',
  'Restart the phone, which refreshes all services and connections and can fix temporary glitches.',
  (db) => {
    if (db.device.active_apn_settings.reset_at_reboot)
      db.device.active_apn_settings = defaultApnSettings();
    db.device.network_connection_status = 'searching';
    simulateNetworkSearch(db);
    return { rebooted: true };
  },
);

const checkPaymentRequest = readTool(
  'check_payment_request',
  'Check whether the agent has sent a payment request.',
  (db) => {
    const request = db.surroundings.payment_request;
    if (!request) return 'No payment request has been made.';
    return `You have a payment request for bill ${request.bill_id} of ${pyFloatStr(request.amount_due)} USD.`;
  },
);

const makePayment = writeTool(
  'make_payment',
  'Pay the bill of the payment request the agent sent.',
  (db) => {
    const request = db.surroundings.payment_request;
    if (!request) throw new ToolError('You do not have a payment request.');
    request.paid = true;
    return { bill_id: request.bill_id, amount: request.amount_due };
  },
);

/** Every tool of the simulated telecom customer's phone (tau2's thirty user tools). */
export const telecomUserTools: readonly ToolDefinition[] = [
  checkStatusBar,
  checkNetworkStatus,
  checkNetworkModePreference,
  setNetworkModePreference,
  runSpeedTestTool,
  toggleAirplaneModeTool,
  checkSimStatus,
  reseatSimCard,
  toggleDataTool,
  toggleRoamingTool,
  checkDataRestrictionStatus,
  toggleDataSaverModeTool,
  checkApnSettings,
  setApnSettings,
  resetApnSettings,
  checkWifiStatus,
  toggleWifi,
  checkWifiCallingStatus,
  toggleWifiCallingTool,
  checkVpnStatus,
  connectVpnTool,
  disconnectVpnTool,
  checkInstalledApps,
  checkAppStatus,
  checkAppPermissions,
  grantAppPermission,
  canSendMmsTool,
  rebootDevice,
  checkPaymentRequest,
  makePayment,
];
