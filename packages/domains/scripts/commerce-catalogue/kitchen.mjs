/** The `kitchen` category of the commerce catalogue (see `./index.mjs`). */
import { between, chance } from './specs.mjs';

export const kitchen = {
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
      specs: {
        pressure_bar: [9, 15, 19],
        built_in_grinder: chance(0.4),
        water_tank_l: [1.2, 1.5, 1.8, 2],
        milk_frother: chance(0.8),
      },
      desc: (s) =>
        `${s.pressure_bar}-bar espresso machine with a ${s.water_tank_l} L tank${s.built_in_grinder ? ', built-in grinder' : ''}${s.milk_frother ? ' and a steam wand for milk' : ''}.`,
    },
    {
      label: 'Air Fryer',
      tags: ['air fryer', 'fryer', 'oven', 'healthy cooking'],
      price: [59, 249],
      variants: { kind: 'color', colors: ['black', 'white', 'sage'] },
      specs: {
        capacity_l: [3.5, 4.7, 5.5, 6.2, 8],
        power_w: [1400, 1500, 1700, 1800],
        dual_basket: chance(0.3),
        dishwasher_safe: true,
      },
      desc: (s) =>
        `${s.capacity_l} L air fryer${s.dual_basket ? ' with two baskets' : ''}, ${s.power_w} W, dishwasher-safe basket.`,
    },
    {
      label: 'High-Speed Blender',
      tags: ['blender', 'smoothie', 'soup', 'kitchen appliance'],
      price: [49, 499],
      variants: { kind: 'none' },
      specs: {
        power_w: [700, 1000, 1200, 1500],
        capacity_l: [1.4, 1.8, 2],
        programs: between(3, 8),
      },
      desc: (s) =>
        `${s.power_w} W blender with a ${s.capacity_l} L jar and ${s.programs} presets for smoothies, soups and crushed ice.`,
    },
    {
      label: 'Stand Mixer',
      tags: ['mixer', 'stand mixer', 'baking', 'dough'],
      price: [199, 649],
      variants: { kind: 'color', colors: ['red', 'cream', 'black', 'sage', 'blue'] },
      specs: { bowl_l: [4.3, 4.8, 5.5, 6.6], power_w: [325, 500, 600, 1000], speeds: [6, 10, 12] },
      desc: (s) =>
        `Tilt-head stand mixer with a ${s.bowl_l} L stainless bowl and ${s.speeds} speeds for bread, cakes and cookies.`,
    },
    {
      label: "8-inch Chef's Knife",
      tags: ['knife', 'chef knife', 'cutlery', 'steel'],
      price: [29, 249],
      variants: { kind: 'none' },
      specs: {
        blade_length_cm: 20,
        steel: ['German X50CrMoV15', 'VG-10 Damascus', 'AUS-8', 'SG2 powder'],
        handle: ['pakkawood', 'olive wood', 'polymer', 'walnut'],
      },
      desc: (s) => `Forged chef's knife in ${s.steel} steel with a ${s.handle} handle.`,
    },
    {
      label: 'Nonstick Frying Pan',
      tags: ['pan', 'frying pan', 'skillet', 'nonstick', 'cookware'],
      price: [24, 129],
      variants: { kind: 'size', sizes: ['20 cm', '24 cm', '28 cm'], step: [10, 15] },
      specs: {
        induction_compatible: chance(0.7),
        oven_safe_c: [180, 230, 260],
        coating: ['ceramic', 'PTFE-free ceramic', 'titanium-reinforced'],
      },
      desc: (s) =>
        `${s.coating} nonstick pan, oven safe to ${s.oven_safe_c} °C${s.induction_compatible ? ', works on induction' : ''}.`,
    },
    {
      label: 'Electric Kettle',
      tags: ['kettle', 'electric kettle', 'tea', 'temperature control'],
      price: [29, 169],
      variants: { kind: 'color', colors: ['black', 'white', 'silver', 'cream'] },
      specs: {
        capacity_l: [1, 1.5, 1.7],
        temperature_control: chance(0.6),
        power_w: [1500, 2200, 3000],
      },
      desc: (s) =>
        `${s.capacity_l} L kettle${s.temperature_control ? ' with variable temperature for tea and coffee' : ''}, ${s.power_w} W.`,
    },
    {
      label: 'Burr Coffee Grinder',
      tags: ['coffee', 'grinder', 'burr grinder', 'espresso'],
      price: [49, 349],
      variants: { kind: 'none' },
      specs: {
        burr: ['conical steel', 'flat steel', 'ceramic conical'],
        grind_settings: [18, 31, 40, 60],
        hopper_g: [225, 250, 340],
      },
      desc: (s) =>
        `${s.burr} burr grinder with ${s.grind_settings} grind settings, from espresso to French press.`,
    },
  ],
};
