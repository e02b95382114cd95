/** The `outdoor` category of the commerce catalogue (see `./index.mjs`). */
import { between, chance } from './specs.mjs';

export const outdoor = {
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
      specs: {
        capacity_people: 2,
        weight_kg: [1.1, 1.4, 1.8, 2.3],
        seasons: [3, 3, 4],
        waterproof_mm: [1500, 2000, 3000],
      },
      desc: (s) =>
        `${s.seasons}-season two-person tent weighing ${s.weight_kg} kg, ${s.waterproof_mm} mm waterproof fly.`,
    },
    {
      label: 'Mummy Sleeping Bag',
      tags: ['sleeping bag', 'camping', 'down', 'backpacking'],
      price: [79, 449],
      variants: { kind: 'size', sizes: ['regular', 'long'], step: [20, 20] },
      specs: {
        temperature_rating_c: [-12, -7, -2, 2, 7],
        fill: ['650-fill down', '800-fill down', 'synthetic'],
        weight_kg: [0.8, 1.0, 1.3, 1.6],
      },
      desc: (s) =>
        `${s.fill} sleeping bag rated to ${s.temperature_rating_c} °C, ${s.weight_kg} kg.`,
    },
    {
      label: '40L Hiking Backpack',
      tags: ['backpack', 'hiking', 'daypack', 'pack', 'travel'],
      price: [69, 299],
      variants: { kind: 'color', colors: ['black', 'blue', 'olive', 'red'] },
      specs: {
        capacity_l: 40,
        weight_kg: [0.9, 1.1, 1.3, 1.5],
        rain_cover: chance(0.6),
        hydration_compatible: true,
      },
      desc: (s) =>
        `40 L pack with a ventilated back panel${s.rain_cover ? ', integrated rain cover' : ''} and a hydration sleeve.`,
    },
    {
      label: 'Camping Stove',
      tags: ['stove', 'camping', 'cooking', 'backpacking', 'gas'],
      price: [29, 179],
      variants: { kind: 'none' },
      specs: {
        fuel: ['isobutane', 'propane', 'multi-fuel'],
        boil_time_min: [2.5, 3, 3.5, 4],
        weight_g: between(80, 520),
      },
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
      specs: {
        capacity_l: [0.5, 0.75, 1],
        keeps_cold_hours: [24, 36, 48],
        keeps_hot_hours: [12, 18, 24],
      },
      desc: (s) =>
        `${s.capacity_l} L stainless bottle that keeps drinks cold for ${s.keeps_cold_hours} hours and hot for ${s.keeps_hot_hours}.`,
    },
    {
      label: 'Rechargeable Headlamp',
      tags: ['headlamp', 'light', 'camping', 'running', 'rechargeable'],
      price: [19, 99],
      variants: { kind: 'none' },
      specs: {
        lumens: [350, 450, 600, 900, 1200],
        water_resistance: ['IPX4', 'IPX6', 'IPX7'],
        battery_life_hours: [4, 6, 8, 12],
      },
      desc: (s) =>
        `${s.lumens}-lumen USB-C headlamp, ${s.water_resistance}, up to ${s.battery_life_hours} hours on high.`,
    },
    {
      label: 'Folding Camp Chair',
      tags: ['chair', 'camping', 'folding', 'beach', 'lightweight'],
      price: [29, 149],
      variants: { kind: 'color', colors: ['black', 'green', 'blue', 'sand'] },
      specs: {
        weight_kg: [0.9, 1.2, 2.5, 3.8],
        max_load_kg: [110, 120, 145],
        cup_holder: chance(0.7),
      },
      desc: (s) =>
        `Packable camp chair that holds ${s.max_load_kg} kg and weighs ${s.weight_kg} kg${s.cup_holder ? ', with a cup holder' : ''}.`,
    },
  ],
};
