/**
 * The two telecom databases as parsed JSON: the agent-side CRM
 * (`tau2_telecom/db.json`) and the user's phone with its surroundings
 * (`tau2_telecom/user_db.json`). Dates are ISO strings.
 *
 * @module
 */

/** Line statuses. */
export const LineStatus = {
  ACTIVE: 'Active',
  SUSPENDED: 'Suspended',
  PENDING_ACTIVATION: 'Pending Activation',
  CLOSED: 'Closed',
} as const;

/** Bill statuses. */
export const BillStatus = {
  DRAFT: 'Draft',
  ISSUED: 'Issued',
  AWAITING_PAYMENT: 'Awaiting Payment',
  PAID: 'Paid',
  OVERDUE: 'Overdue',
  DISPUTED: 'Disputed',
} as const;

/** A mobile plan. */
export type Plan = {
  plan_id: string;
  name: string;
  data_limit_gb: number;
  price_per_month: number;
  data_refueling_price_per_gb: number;
};

/** A telecom customer. */
export type Customer = {
  customer_id: string;
  full_name: string;
  date_of_birth: string;
  email: string;
  phone_number: string;
  address: Record<string, string>;
  account_status: string;
  payment_methods: Record<string, string>[];
  line_ids: string[];
  bill_ids: string[];
  created_at: string;
  last_extension_date: string | null;
  goodwill_credit_used_this_year: number;
};

/** A phone line. */
export type Line = {
  line_id: string;
  phone_number: string;
  status: string;
  plan_id: string;
  device_id: string | null;
  data_used_gb: number;
  data_refueling_gb: number;
  roaming_enabled: boolean;
  contract_end_date: string | null;
  last_plan_change_date: string | null;
  last_sim_replacement_date: string | null;
  suspension_start_date: string | null;
};

/** One charge or credit of a bill. */
export type LineItem = { description: string; amount: number; date: string; item_type: string };

/** A bill. */
export type Bill = {
  bill_id: string;
  customer_id: string;
  period_start: string;
  period_end: string;
  issue_date: string;
  total_due: number;
  due_date: string;
  line_items: LineItem[];
  status: string;
};

/** A device record. */
export type Device = { device_id: string; [field: string]: unknown };

/** The agent-side telecom CRM. */
export type TelecomDb = {
  plans: Plan[];
  customers: Customer[];
  lines: Line[];
  bills: Bill[];
  devices: Device[];
};

/** SIM states. */
export const SimStatus = {
  ACTIVE: 'active',
  MISSING: 'missing',
  LOCKED_PIN: 'locked_pin',
  LOCKED_PUK: 'locked_puk',
} as const;

/** Cellular technologies. */
export const NetworkTechnology = {
  NONE: 'none',
  TWO_G: '2G',
  THREE_G: '3G',
  FOUR_G: '4G',
  FIVE_G: '5G',
} as const;

/** Network mode preferences, in tau2's order. */
export const NETWORK_MODE_PREFERENCES = [
  '4g_5g_preferred',
  '4g_only',
  '3g_only',
  '2g_only',
] as const;

/** Signal strengths. */
export const SignalStrength = {
  NONE: 'none',
  POOR: 'poor',
  FAIR: 'fair',
  GOOD: 'good',
  EXCELLENT: 'excellent',
} as const;

/** Connection states. */
export const NETWORK_STATUSES = ['connected', 'searching', 'no_service', 'emergency_only'] as const;

/** VPN performance levels. */
export const PerformanceLevel = {
  UNKNOWN: 'unknown',
  POOR: 'poor',
  FAIR: 'fair',
  GOOD: 'good',
  EXCELLENT: 'excellent',
} as const;

/** The phone's APN settings. */
export type ApnSettings = {
  apn_name: 'internet' | 'broken';
  reset_at_reboot: boolean;
  mms_apn: string | null;
  mmsc_url: string | null;
  mms_proxy: string | null;
  mms_port: number | null;
};

/** tau2's default `APNSettings()`. */
export function defaultApnSettings(): ApnSettings {
  return {
    apn_name: 'internet',
    reset_at_reboot: false,
    mms_apn: 'mms',
    mmsc_url: 'http://mms.carrier.com/mms/wapenc',
    mms_proxy: null,
    mms_port: null,
  };
}

/** Details of a VPN connection. */
export type VpnDetails = {
  server_address: string | null;
  protocol: string | null;
  server_performance: string;
};

/** tau2's `default_vpn_details` (a fresh copy each time). */
export function defaultVpnDetails(): VpnDetails {
  return {
    server_address: '192.168.1.1',
    protocol: 'OpenVPN',
    server_performance: PerformanceLevel.EXCELLENT,
  };
}

/** An installed app and its permissions. */
export type AppStatus = { app_name: string; permissions: Record<string, boolean> };

/** The simulated phone's settings and connection state. */
export type PhoneDevice = {
  sim_card_status: string;
  sim_card_missing: boolean;
  airplane_mode: boolean;
  network_signal_strength: string;
  network_technology_connected: string;
  network_connection_status: string;
  battery_level: number;
  data_enabled: boolean;
  roaming_enabled: boolean;
  network_mode_preference: string;
  active_apn_settings: ApnSettings;
  wifi_enabled: boolean;
  wifi_connected: boolean;
  wifi_ssid: string | null;
  wifi_signal_strength: string;
  wifi_calling_enabled: boolean;
  wifi_calling_mms_over_wifi: boolean;
  data_saver_mode: boolean;
  vpn_enabled_setting: boolean;
  vpn_connected: boolean;
  vpn_details: VpnDetails | null;
  app_statuses: Record<string, AppStatus>;
};

/** A payment request the agent sent to the phone. */
export type PaymentRequest = { bill_id: string; amount_due: number; paid: boolean };

/** The user's situation: identity, location, signal, line state, payment request. */
export type Surroundings = {
  name: string | null;
  phone_number: string | null;
  is_abroad: boolean;
  roaming_allowed: boolean;
  signal_strength: Record<string, string>;
  mobile_data_usage_exceeded: boolean;
  line_active: boolean;
  payment_request: PaymentRequest | null;
};

/** The user-side phone and surroundings. */
export type TelecomUserDb = { device: PhoneDevice; surroundings: Surroundings };
