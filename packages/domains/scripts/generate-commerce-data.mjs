#!/usr/bin/env node
/**
 * Generates `packages/domains/data/commerce/db.json`, the catalogue, shoppers and orders of the
 * commerce domain. Deterministic: a fixed seed drives a small PRNG, so running it twice gives
 * byte-identical output (the shipped scenarios pin db hashes computed from this file).
 *
 *   node packages/domains/scripts/generate-commerce-data.mjs [--seed N] [--out path] [--check]
 *
 * `--check` regenerates in memory and exits 1 when the file on disk differs.
 * The output is formatted with the repository's prettier settings so `prettier --check` passes.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const DEFAULT_SEED = 20250602;
const PRODUCTS_PER_CATEGORY = 30;
/** Sales tax in basis points; must equal `TAX_RATE_BASIS_POINTS` in src/commerce/model/money.ts. */
const TAX_RATE_BASIS_POINTS = 825;
const CURRENT_TIME = '2025-06-02T15:00:00Z';

// ---------------------------------------------------------------------------------------------
// PRNG (mulberry32) and helpers
// ---------------------------------------------------------------------------------------------

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeRandom(seed) {
  const next = mulberry32(seed);
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const chance = (p) => next() < p;
  const sample = (list, k) => {
    const copy = [...list];
    const out = [];
    while (out.length < k && copy.length > 0) out.push(copy.splice(int(0, copy.length - 1), 1)[0]);
    return out;
  };
  return { next, int, pick, chance, sample };
}

const money = (cents) => cents / 100;
const taxOf = (subtotalCents) => Math.floor((subtotalCents * TAX_RATE_BASIS_POINTS + 5000) / 10000);

// ---------------------------------------------------------------------------------------------
// Catalogue definitions
// ---------------------------------------------------------------------------------------------

const COLOR_CODES = {
  black: 'BLK',
  white: 'WHT',
  navy: 'NVY',
  silver: 'SLV',
  'space gray': 'SGR',
  sage: 'SAG',
  red: 'RED',
  blue: 'BLU',
  green: 'GRN',
  graphite: 'GPH',
  sand: 'SND',
  charcoal: 'CHR',
  olive: 'OLV',
  burgundy: 'BRG',
  gray: 'GRY',
  pink: 'PNK',
  orange: 'ORG',
  cream: 'CRM',
  teal: 'TEL',
  brown: 'BRN',
  yellow: 'YEL',
  purple: 'PRP',
};

/**
 * Each category: a SKU prefix, brands, series names and product types. A type gives a name label,
 * search tags, a price range in dollars, a spec generator, a variant scheme and a description.
 */
