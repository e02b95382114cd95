/**
 * The simulated phone of tau2's `TelecomUserTools`: network search, status
 * bar, mobile-data and MMS checks, speed test and the device state changes
 * shared by user tools and initialization functions.
 *
 * @module
 */
import { pyRound } from '@scenaro/agent/python';
import { lookup } from '../../common/tool-kit.js';
import {
  NetworkTechnology,
  PerformanceLevel,
  SignalStrength,
  SimStatus,
  defaultVpnDetails,
} from './db-types.js';
import type { TelecomUserDb } from './db-types.js';

/** `_check_sim_status`: `missing` when unseated, else the SIM's own status. */
export function simStatus(db: TelecomUserDb): string {
  return db.device.sim_card_missing ? SimStatus.MISSING : db.device.sim_card_status;
}

function noService(db: TelecomUserDb): void {
  db.device.network_connection_status = 'no_service';
  db.device.network_technology_connected = NetworkTechnology.NONE;
  db.device.network_signal_strength = SignalStrength.NONE;
}

function signalFor(db: TelecomUserDb, technology: string): string {
  return lookup(db.surroundings.signal_strength, technology) ?? SignalStrength.NONE;
}

/**
 * `simulate_network_search`: re-derive connection status, technology and
 * signal from the SIM, the mode preference, airplane mode, the APN and
 * whether the line is active.
 */
export function simulateNetworkSearch(db: TelecomUserDb): void {
  const device = db.device;
  if (simStatus(db) === SimStatus.ACTIVE) {
    device.network_connection_status = 'connected';
    const preference = device.network_mode_preference;
    let technology: string = NetworkTechnology.FOUR_G;
    if (preference === '4g_5g_preferred') {
      technology =
        signalFor(db, NetworkTechnology.FIVE_G) === SignalStrength.NONE
          ? NetworkTechnology.FOUR_G
          : NetworkTechnology.FIVE_G;
    } else if (preference === '3g_only') {
      technology = NetworkTechnology.THREE_G;
    } else if (preference === '2g_only') {
      technology = NetworkTechnology.TWO_G;
    }
    device.network_technology_connected = technology;
    device.network_signal_strength = signalFor(db, technology);
  } else {
    noService(db);
  }
  if (device.airplane_mode) noService(db);
  if (device.active_apn_settings.apn_name === 'broken') noService(db);
  if (!db.surroundings.line_active) noService(db);
}

const SIGNAL_ICONS: Record<string, string> = {
  none: '📵 No Signal',
  poor: '📶¹ Poor',
  fair: '📶² Fair',
  good: '📶³ Good',
  excellent: '📶⁴ Excellent',
};

/** `_check_status_bar`: the icons shown at the top of the screen. */
export function statusBar(db: TelecomUserDb): string {
  const device = db.device;
  const indicators: string[] = [];
  if (device.airplane_mode) {
    indicators.push('✈️ Airplane Mode');
  } else {
    indicators.push(lookup(SIGNAL_ICONS, device.network_signal_strength) ?? '📵 No Signal');
    const technology = device.network_technology_connected;
    if (technology !== NetworkTechnology.NONE) indicators.push(technology);
    if (device.data_enabled && technology !== NetworkTechnology.NONE) {
      indicators.push('📱 Data Enabled');
      if (device.data_saver_mode) indicators.push('🔽 Data Saver');
    } else {
      indicators.push('📵 Data Disabled');
    }
  }
  if (device.wifi_enabled && device.wifi_connected) {
    indicators.push(device.wifi_ssid ? `📡 Connected to ${device.wifi_ssid}` : '📡 Enabled');
  }
  if (device.vpn_connected) indicators.push('🔒 VPN Connected');
  indicators.push(`🔋 ${device.battery_level}%`);
  return indicators.join(' | ');
}

/** `_get_mobile_data_working`. */
export function mobileDataWorking(db: TelecomUserDb): boolean {
  const { device, surroundings } = db;
  if (device.airplane_mode || device.network_signal_strength === SignalStrength.NONE) return false;
  if (device.network_connection_status === 'no_service') return false;
  if (surroundings.is_abroad && (!device.roaming_enabled || !surroundings.roaming_allowed))
    return false;
  if (!device.data_enabled) return false;
  if (surroundings.mobile_data_usage_exceeded) return false;
  return true;
}