const CATEGORIES = [
  {
    key: 'audio',
    code: 'AUD',
    brands: ['Auralis', 'Sonique', 'Kestrel Audio', 'Veltro', 'Northwave'],
    series: ['Pulse', 'Aria', 'Nova', 'Echo', 'Drift', 'Halo', 'Tempo'],
    types: [
      {
        label: 'Wireless Noise-Cancelling Headphones',
        tags: ['headphones', 'wireless', 'bluetooth', 'noise cancelling', 'over-ear'],
        price: [89, 399],
        variants: { kind: 'color', colors: ['black', 'white', 'navy', 'sage', 'silver'] },
        specs: (r) => ({
          battery_life_hours: r.pick([20, 24, 30, 35, 40, 50]),
          noise_cancelling: true,
          weight_g: r.int(220, 320),
          bluetooth: r.pick(['5.2', '5.3', '5.4']),
        }),
        desc: (s) =>
          `Over-ear wireless headphones with active noise cancelling and up to ${s.battery_life_hours} hours of battery life.`,
      },
      {
        label: 'True Wireless Earbuds',
        tags: ['earbuds', 'wireless', 'bluetooth', 'in-ear'],
        price: [39, 249],
        variants: { kind: 'color', colors: ['black', 'white', 'navy', 'pink', 'graphite'] },
        specs: (r) => ({
          battery_life_hours: r.pick([5, 6, 7, 8, 10]),
          case_battery_hours: r.pick([18, 24, 28, 32, 36]),
          noise_cancelling: r.chance(0.6),
          water_resistance: r.pick(['IPX4', 'IPX5', 'IP55']),
        }),
        desc: (s) =>
          `Compact in-ear earbuds with ${s.battery_life_hours} hours of playback (${s.case_battery_hours} with the case)${s.noise_cancelling ? ' and active noise cancelling' : ''}.`,
      },
      {
        label: 'Sport Earbuds',
        tags: ['earbuds', 'wireless', 'running', 'sport', 'sweatproof', 'in-ear'],
        price: [49, 179],
        variants: { kind: 'color', colors: ['black', 'orange', 'teal', 'red'] },
        specs: (r) => ({
          battery_life_hours: r.pick([8, 9, 10, 12]),
          water_resistance: r.pick(['IPX5', 'IPX7', 'IP57']),
          ear_hooks: r.chance(0.5),
        }),
        desc: (s) =>
          `Secure-fit earbuds for running and the gym, ${s.water_resistance} sweat and water resistant, ${s.battery_life_hours} hours per charge.`,
      },
      {
        label: 'Portable Bluetooth Speaker',
        tags: ['speaker', 'bluetooth', 'portable', 'waterproof', 'outdoor'],
        price: [29, 199],
        variants: { kind: 'color', colors: ['black', 'blue', 'red', 'sand', 'teal'] },
        specs: (r) => ({
          battery_life_hours: r.pick([10, 12, 15, 20, 24]),
          water_resistance: r.pick(['IPX6', 'IP67']),
          output_w: r.pick([10, 16, 20, 30, 40]),
        }),
        desc: (s) =>
          `Rugged ${s.water_resistance} speaker with ${s.output_w} W of sound and ${s.battery_life_hours} hours of battery for the beach or the backyard.`,
      },
      {
        label: 'Soundbar',
        tags: ['soundbar', 'tv', 'home theater', 'speaker', 'dolby atmos'],
        price: [149, 899],
        variants: { kind: 'none' },
        specs: (r) => ({
          channels: r.pick(['2.1', '3.1', '5.1', '5.1.2', '7.1.4']),
          output_w: r.pick([120, 200, 300, 400, 600]),
          dolby_atmos: r.chance(0.5),
          wireless_subwoofer: r.chance(0.6),
        }),
        desc: (s) =>
          `${s.channels}-channel TV soundbar, ${s.output_w} W${s.dolby_atmos ? ' with Dolby Atmos' : ''}${s.wireless_subwoofer ? ' and a wireless subwoofer' : ''}.`,
      },
      {
        label: 'Studio Monitor Headphones',
        tags: ['headphones', 'wired', 'studio', 'over-ear', 'mixing'],
        price: [69, 349],
        variants: { kind: 'none' },
        specs: (r) => ({
          impedance_ohm: r.pick([32, 38, 80, 250]),
          cable: r.pick(['detachable coiled', 'detachable straight', 'fixed']),
          weight_g: r.int(240, 360),
        }),
        desc: (s) =>
          `Closed-back wired headphones with a flat response for mixing and recording; ${s.impedance_ohm} ohm, ${s.cable} cable.`,
      },
    ],
  },
  {
    key: 'laptops',
    code: 'LAP',
    brands: ['Lumen', 'Corvex', 'Aspira', 'Stratos', 'Polaris'],
    series: ['Air', 'Pro', 'Flex', 'Book', 'Edge', 'Zen', 'Vector'],
    types: [
      {
        label: '13-inch Ultrabook',
        tags: ['laptop', 'ultrabook', 'lightweight', 'notebook', 'travel'],
        price: [699, 1499],
        variants: { kind: 'storage', options: ['256GB', '512GB', '1TB'], step: [100, 150] },
        specs: (r) => ({
          screen_in: 13.3,
          cpu: r.pick(['Core Ultra 5', 'Core Ultra 7', 'Ryzen 5', 'Ryzen 7', 'Snapdragon X Plus']),
          ram_gb: r.pick([8, 16, 16, 32]),
          weight_kg: r.pick([1.05, 1.12, 1.19, 1.24, 1.29]),
          battery_life_hours: r.pick([12, 14, 16, 18, 20]),
        }),
        desc: (s) =>
          `A ${s.weight_kg} kg 13.3-inch laptop with ${s.cpu}, ${s.ram_gb} GB of memory and up to ${s.battery_life_hours} hours on battery.`,
      },
      {
        label: '14-inch Laptop',
        tags: ['laptop', 'notebook', 'work', 'student'],
        price: [549, 1299],
        variants: { kind: 'storage', options: ['512GB', '1TB'], step: [120, 120] },
        specs: (r) => ({
          screen_in: 14,
          cpu: r.pick(['Core i5', 'Core i7', 'Core Ultra 5', 'Ryzen 5', 'Ryzen 7']),
          ram_gb: r.pick([8, 16, 16, 32]),
          weight_kg: r.pick([1.35, 1.42, 1.48, 1.55]),
          battery_life_hours: r.pick([9, 10, 12, 14]),
        }),
        desc: (s) =>
          `Everyday 14-inch laptop with ${s.cpu} and ${s.ram_gb} GB of memory, good for work and school.`,
      },
      {
        label: 'Gaming Laptop',
        tags: ['laptop', 'gaming', 'rtx', 'high refresh'],
        price: [999, 2799],
        variants: { kind: 'storage', options: ['1TB', '2TB'], step: [180, 180] },
        specs: (r) => ({
          screen_in: r.pick([15.6, 16, 17.3]),
          cpu: r.pick(['Core i7', 'Core i9', 'Ryzen 7', 'Ryzen 9']),
          gpu: r.pick(['RTX 4060', 'RTX 4070', 'RTX 4080', 'RTX 4090']),
          ram_gb: r.pick([16, 32, 32, 64]),
          refresh_hz: r.pick([144, 165, 240]),
        }),
        desc: (s) =>
          `${s.screen_in}-inch ${s.refresh_hz} Hz gaming laptop with ${s.gpu} graphics and ${s.ram_gb} GB of memory.`,
      },
      {
        label: '2-in-1 Convertible Laptop',
        tags: ['laptop', '2-in-1', 'convertible', 'touchscreen', 'tablet', 'stylus'],
        price: [599, 1599],
        variants: { kind: 'color', colors: ['silver', 'graphite', 'blue'] },
        specs: (r) => ({
          screen_in: r.pick([13.3, 14]),
          cpu: r.pick(['Core Ultra 5', 'Core Ultra 7', 'Ryzen 5']),
          ram_gb: r.pick([8, 16]),
          stylus_included: r.chance(0.5),
          weight_kg: r.pick([1.25, 1.32, 1.4]),
        }),
        desc: (s) =>
          `Touchscreen laptop that folds into a tablet${s.stylus_included ? ', stylus included' : ''}; ${s.cpu}, ${s.ram_gb} GB.`,
      },
      {
        label: 'Chromebook',
        tags: ['laptop', 'chromebook', 'student', 'budget', 'chromeos'],
        price: [199, 549],
        variants: { kind: 'none' },
        specs: (r) => ({
          screen_in: r.pick([11.6, 14, 15.6]),
          ram_gb: r.pick([4, 8]),
          storage_gb: r.pick([64, 128, 256]),
          battery_life_hours: r.pick([10, 12, 13]),
        }),
        desc: (s) =>
          `Affordable ${s.screen_in}-inch ChromeOS laptop with ${s.ram_gb} GB of memory and ${s.battery_life_hours} hours of battery, ideal for students.`,
      },
      {
        label: '16-inch Creator Laptop',
        tags: ['laptop', 'creator', 'video editing', 'oled', 'workstation'],
        price: [1399, 3199],
        variants: { kind: 'storage', options: ['1TB', '2TB'], step: [250, 250] },
        specs: (r) => ({
          screen_in: 16,
          display: r.pick(['OLED 3.2K', 'Mini-LED 3.5K', 'IPS 2.5K']),
          cpu: r.pick(['Core Ultra 9', 'Ryzen 9', 'Core i9']),
          ram_gb: r.pick([32, 64]),
          gpu: r.pick(['RTX 4060', 'RTX 4070']),
        }),
        desc: (s) =>
          `16-inch ${s.display} laptop for photo and video work with ${s.cpu}, ${s.gpu} and ${s.ram_gb} GB of memory.`,
      },
    ],
  },
  {
    key: 'phones',
    code: 'PHN',
    brands: ['Orbit', 'Zephyr Mobile', 'Kairo', 'Nexa', 'Tidal'],
    series: ['One', 'S', 'X', 'Lite', 'Max', 'Neo', 'Prime'],
    types: [
      {
        label: 'Smartphone',
        tags: ['phone', 'smartphone', 'mobile', '5g', 'flagship'],
        price: [699, 1199],
        variants: {
          kind: 'color-storage',
          colors: ['black', 'silver', 'blue', 'green', 'purple'],
          options: ['128GB', '256GB', '512GB'],
          step: [100, 150],
        },
        specs: (r) => ({
          screen_in: r.pick([6.1, 6.3, 6.7, 6.8]),
          camera_mp: r.pick([48, 50, 108, 200]),
          battery_mah: r.pick([4000, 4500, 5000]),
          five_g: true,
        }),
        desc: (s) =>
          `Flagship 5G phone with a ${s.screen_in}-inch display, ${s.camera_mp} MP main camera and a ${s.battery_mah} mAh battery.`,
      },
      {
        label: 'Mid-range Smartphone',
        tags: ['phone', 'smartphone', 'mobile', '5g', 'budget'],
        price: [249, 549],
        variants: {
          kind: 'color-storage',
          colors: ['black', 'blue', 'green', 'white'],
          options: ['128GB', '256GB'],
          step: [60, 60],
        },
        specs: (r) => ({
          screen_in: r.pick([6.4, 6.5, 6.6, 6.7]),
          camera_mp: r.pick([48, 50, 64]),
          battery_mah: r.pick([5000, 5000, 5500]),
          five_g: r.chance(0.8),
        }),
        desc: (s) =>
          `Great-value phone with a big ${s.screen_in}-inch screen and a ${s.battery_mah} mAh battery that lasts two days.`,
      },
      {
        label: 'Compact Phone',
        tags: ['phone', 'smartphone', 'compact', 'small', 'mobile'],
        price: [399, 799],
        variants: { kind: 'color', colors: ['black', 'white', 'pink', 'blue'] },
        specs: (r) => ({
          screen_in: r.pick([5.4, 5.8, 5.9]),
          camera_mp: r.pick([12, 48, 50]),
          battery_mah: r.pick([3000, 3300, 3600]),
          five_g: true,
        }),
        desc: (s) =>
          `One-hand ${s.screen_in}-inch phone that fits any pocket, with a ${s.camera_mp} MP camera.`,
      },
      {
        label: 'Rugged Phone',
        tags: ['phone', 'rugged', 'waterproof', 'outdoor', 'durable'],
        price: [299, 699],
        variants: { kind: 'none' },
        specs: (r) => ({
          screen_in: r.pick([6.1, 6.5]),
          water_resistance: r.pick(['IP68', 'IP69K']),
          drop_rating_m: r.pick([1.5, 1.8, 2]),
          battery_mah: r.pick([6000, 8000, 10000]),
        }),
        desc: (s) =>
          `${s.water_resistance} waterproof phone that survives ${s.drop_rating_m} m drops, with a ${s.battery_mah} mAh battery.`,
      },
      {
        label: 'Foldable Phone',
        tags: ['phone', 'foldable', 'flip', 'smartphone', '5g'],
        price: [999, 1899],
        variants: { kind: 'color', colors: ['black', 'cream', 'green', 'silver'] },
        specs: (r) => ({
          screen_in: r.pick([6.7, 7.6, 7.8]),
          cover_screen_in: r.pick([3.4, 6.2, 6.3]),
          camera_mp: r.pick([50, 200]),
          five_g: true,
        }),
        desc: (s) =>
          `Folding phone with a ${s.screen_in}-inch inner display and a ${s.cover_screen_in}-inch cover screen.`,
      },
    ],
  },
  {
    key: 'kitchen',
    code: 'KIT',
    brands: ['Casa Forte', 'Brio', 'Hearthline', 'Mirela', 'Oakridge'],
    series: ['Classic', 'Pro', 'Essentials', 'Barista', 'Chef', 'Smart', 'Artisan'],
    types: [
      {
        label: 'Espresso Machine',
        tags: ['coffee', 'espresso', 'machine', 'milk frother', 'cappuccino'],
        price: [149, 899],
        variants: { kind: 'color', colors: ['silver', 'black', 'cream', 'red'] },
        specs: (r) => ({
          pressure_bar: r.pick([9, 15, 19]),
          built_in_grinder: r.chance(0.4),
          water_tank_l: r.pick([1.2, 1.5, 1.8, 2]),
          milk_frother: r.chance(0.8),
        }),
        desc: (s) =>
          `${s.pressure_bar}-bar espresso machine with a ${s.water_tank_l} L tank${s.built_in_grinder ? ', built-in grinder' : ''}${s.milk_frother ? ' and a steam wand for milk' : ''}.`,
      },
      {
        label: 'Air Fryer',
        tags: ['air fryer', 'fryer', 'oven', 'healthy cooking'],
        price: [59, 249],
        variants: { kind: 'color', colors: ['black', 'white', 'sage'] },
        specs: (r) => ({
          capacity_l: r.pick([3.5, 4.7, 5.5, 6.2, 8]),
          power_w: r.pick([1400, 1500, 1700, 1800]),
          dual_basket: r.chance(0.3),
          dishwasher_safe: true,
        }),
        desc: (s) =>
          `${s.capacity_l} L air fryer${s.dual_basket ? ' with two baskets' : ''}, ${s.power_w} W, dishwasher-safe basket.`,
      },
      {
        label: 'High-Speed Blender',
        tags: ['blender', 'smoothie', 'soup', 'kitchen appliance'],
        price: [49, 499],
        variants: { kind: 'none' },
        specs: (r) => ({
          power_w: r.pick([700, 1000, 1200, 1500]),
          capacity_l: r.pick([1.4, 1.8, 2]),
          programs: r.int(3, 8),
        }),
        desc: (s) =>
          `${s.power_w} W blender with a ${s.capacity_l} L jar and ${s.programs} presets for smoothies, soups and crushed ice.`,
      },
      {
        label: 'Stand Mixer',
        tags: ['mixer', 'stand mixer', 'baking', 'dough'],
        price: [199, 649],
        variants: { kind: 'color', colors: ['red', 'cream', 'black', 'sage', 'blue'] },
        specs: (r) => ({
          bowl_l: r.pick([4.3, 4.8, 5.5, 6.6]),
          power_w: r.pick([325, 500, 600, 1000]),
          speeds: r.pick([6, 10, 12]),
        }),
        desc: (s) =>
          `Tilt-head stand mixer with a ${s.bowl_l} L stainless bowl and ${s.speeds} speeds for bread, cakes and cookies.`,
      },
      {
        label: "8-inch Chef's Knife",
        tags: ['knife', 'chef knife', 'cutlery', 'steel'],
        price: [29, 249],
        variants: { kind: 'none' },
        specs: (r) => ({
          blade_length_cm: 20,
          steel: r.pick(['German X50CrMoV15', 'VG-10 Damascus', 'AUS-8', 'SG2 powder']),
          handle: r.pick(['pakkawood', 'olive wood', 'polymer', 'walnut']),
        }),
        desc: (s) => `Forged chef's knife in ${s.steel} steel with a ${s.handle} handle.`,
      },
      {
        label: 'Nonstick Frying Pan',
        tags: ['pan', 'frying pan', 'skillet', 'nonstick', 'cookware'],
        price: [24, 129],
        variants: { kind: 'size', sizes: ['20 cm', '24 cm', '28 cm'], step: [10, 15] },
        specs: (r) => ({
          induction_compatible: r.chance(0.7),
          oven_safe_c: r.pick([180, 230, 260]),
          coating: r.pick(['ceramic', 'PTFE-free ceramic', 'titanium-reinforced']),
        }),
        desc: (s) =>
          `${s.coating} nonstick pan, oven safe to ${s.oven_safe_c} °C${s.induction_compatible ? ', works on induction' : ''}.`,
      },
      {
        label: 'Electric Kettle',
        tags: ['kettle', 'electric kettle', 'tea', 'temperature control'],
        price: [29, 169],
        variants: { kind: 'color', colors: ['black', 'white', 'silver', 'cream'] },
        specs: (r) => ({
          capacity_l: r.pick([1, 1.5, 1.7]),
          temperature_control: r.chance(0.6),
          power_w: r.pick([1500, 2200, 3000]),
        }),
        desc: (s) =>
          `${s.capacity_l} L kettle${s.temperature_control ? ' with variable temperature for tea and coffee' : ''}, ${s.power_w} W.`,
      },
      {
        label: 'Burr Coffee Grinder',
        tags: ['coffee', 'grinder', 'burr grinder', 'espresso'],
        price: [49, 349],
        variants: { kind: 'none' },
        specs: (r) => ({
          burr: r.pick(['conical steel', 'flat steel', 'ceramic conical']),
          grind_settings: r.pick([18, 31, 40, 60]),
          hopper_g: r.pick([225, 250, 340]),
        }),
        desc: (s) =>
          `${s.burr} burr grinder with ${s.grind_settings} grind settings, from espresso to French press.`,
      },
    ],
  },
  {
    key: 'outdoor',
    code: 'OUT',
    brands: ['Ridgeline', 'Alpenwerk', 'Trailborn', 'Summit & Pine', 'Fjordic'],
    series: ['Basecamp', 'Ultralight', 'Explorer', 'Trek', 'Cirrus', 'Wayfarer', 'Granite'],
    types: [
      {
        label: '2-Person Backpacking Tent',
        tags: ['tent', 'camping', 'backpacking', 'lightweight', 'shelter'],
        price: [129, 549],
        variants: { kind: 'color', colors: ['green', 'orange', 'gray'] },
        specs: (r) => ({
          capacity_people: 2,
          weight_kg: r.pick([1.1, 1.4, 1.8, 2.3]),
          seasons: r.pick([3, 3, 4]),
          waterproof_mm: r.pick([1500, 2000, 3000]),
        }),
        desc: (s) =>
          `${s.seasons}-season two-person tent weighing ${s.weight_kg} kg, ${s.waterproof_mm} mm waterproof fly.`,
      },
      {
        label: 'Mummy Sleeping Bag',
        tags: ['sleeping bag', 'camping', 'down', 'backpacking'],
        price: [79, 449],
        variants: { kind: 'size', sizes: ['regular', 'long'], step: [20, 20] },
        specs: (r) => ({
          temperature_rating_c: r.pick([-12, -7, -2, 2, 7]),
          fill: r.pick(['650-fill down', '800-fill down', 'synthetic']),
          weight_kg: r.pick([0.8, 1.0, 1.3, 1.6]),
        }),
        desc: (s) =>
          `${s.fill} sleeping bag rated to ${s.temperature_rating_c} °C, ${s.weight_kg} kg.`,
      },
      {
        label: '40L Hiking Backpack',
        tags: ['backpack', 'hiking', 'daypack', 'pack', 'travel'],
        price: [69, 299],
        variants: { kind: 'color', colors: ['black', 'blue', 'olive', 'red'] },
        specs: (r) => ({
          capacity_l: 40,
          weight_kg: r.pick([0.9, 1.1, 1.3, 1.5]),
          rain_cover: r.chance(0.6),
          hydration_compatible: true,
        }),
        desc: (s) =>
          `40 L pack with a ventilated back panel${s.rain_cover ? ', integrated rain cover' : ''} and a hydration sleeve.`,
      },
      {
        label: 'Camping Stove',
        tags: ['stove', 'camping', 'cooking', 'backpacking', 'gas'],
        price: [29, 179],
        variants: { kind: 'none' },
        specs: (r) => ({
          fuel: r.pick(['isobutane', 'propane', 'multi-fuel']),
          boil_time_min: r.pick([2.5, 3, 3.5, 4]),
          weight_g: r.int(80, 520),
        }),
        desc: (s) =>
          `${s.fuel} stove that boils a litre in about ${s.boil_time_min} minutes, ${s.weight_g} g.`,
      },
      {
        label: 'Insulated Water Bottle',
        tags: ['water bottle', 'bottle', 'insulated', 'hydration', 'stainless'],
        price: [19, 59],
        variants: {
          kind: 'color',
          colors: ['black', 'white', 'teal', 'sage', 'pink', 'yellow', 'navy'],
        },
        specs: (r) => ({
          capacity_l: r.pick([0.5, 0.75, 1]),
          keeps_cold_hours: r.pick([24, 36, 48]),
          keeps_hot_hours: r.pick([12, 18, 24]),
        }),
        desc: (s) =>
          `${s.capacity_l} L stainless bottle that keeps drinks cold for ${s.keeps_cold_hours} hours and hot for ${s.keeps_hot_hours}.`,
      },
      {
        label: 'Rechargeable Headlamp',
        tags: ['headlamp', 'light', 'camping', 'running', 'rechargeable'],
        price: [19, 99],
        variants: { kind: 'none' },
        specs: (r) => ({
          lumens: r.pick([350, 450, 600, 900, 1200]),
          water_resistance: r.pick(['IPX4', 'IPX6', 'IPX7']),
          battery_life_hours: r.pick([4, 6, 8, 12]),
        }),
        desc: (s) =>
          `${s.lumens}-lumen USB-C headlamp, ${s.water_resistance}, up to ${s.battery_life_hours} hours on high.`,
      },
      {
        label: 'Folding Camp Chair',
        tags: ['chair', 'camping', 'folding', 'beach', 'lightweight'],
        price: [29, 149],
        variants: { kind: 'color', colors: ['black', 'green', 'blue', 'sand'] },
        specs: (r) => ({
          weight_kg: r.pick([0.9, 1.2, 2.5, 3.8]),
          max_load_kg: r.pick([110, 120, 145]),
          cup_holder: r.chance(0.7),
        }),
        desc: (s) =>
          `Packable camp chair that holds ${s.max_load_kg} kg and weighs ${s.weight_kg} kg${s.cup_holder ? ', with a cup holder' : ''}.`,
      },
    ],
  },
  {
    key: 'shoes',
    code: 'SHO',
    brands: ['Stride', 'Velora', 'Pacer & Co', 'Terrafoot', 'Kinetik'],
    series: ['Glide', 'Rush', 'Cloud', 'Apex', 'Flow', 'Ridge', 'Tempo'],
    types: [
      {
        label: 'Running Shoes',
        tags: ['running shoes', 'shoes', 'sneakers', 'road running', 'cushioned'],
        price: [79, 199],
        variants: { kind: 'shoe', colors: ['black', 'white', 'blue', 'orange', 'gray'] },
        specs: (r) => ({
          drop_mm: r.pick([4, 6, 8, 10]),
          weight_g: r.int(210, 310),
          cushioning: r.pick(['moderate', 'high', 'max']),
        }),
        desc: (s) =>
          `Road running shoe with ${s.cushioning} cushioning, ${s.drop_mm} mm drop, ${s.weight_g} g.`,
      },
      {
        label: 'Trail Running Shoes',
        tags: ['trail running', 'running shoes', 'shoes', 'grip', 'trail'],
        price: [99, 189],
        variants: { kind: 'shoe', colors: ['black', 'olive', 'orange', 'blue'] },
        specs: (r) => ({
          lug_depth_mm: r.pick([3.5, 4, 5]),
          waterproof: r.chance(0.4),
          weight_g: r.int(250, 330),
        }),
        desc: (s) =>
          `Trail shoe with ${s.lug_depth_mm} mm lugs for mud and rock${s.waterproof ? ', waterproof membrane' : ''}.`,
      },
      {
        label: 'Waterproof Hiking Boots',
        tags: ['hiking boots', 'boots', 'waterproof', 'hiking', 'shoes'],
        price: [119, 279],
        variants: { kind: 'shoe', colors: ['brown', 'black', 'gray'] },
        specs: (r) => ({
          waterproof: true,
          ankle_height: r.pick(['mid', 'high']),
          weight_g: r.int(480, 720),
        }),
        desc: (s) =>
          `${s.ankle_height}-cut waterproof leather hiking boot with a grippy rubber outsole.`,
      },
      {
        label: 'Leather Sneakers',
        tags: ['sneakers', 'shoes', 'leather', 'casual', 'everyday'],
        price: [69, 229],
        variants: { kind: 'shoe', colors: ['white', 'black', 'navy', 'cream'] },
        specs: (r) => ({
          upper: r.pick(['full-grain leather', 'suede', 'nubuck']),
          sole: r.pick(['rubber cupsole', 'vulcanized rubber']),
        }),
        desc: (s) => `Minimal everyday sneaker in ${s.upper} on a ${s.sole}.`,
      },
      {
        label: 'Walking Shoes',
        tags: ['walking shoes', 'shoes', 'comfort', 'everyday', 'sneakers'],
        price: [59, 159],
        variants: { kind: 'shoe', colors: ['gray', 'black', 'navy'] },
        specs: (r) => ({
          wide_fit_available: r.chance(0.5),
          insole: r.pick(['memory foam', 'orthotic', 'cork']),
        }),
        desc: (s) => `All-day walking shoe with a ${s.insole} insole and a breathable mesh upper.`,
      },
      {
        label: 'Slide Sandals',
        tags: ['sandals', 'slides', 'summer', 'shoes', 'beach'],
        price: [24, 79],
        variants: { kind: 'shoe', colors: ['black', 'sand', 'navy'] },
        specs: (r) => ({
          material: r.pick(['EVA foam', 'cork and leather', 'recycled rubber']),
          water_friendly: r.chance(0.7),
        }),
        desc: (s) =>
          `Comfortable ${s.material} slides${s.water_friendly ? ' you can wear in the water' : ''}.`,
      },
    ],
  },
  {
    key: 'apparel',
    code: 'APP',
    brands: ['Northbound', 'Loom & Lark', 'Kestrel Outdoor', 'Atelier Nine', 'Fieldhouse'],
    series: ['Core', 'Everyday', 'Alpine', 'Coastal', 'Urban', 'Heritage', 'Storm'],
    types: [
      {
        label: 'Waterproof Rain Jacket',
        tags: ['jacket', 'rain jacket', 'waterproof', 'shell', 'outerwear'],
        price: [89, 329],
        variants: { kind: 'apparel', colors: ['black', 'navy', 'red', 'olive', 'yellow'] },
        specs: (r) => ({
          waterproof_mm: r.pick([10000, 20000, 28000]),
          packable: r.chance(0.6),
          hood: 'adjustable',
        }),
        desc: (s) =>
          `${s.waterproof_mm} mm waterproof, breathable shell with an adjustable hood${s.packable ? '; packs into its own pocket' : ''}.`,
      },
      {
        label: 'Fleece Hoodie',
        tags: ['hoodie', 'fleece', 'sweater', 'warm', 'casual'],
        price: [39, 129],
        variants: { kind: 'apparel', colors: ['gray', 'navy', 'black', 'burgundy', 'olive'] },
        specs: (r) => ({
          material: r.pick(['recycled polyester fleece', 'cotton fleece', 'grid fleece']),
          fit: r.pick(['regular', 'relaxed', 'slim']),
        }),
        desc: (s) => `Soft ${s.material} hoodie with a ${s.fit} fit and a kangaroo pocket.`,
      },
      {
        label: 'Merino Wool T-Shirt',
        tags: ['t-shirt', 'shirt', 'merino', 'wool', 'base layer', 'travel'],
        price: [45, 95],
        variants: { kind: 'apparel', colors: ['black', 'white', 'gray', 'navy', 'sage'] },
        specs: (r) => ({
          merino_percent: r.pick([87, 100]),
          weight_gsm: r.pick([150, 170, 190]),
          fit: r.pick(['regular', 'slim']),
        }),
        desc: (s) =>
          `${s.merino_percent}% merino tee, ${s.weight_gsm} g/m², odor resistant and great for travel.`,
      },
      {
        label: 'Down Vest',
        tags: ['vest', 'down', 'insulated', 'warm', 'outerwear'],
        price: [79, 229],
        variants: { kind: 'apparel', colors: ['black', 'navy', 'olive', 'orange'] },
        specs: (r) => ({
          fill: r.pick(['600-fill down', '700-fill down', '800-fill down']),
          weight_g: r.int(180, 320),
        }),
        desc: (s) => `Lightweight ${s.fill} vest, ${s.weight_g} g, packs into a chest pocket.`,
      },
      {
        label: 'Stretch Chino Pants',
        tags: ['pants', 'chinos', 'trousers', 'stretch', 'casual'],
        price: [49, 119],
        variants: { kind: 'apparel', colors: ['sand', 'navy', 'olive', 'charcoal'] },
        specs: (r) => ({
          fit: r.pick(['slim', 'straight', 'relaxed']),
          stretch: true,
        }),
        desc: (s) => `${s.fit}-fit chinos in a cotton blend with a little stretch.`,
      },
      {
        label: 'Running Shorts',
        tags: ['shorts', 'running', 'sport', 'gym', 'lightweight'],
        price: [24, 69],
        variants: { kind: 'apparel', colors: ['black', 'blue', 'gray', 'orange'] },
        specs: (r) => ({
          inseam_cm: r.pick([10, 13, 18]),
          liner: r.chance(0.6),
          phone_pocket: r.chance(0.7),
        }),
        desc: (s) =>
          `${s.inseam_cm} cm running shorts${s.liner ? ' with a built-in liner' : ''}${s.phone_pocket ? ' and a zip phone pocket' : ''}.`,
      },
    ],
  },
  {
    key: 'home',
    code: 'HOM',
    brands: ['Nestwell', 'Lumora', 'Quietly', 'Harbor Home', 'Evenfall'],
    series: ['S1', 'Plus', 'Air', 'Aura', 'Max', 'Mini', 'Zen'],
    types: [
      {
        label: 'Robot Vacuum',
        tags: ['robot vacuum', 'vacuum', 'cleaning', 'smart home', 'mop'],
        price: [179, 999],
        variants: { kind: 'color', colors: ['black', 'white'] },
        specs: (r) => ({
          suction_pa: r.pick([2500, 4000, 5500, 8000]),
          mopping: r.chance(0.5),
          self_emptying: r.chance(0.4),
          runtime_min: r.pick([120, 150, 180]),
        }),
        desc: (s) =>
          `${s.suction_pa} Pa robot vacuum with lidar mapping${s.mopping ? ', mopping' : ''}${s.self_emptying ? ' and a self-emptying dock' : ''}.`,
      },
      {
        label: 'HEPA Air Purifier',
        tags: ['air purifier', 'hepa', 'allergies', 'air quality', 'smart home'],
        price: [89, 649],
        variants: { kind: 'none' },
        specs: (r) => ({
          room_size_m2: r.pick([20, 35, 50, 75, 100]),
          cadr_m3h: r.pick([180, 250, 400, 600]),
          noise_db: r.pick([22, 24, 28, 32]),
        }),
        desc: (s) =>
          `True HEPA purifier for rooms up to ${s.room_size_m2} m², CADR ${s.cadr_m3h} m³/h, as quiet as ${s.noise_db} dB.`,
      },
      {
        label: 'Smart Thermostat',
        tags: ['thermostat', 'smart home', 'heating', 'energy saving'],
        price: [99, 279],
        variants: { kind: 'color', colors: ['white', 'black', 'silver'] },
        specs: (r) => ({
          voice_assistant: r.pick(['Alexa', 'Google Assistant', 'Alexa and Google Assistant']),
          room_sensor_included: r.chance(0.5),
        }),
        desc: (s) =>
          `Learning thermostat that works with ${s.voice_assistant}${s.room_sensor_included ? '; room sensor included' : ''}.`,
      },
      {
        label: 'LED Desk Lamp',
        tags: ['lamp', 'desk lamp', 'led', 'lighting', 'office'],
        price: [29, 189],
        variants: { kind: 'color', colors: ['black', 'white', 'silver'] },
        specs: (r) => ({
          brightness_lm: r.pick([500, 800, 1000]),
          color_temperature: '2700-6500K',
          usb_charging: r.chance(0.6),
        }),
        desc: (s) =>
          `Dimmable ${s.brightness_lm} lm desk lamp with adjustable color temperature${s.usb_charging ? ' and a USB charging port' : ''}.`,
      },
      {
        label: 'Memory Foam Pillow',
        tags: ['pillow', 'memory foam', 'sleep', 'bedding'],
        price: [29, 119],
        variants: { kind: 'size', sizes: ['standard', 'queen', 'king'], step: [10, 10] },
        specs: (r) => ({
          firmness: r.pick(['soft', 'medium', 'firm']),
          cooling_cover: r.chance(0.6),
        }),
        desc: (s) =>
          `${s.firmness} contour memory foam pillow${s.cooling_cover ? ' with a cooling cover' : ''}.`,
      },
      {
        label: 'Weighted Blanket',
        tags: ['blanket', 'weighted blanket', 'sleep', 'bedding', 'cozy'],
        price: [59, 199],
        variants: { kind: 'size', sizes: ['5 kg', '7 kg', '9 kg'], step: [15, 15] },
        specs: (r) => ({
          cover: r.pick(['minky', 'cotton', 'bamboo']),
          dimensions_cm: r.pick(['122x183', '152x203']),
        }),
        desc: (s) => `Evenly weighted glass-bead blanket with a removable ${s.cover} cover.`,
      },
      {
        label: 'Cordless Stick Vacuum',
        tags: ['vacuum', 'stick vacuum', 'cordless', 'cleaning'],
        price: [149, 699],
        variants: { kind: 'none' },
        specs: (r) => ({
          runtime_min: r.pick([40, 50, 60, 70]),
          weight_kg: r.pick([1.5, 2.2, 2.6, 3]),
          hepa_filter: r.chance(0.7),
        }),
        desc: (s) =>
          `Lightweight ${s.weight_kg} kg cordless vacuum with ${s.runtime_min} minutes of runtime${s.hepa_filter ? ' and a HEPA filter' : ''}.`,
      },
    ],
  },
  {
    key: 'fitness',
    code: 'FIT',
    brands: ['Ironpeak', 'Flexa', 'Vitalis', 'CoreForm', 'Momentum'],
    series: ['Studio', 'Home', 'Pro', 'Active', 'Elite', 'Flow', 'Fit'],
    types: [
      {
        label: 'Adjustable Dumbbells (pair)',
        tags: ['dumbbells', 'weights', 'strength', 'home gym', 'adjustable'],
        price: [149, 549],
        variants: { kind: 'none' },
        specs: (r) => ({
          max_weight_kg: r.pick([20, 24, 32, 41]),
          increments_kg: r.pick([1, 2, 2.5]),
        }),
        desc: (s) =>
          `Pair of dial-adjustable dumbbells from 2 to ${s.max_weight_kg} kg in ${s.increments_kg} kg steps.`,
      },
      {
        label: 'Yoga Mat',
        tags: ['yoga mat', 'mat', 'yoga', 'pilates', 'non-slip'],
        price: [19, 129],
        variants: { kind: 'color', colors: ['purple', 'teal', 'black', 'sage', 'pink'] },
        specs: (r) => ({
          thickness_mm: r.pick([3, 4, 5, 6, 8]),
          material: r.pick(['natural rubber', 'TPE', 'cork', 'PU and rubber']),
          length_cm: r.pick([173, 183, 200]),
        }),
        desc: (s) => `${s.thickness_mm} mm non-slip ${s.material} mat, ${s.length_cm} cm long.`,
      },
      {
        label: 'Fitness Tracker',
        tags: ['fitness tracker', 'tracker', 'wearable', 'heart rate', 'sleep tracking'],
        price: [49, 199],
        variants: { kind: 'color', colors: ['black', 'pink', 'blue', 'white'] },
        specs: (r) => ({
          battery_life_days: r.pick([5, 7, 10, 14]),
          gps: r.chance(0.5),
          water_resistance: '5 ATM',
        }),
        desc: (s) =>
          `Slim tracker for steps, heart rate and sleep, ${s.battery_life_days}-day battery${s.gps ? ', built-in GPS' : ''}.`,
      },
      {
        label: 'GPS Smartwatch',
        tags: ['smartwatch', 'watch', 'gps', 'running', 'wearable'],
        price: [149, 699],
        variants: { kind: 'color', colors: ['black', 'silver', 'green', 'white'] },
        specs: (r) => ({
          battery_life_days: r.pick([2, 7, 14, 21]),
          screen: r.pick(['AMOLED', 'MIP']),
          offline_maps: r.chance(0.5),
        }),
        desc: (s) =>
          `GPS sport watch with an ${s.screen} display and ${s.battery_life_days}-day battery${s.offline_maps ? ', offline maps' : ''}.`,
      },
      {
        label: 'Resistance Bands Set',
        tags: ['resistance bands', 'bands', 'strength', 'home gym', 'travel'],
        price: [15, 59],
        variants: { kind: 'none' },
        specs: (r) => ({
          bands: r.pick([4, 5, 6]),
          max_resistance_kg: r.pick([30, 45, 68]),
          door_anchor: r.chance(0.7),
        }),
        desc: (s) =>
          `${s.bands} stackable bands up to ${s.max_resistance_kg} kg${s.door_anchor ? ' with handles and a door anchor' : ''}.`,
      },
      {
        label: 'Cast Iron Kettlebell',
        tags: ['kettlebell', 'weights', 'strength', 'home gym'],
        price: [25, 59],
        variants: { kind: 'size', sizes: ['8 kg', '12 kg', '16 kg', '20 kg'], step: [12, 14] },
        specs: (r) => ({ finish: r.pick(['powder coat', 'vinyl', 'enamel']) }),
        desc: (s) => `Single-cast iron kettlebell with a wide handle and ${s.finish} finish.`,
      },
      {
        label: 'Foam Roller',
        tags: ['foam roller', 'recovery', 'massage', 'mobility'],
        price: [19, 69],
        variants: { kind: 'none' },
        specs: (r) => ({
          length_cm: r.pick([33, 45, 90]),
          density: r.pick(['soft', 'medium', 'firm']),
          vibrating: r.chance(0.2),
        }),
        desc: (s) =>
          `${s.length_cm} cm ${s.density} foam roller${s.vibrating ? ' with vibration modes' : ''} for recovery.`,
      },
    ],
  },
  {
    key: 'gaming',
    code: 'GAM',
    brands: ['Vortex Gaming', 'Hexa', 'Nightjar', 'Quantum Play', 'Rogue Labs'],
    series: ['Strike', 'Blitz', 'Phantom', 'Raptor', 'Ion', 'Viper', 'Nova'],
    types: [
      {
        label: 'Wireless Gaming Headset',
        tags: ['headset', 'gaming', 'wireless', 'microphone', 'headphones'],
        price: [59, 299],
        variants: { kind: 'color', colors: ['black', 'white'] },
        specs: (r) => ({
          battery_life_hours: r.pick([20, 30, 50, 80]),
          surround: r.pick(['7.1 virtual', 'spatial audio', 'stereo']),
          mic: 'detachable',
        }),
        desc: (s) =>
          `Low-latency wireless headset with ${s.surround} sound, a detachable mic and ${s.battery_life_hours} hours of battery.`,
      },
      {
        label: 'Mechanical Keyboard',
        tags: ['keyboard', 'mechanical', 'gaming', 'rgb'],
        price: [49, 249],
        variants: { kind: 'switch', options: ['linear red', 'tactile brown', 'clicky blue'] },
        specs: (r) => ({
          layout: r.pick(['full size', 'TKL', '75%', '65%']),
          wireless: r.chance(0.5),
          hot_swappable: r.chance(0.5),
        }),
        desc: (s) =>
          `${s.layout} mechanical keyboard with RGB lighting${s.wireless ? ', wireless' : ''}${s.hot_swappable ? ', hot-swappable switches' : ''}.`,
      },
      {
        label: 'Gaming Mouse',
        tags: ['mouse', 'gaming', 'wireless', 'esports'],
        price: [29, 159],
        variants: { kind: 'color', colors: ['black', 'white', 'pink'] },
        specs: (r) => ({
          dpi: r.pick([16000, 26000, 30000]),
          weight_g: r.int(55, 110),
          wireless: r.chance(0.6),
        }),
        desc: (s) =>
          `${s.weight_g} g ${s.wireless ? 'wireless' : 'wired'} mouse with a ${s.dpi} DPI sensor.`,
      },
      {
        label: '27-inch Gaming Monitor',
        tags: ['monitor', 'gaming', 'display', 'high refresh', '27 inch'],
        price: [199, 899],
        variants: { kind: 'none' },
        specs: (r) => ({
          resolution: r.pick(['1440p', '4K', '1080p']),
          refresh_hz: r.pick([144, 165, 240, 360]),
          panel: r.pick(['IPS', 'VA', 'OLED']),
        }),
        desc: (s) => `27-inch ${s.resolution} ${s.panel} monitor running at ${s.refresh_hz} Hz.`,
      },
      {
        label: 'Wireless Controller',
        tags: ['controller', 'gamepad', 'gaming', 'wireless', 'pc'],
        price: [39, 199],
        variants: { kind: 'color', colors: ['black', 'white', 'red', 'blue'] },
        specs: (r) => ({
          hall_effect_sticks: r.chance(0.5),
          back_paddles: r.chance(0.4),
          battery_life_hours: r.pick([20, 30, 40]),
        }),
        desc: (s) =>
          `Wireless controller for PC and consoles${s.hall_effect_sticks ? ' with drift-free Hall effect sticks' : ''}${s.back_paddles ? ' and back paddles' : ''}.`,
      },
      {
        label: 'Streaming Microphone',
        tags: ['microphone', 'usb mic', 'streaming', 'podcast'],
        price: [49, 199],
        variants: { kind: 'none' },
        specs: (r) => ({
          connection: r.pick(['USB-C', 'USB-C and XLR']),
          pattern: r.pick(['cardioid', 'multi-pattern']),
        }),
        desc: (s) => `${s.pattern} ${s.connection} microphone for streaming and podcasts.`,
      },
    ],
  },
];

// ---------------------------------------------------------------------------------------------
// Products
// ---------------------------------------------------------------------------------------------

function priceCents(r, lo, hi) {
  const dollars = r.int(lo, hi);
  const ending = r.pick([99, 99, 99, 99, 49, 95, 0]);
  return ending === 0 ? dollars * 100 : dollars * 100 - (100 - ending);
}

function variantStock(r) {
  return r.chance(0.14) ? 0 : r.int(1, 25);
}

function code(value) {
  return String(value)
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '');
}

/** Builds variants for a product; returns [] when the product has none. */
function makeVariants(r, scheme, sku, baseCents) {
  const variants = [];
  const colorOf = (c) => COLOR_CODES[c] ?? code(c).slice(0, 3);
  switch (scheme.kind) {
    case 'none':
      return [];
    case 'color': {
      for (const color of r.sample(scheme.colors, r.int(2, Math.min(4, scheme.colors.length)))) {
        variants.push({ sku: `${sku}-${colorOf(color)}`, color, stock: variantStock(r) });
      }
      return variants;
    }
    case 'switch': {
      for (const option of scheme.options) {
        variants.push({
          sku: `${sku}-${code(option).slice(0, 3)}`,
          switch: option,
          stock: variantStock(r),
        });
      }
      return variants;
    }
    case 'storage':
    case 'size': {
      const options = scheme.kind === 'storage' ? scheme.options : scheme.sizes;
      const field = scheme.kind === 'storage' ? 'storage' : 'size';
      let extra = 0;
      options.forEach((option, index) => {
        if (index > 0) extra += r.int(scheme.step[0], scheme.step[1]) * 100;
        const variant = { sku: `${sku}-${code(option)}`, [field]: option };
        if (extra > 0) variant.price = money(baseCents + extra);
        variant.stock = variantStock(r);
        variants.push(variant);
      });
      return variants;
    }
    case 'color-storage': {
      const colors = r.sample(scheme.colors, 2);
      const storages = scheme.options.slice(0, 2);
      const extra = r.int(scheme.step[0], scheme.step[1]) * 100;
      for (const color of colors) {
        storages.forEach((storage, index) => {
          const variant = { sku: `${sku}-${colorOf(color)}-${code(storage)}`, color, storage };
          if (index > 0) variant.price = money(baseCents + extra);
          variant.stock = variantStock(r);
          variants.push(variant);
        });
      }
      return variants;
    }
    case 'shoe':
    case 'apparel': {
      // One or two colors, each in four sizes: US shoe sizes from 7-9 up, or S to XL.
      const colors = r.sample(scheme.colors, r.int(1, 2));
      let sizes = ['S', 'M', 'L', 'XL'];
      let label = (size) => size;
      if (scheme.kind === 'shoe') {
        const start = r.int(7, 9);
        sizes = [start, start + 1, start + 2, start + 3].map(String);
        label = (size) => `US ${size}`;
      }
      for (const color of colors) {
        for (const size of sizes) {
          variants.push({
            sku: `${sku}-${colorOf(color)}-${size}`,
            color,
            size: label(size),
            stock: variantStock(r),
          });
        }
      }
      return variants;
    }
    default:
      throw new Error(`unknown variant scheme ${scheme.kind}`);
  }
}