const TECH_SPEED: Record<string, [number, number]> = {
  '2G': [0.1, 0.4],
  '3G': [1.0, 5.0],
  '4G': [10.0, 100.0],
  '5G': [50.0, 500.0],
  none: [0.0, 0.0],
};

const SIGNAL_FACTOR: Record<string, number> = {
  poor: 0.2,
  fair: 0.5,
  good: 0.8,
  excellent: 1.0,
  none: 0.0,
};

/** `_run_speed_test`: `[speed in Mbps, description]`, or `[null, 'No Connection']`. */
export function runSpeedTest(db: TelecomUserDb): [number | null, string] {
  if (!mobileDataWorking(db)) return [null, 'No Connection'];
  const device = db.device;
  let factor =
    device.vpn_connected &&
    device.vpn_details &&
    device.vpn_details.server_performance === PerformanceLevel.POOR
      ? 0.1
      : 1.0;
  if (device.data_saver_mode) factor *= 0.2;
  const [min, max] = lookup(TECH_SPEED, device.network_technology_connected) ?? [0.0, 0.0];
  const signal = lookup(SIGNAL_FACTOR, device.network_signal_strength) ?? 0.0;
  const speed = pyRound(((min + max) / 2.0) * signal * factor, 2);
  let description: string;
  if (speed < 1) description = 'Very Poor';
  else if (speed < 5) description = 'Poor';
  else if (speed < 25) description = 'Fair';
  else if (speed < 100) description = 'Good';
  else description = 'Excellent';
  return [speed, description];
}

/** `_can_send_mms`. */
export function canSendMms(db: TelecomUserDb): boolean {
  const device = db.device;
  if (!mobileDataWorking(db)) return false;
  if (device.network_technology_connected === NetworkTechnology.TWO_G) return false;
  if (device.wifi_calling_enabled && device.wifi_calling_mms_over_wifi) return false;
  if (
    device.active_apn_settings.mmsc_url === null ||
    device.active_apn_settings.mmsc_url === undefined
  )
    return false;
  const messaging = lookup(device.app_statuses, 'messaging');
  if (!messaging) return false;
  return Boolean(messaging.permissions['storage']) && Boolean(messaging.permissions['sms']);
}

/** `_toggle_airplane_mode`; returns the new state. */
export function toggleAirplaneMode(db: TelecomUserDb): boolean {
  const device = db.device;
  const wasOn = device.airplane_mode;
  device.airplane_mode = !wasOn;
  if (wasOn) {
    device.network_connection_status = 'searching';
    if (device.wifi_enabled) clearWifiConnection(db);
  } else {
    clearWifiConnection(db);
    disconnectVpn(db);
  }
  simulateNetworkSearch(db);
  return device.airplane_mode;
}

function clearWifiConnection(db: TelecomUserDb): void {
  db.device.wifi_connected = false;
  db.device.wifi_ssid = null;
  db.device.wifi_signal_strength = SignalStrength.NONE;
}

/** `_toggle_data`; returns the new state. */
export function toggleData(db: TelecomUserDb): boolean {
  db.device.data_enabled = !db.device.data_enabled;
  simulateNetworkSearch(db);
  return db.device.data_enabled;
}

/** `_toggle_roaming`; returns the new state. */
export function toggleRoaming(db: TelecomUserDb): boolean {
  db.device.roaming_enabled = !db.device.roaming_enabled;
  simulateNetworkSearch(db);
  return db.device.roaming_enabled;
}

/** `_toggle_data_saver_mode`; returns the new state. */
export function toggleDataSaverMode(db: TelecomUserDb): boolean {
  db.device.data_saver_mode = !db.device.data_saver_mode;
  return db.device.data_saver_mode;
}

/** `_toggle_wifi_calling`; returns the new state. */
export function toggleWifiCalling(db: TelecomUserDb): boolean {
  db.device.wifi_calling_enabled = !db.device.wifi_calling_enabled;
  return db.device.wifi_calling_enabled;
}

/** `_connect_vpn`: connects with the default details; false when already connected. */
export function connectVpn(db: TelecomUserDb): boolean {
  if (db.device.vpn_connected) return false;
  db.device.vpn_connected = true;
  db.device.vpn_details = defaultVpnDetails();
  return true;
}

/** `_disconnect_vpn`; false when no VPN was connected. */
export function disconnectVpn(db: TelecomUserDb): boolean {
  if (!db.device.vpn_connected) return false;
  db.device.vpn_connected = false;
  db.device.vpn_details = null;
  return true;
}