function makeProducts(r) {
  const products = [];
  const names = new Set();
  let serial = 0;
  for (const category of CATEGORIES) {
    for (let i = 0; i < PRODUCTS_PER_CATEGORY; i++) {
      serial++;
      const id = `p_${String(serial).padStart(4, '0')}`;
      const sku = `${category.code}-${String(serial).padStart(4, '0')}`;
      const type = category.types[i % category.types.length];
      let name;
      let brand;
      do {
        brand = r.pick(category.brands);
        const model = r.chance(0.5)
          ? ` ${r.pick(['2', '3', '5', '7', '100', '300', '500', 'X2', 'S'])}`
          : '';
        name = `${brand} ${r.pick(category.series)}${model} ${type.label}`;
      } while (names.has(name));
      names.add(name);
      const base = priceCents(r, type.price[0], type.price[1]);
      const specs = type.specs(r);
      const product = {
        id,
        name,
        brand,
        category: category.key,
        price: money(base),
        rating: Math.round((3 + r.next() * 1.95) * 10) / 10,
        review_count: r.chance(0.1) ? r.int(0, 12) : r.int(13, 2400),
        description: type.desc(specs),
        tags: type.tags,
        specs,
      };
      if (product.review_count === 0) product.rating = 0;
      const variants = makeVariants(r, type.variants, sku, base);
      if (variants.length === 0) {
        product.sku = sku;
        product.stock = r.chance(0.09) ? 0 : r.int(1, 60);
      } else if (r.chance(0.05)) {
        for (const variant of variants) variant.stock = 0; // sold out in every option
      }
      product.variants = variants;
      products.push(product);
    }
  }
  return products;
}

// ---------------------------------------------------------------------------------------------
// Shoppers and orders
// ---------------------------------------------------------------------------------------------

const USERS = [
  {
    id: 'u_001',
    name: 'Maya Chen',
    email: 'maya.chen@example.com',
    phone: '+1-206-555-0142',
    addresses: [
      {
        id: 'addr_001_home',
        label: 'home',
        line1: '1420 Pine Street',
        line2: 'Apt 5B',
        city: 'Seattle',
        state: 'WA',
        zip: '98101',
        country: 'US',
      },
      {
        id: 'addr_001_work',
        label: 'work',
        line1: '400 Westlake Ave N',
        line2: 'Floor 3',
        city: 'Seattle',
        state: 'WA',
        zip: '98109',
        country: 'US',
      },
    ],
    payment_methods: [
      { id: 'card_001_visa', type: 'card', brand: 'visa', last4: '4242', expiry: '08/27' },
      { id: 'gift_001', type: 'gift_card', balance: 75 },
      { id: 'paypal_001', type: 'paypal', email: 'maya.chen@example.com' },
    ],
  },
  {
    id: 'u_002',
    name: 'James Okafor',
    email: 'james.okafor@example.com',
    phone: '+1-312-555-0177',
    addresses: [
      {
        id: 'addr_002_home',
        label: 'home',
        line1: '2211 N Halsted St',
        line2: null,
        city: 'Chicago',
        state: 'IL',
        zip: '60614',
        country: 'US',
      },
    ],
    payment_methods: [
      { id: 'card_002_mc', type: 'card', brand: 'mastercard', last4: '5100', expiry: '11/26' },
      { id: 'gift_002', type: 'gift_card', balance: 20 },
    ],
  },
  {
    id: 'u_003',
    name: 'Sofia Rossi',
    email: 'sofia.rossi@example.com',
    phone: '+1-917-555-0108',
    addresses: [
      {
        id: 'addr_003_home',
        label: 'home',
        line1: '88 Bedford Street',
        line2: 'Apt 2',
        city: 'New York',
        state: 'NY',
        zip: '10014',
        country: 'US',
      },
      {
        id: 'addr_003_parents',
        label: "parents' house",
        line1: '17 Orchard Lane',
        line2: null,
        city: 'Montclair',
        state: 'NJ',
        zip: '07042',
        country: 'US',
      },
    ],
    payment_methods: [
      { id: 'paypal_003', type: 'paypal', email: 'sofia.r@example.com' },
      { id: 'card_003_amex', type: 'card', brand: 'amex', last4: '1005', expiry: '02/28' },
    ],
  },
  {
    id: 'u_004',
    name: 'Liam Murphy',
    email: 'liam.murphy@example.com',
    phone: '+1-617-555-0199',
    addresses: [
      {
        id: 'addr_004_home',
        label: 'home',
        line1: '35 Beacon Hill Rd',
        line2: null,
        city: 'Boston',
        state: 'MA',
        zip: '02108',
        country: 'US',
      },
    ],
    payment_methods: [
      { id: 'gift_004', type: 'gift_card', balance: 250 },
      { id: 'card_004_visa', type: 'card', brand: 'visa', last4: '9876', expiry: '05/29' },
    ],
  },
  {
    id: 'u_005',
    name: 'Aisha Rahman',
    email: 'aisha.rahman@example.com',
    phone: '+1-512-555-0163',
    addresses: [
      {
        id: 'addr_005_home',
        label: 'home',
        line1: '902 E 6th Street',
        line2: 'Unit 12',
        city: 'Austin',
        state: 'TX',
        zip: '78702',
        country: 'US',
      },
    ],
    payment_methods: [
      { id: 'card_005_visa', type: 'card', brand: 'visa', last4: '3344', expiry: '12/27' },
      { id: 'paypal_005', type: 'paypal', email: 'aisha.rahman@example.com' },
      { id: 'gift_005', type: 'gift_card', balance: 0 },
    ],
  },
  {
    id: 'u_006',
    name: 'Noah Schmidt',
    email: 'noah.schmidt@example.com',
    phone: '+1-303-555-0121',
    addresses: [
      {
        id: 'addr_006_home',
        label: 'home',
        line1: '1550 Larimer St',
        line2: 'Apt 804',
        city: 'Denver',
        state: 'CO',
        zip: '80202',
        country: 'US',
      },
      {
        id: 'addr_006_cabin',
        label: 'cabin',
        line1: '12 Aspen Ridge Rd',
        line2: null,
        city: 'Breckenridge',
        state: 'CO',
        zip: '80424',
        country: 'US',
      },
    ],
    payment_methods: [
      { id: 'card_006_mc', type: 'card', brand: 'mastercard', last4: '7781', expiry: '03/27' },
    ],
  },
];

/** [user, status, payment method, days before "now"]: the order history, oldest first. */
const ORDER_PLAN = [
  ['u_001', 'delivered', 'card_001_visa', 140],
  ['u_003', 'delivered', 'paypal_003', 128],
  ['u_002', 'delivered', 'card_002_mc', 117],
  ['u_005', 'cancelled', 'card_005_visa', 109],
  ['u_004', 'delivered', 'card_004_visa', 96],
  ['u_006', 'delivered', 'card_006_mc', 88],
  ['u_001', 'delivered', 'paypal_001', 71],
  ['u_003', 'cancelled', 'card_003_amex', 64],
  ['u_005', 'delivered', 'paypal_005', 52],
  ['u_002', 'delivered', 'card_002_mc', 41],
  ['u_004', 'delivered', 'gift_004', 33],
  ['u_006', 'shipped', 'card_006_mc', 12],
  ['u_001', 'shipped', 'card_001_visa', 9],
  ['u_003', 'shipped', 'paypal_003', 7],
  ['u_005', 'shipped', 'card_005_visa', 6],
  ['u_002', 'processing', 'card_002_mc', 4],
  ['u_004', 'processing', 'gift_004', 3],
  ['u_001', 'processing', 'gift_001', 3],
  ['u_006', 'processing', 'card_006_mc', 2],
  ['u_003', 'pending', 'card_003_amex', 1],
  ['u_005', 'pending', 'paypal_005', 1],
  ['u_004', 'pending', 'card_004_visa', 1],
  ['u_001', 'pending', 'card_001_visa', 0],
  ['u_002', 'cancelled', 'card_002_mc', 0],
];

const CANCEL_REASONS = ['no_longer_needed', 'ordered_by_mistake', 'found_better_price'];

function isoDaysBefore(days, r) {
  const ms = Date.parse(CURRENT_TIME) - days * 86_400_000 - r.int(1, 10) * 3_600_000;
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function optionsOf(variant) {
  const out = {};
  for (const key of ['color', 'size', 'storage', 'switch'])
    if (variant[key] !== undefined) out[key] = variant[key];
  return out;
}

function makeOrders(r, products, users) {
  const orders = [];
  ORDER_PLAN.forEach(([userId, status, paymentId, days], index) => {
    const user = users.find((u) => u.id === userId);
    const picked = r.sample(products, r.int(1, 3));
    const items = picked.map((product) => {
      const item = { product_id: product.id, name: product.name };
      let unitCents = Math.round(product.price * 100);
      if (product.variants.length > 0) {
        const variant = r.pick(product.variants);
        item.sku = variant.sku;
        item.options = optionsOf(variant);
        if (variant.price !== undefined) unitCents = Math.round(variant.price * 100);
      } else {
        item.sku = product.sku;
      }
      item.quantity = r.chance(0.2) ? 2 : 1;
      item.unit_price = money(unitCents);
      item._cents = unitCents * item.quantity;
      return item;
    });
    const subtotal = items.reduce((sum, item) => sum + item._cents, 0);
    for (const item of items) delete item._cents;
    const tax = taxOf(subtotal);
    const order = {
      id: `o_${1001 + index}`,
      user_id: userId,
      status,
      created_at: isoDaysBefore(days, r),
      items,
      subtotal: money(subtotal),
      tax: money(tax),
      total: money(subtotal + tax),
      payment_method_id: paymentId,
      shipping_address_id: r.pick(user.addresses).id,
    };
    if (status === 'cancelled') {
      order.cancellation = {
        reason: r.pick(CANCEL_REASONS),
        refund_amount: order.total,
        refunded_to: paymentId,
      };
    }
    orders.push(order);
  });
  return orders;
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

/** Builds the db object for `seed`. */
export function generateCommerceDb(seed = DEFAULT_SEED) {
  const r = makeRandom(seed);
  const products = makeProducts(r);
  const users = USERS.map((u) => ({
    ...structuredClone(u),
    selection: { product_ids: [] },
    cart: { items: [] },
  }));
  const orders = makeOrders(r, products, users);
  return {
    meta: {
      store_name: 'Scenaro Demo Store',
      currency: 'USD',
      current_time: CURRENT_TIME,
      generator: `generate-commerce-data.mjs seed=${seed}`,
    },
    products,
    users,
    orders,
  };
}

/**
 * Serializes with one small object (variant, address, payment method, order item) per line where
 * it fits, then lets prettier settle the layout.
 */
async function serialize(db, configFile) {
  const text = JSON.stringify(db, null, 2)
    // Collapse innermost objects (no nested braces/brackets) onto one line; prettier re-breaks
    // any that do not fit in its print width.
    .replace(/\{\n\s+([^{}[\]]*?)\n\s*\}/g, (_, body) => `{ ${body.replace(/\n\s+/g, ' ')} }`)
    .replace(/\[\n\s+([^{}[\]]*?)\n\s*\]/g, (_, body) => `[${body.replace(/\n\s+/g, ' ')}]`);
  const options = (await prettier.resolveConfig(configFile)) ?? {};
  return prettier.format(text, { ...options, filepath: configFile });
}

async function main() {
  const args = process.argv.slice(2);
  const flag = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const here = dirname(fileURLToPath(import.meta.url));
  const out = resolve(flag('--out') ?? resolve(here, '../data/commerce/db.json'));
  const seed = Number(flag('--seed') ?? DEFAULT_SEED);
  const text = await serialize(generateCommerceDb(seed), out);
  if (args.includes('--check')) {
    const current = await readFile(out, 'utf8').catch(() => '');
    if (current !== text) {
      console.error(`${out} is out of date; run node ${process.argv[1]}`);
      process.exit(1);
    }
    console.log(`${out} is up to date (${text.length} bytes)`);
    return;
  }
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, text);
  console.log(`wrote ${out} (${text.length} bytes)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
