/** The `fitness` category of the commerce catalogue (see `./index.mjs`). */
import { chance } from './specs.mjs';

export const fitness = {
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
      specs: { max_weight_kg: [20, 24, 32, 41], increments_kg: [1, 2, 2.5] },
      desc: (s) =>
        `Pair of dial-adjustable dumbbells from 2 to ${s.max_weight_kg} kg in ${s.increments_kg} kg steps.`,
    },
    {
      label: 'Yoga Mat',
      tags: ['yoga mat', 'mat', 'yoga', 'pilates', 'non-slip'],
      price: [19, 129],
      variants: { kind: 'color', colors: ['purple', 'teal', 'black', 'sage', 'pink'] },
      specs: {
        thickness_mm: [3, 4, 5, 6, 8],
        material: ['natural rubber', 'TPE', 'cork', 'PU and rubber'],
        length_cm: [173, 183, 200],
      },
      desc: (s) => `${s.thickness_mm} mm non-slip ${s.material} mat, ${s.length_cm} cm long.`,
    },
    {
      label: 'Fitness Tracker',
      tags: ['fitness tracker', 'tracker', 'wearable', 'heart rate', 'sleep tracking'],
      price: [49, 199],
      variants: { kind: 'color', colors: ['black', 'pink', 'blue', 'white'] },
      specs: { battery_life_days: [5, 7, 10, 14], gps: chance(0.5), water_resistance: '5 ATM' },
      desc: (s) =>
        `Slim tracker for steps, heart rate and sleep, ${s.battery_life_days}-day battery${s.gps ? ', built-in GPS' : ''}.`,
    },
    {
      label: 'GPS Smartwatch',
      tags: ['smartwatch', 'watch', 'gps', 'running', 'wearable'],
      price: [149, 699],
      variants: { kind: 'color', colors: ['black', 'silver', 'green', 'white'] },
      specs: {
        battery_life_days: [2, 7, 14, 21],
        screen: ['AMOLED', 'MIP'],
        offline_maps: chance(0.5),
      },
      desc: (s) =>
        `GPS sport watch with an ${s.screen} display and ${s.battery_life_days}-day battery${s.offline_maps ? ', offline maps' : ''}.`,
    },
    {
      label: 'Resistance Bands Set',
      tags: ['resistance bands', 'bands', 'strength', 'home gym', 'travel'],
      price: [15, 59],
      variants: { kind: 'none' },
      specs: { bands: [4, 5, 6], max_resistance_kg: [30, 45, 68], door_anchor: chance(0.7) },
      desc: (s) =>
        `${s.bands} stackable bands up to ${s.max_resistance_kg} kg${s.door_anchor ? ' with handles and a door anchor' : ''}.`,
    },
    {
      label: 'Cast Iron Kettlebell',
      tags: ['kettlebell', 'weights', 'strength', 'home gym'],
      price: [25, 59],
      variants: { kind: 'size', sizes: ['8 kg', '12 kg', '16 kg', '20 kg'], step: [12, 14] },
      specs: { finish: ['powder coat', 'vinyl', 'enamel'] },
      desc: (s) => `Single-cast iron kettlebell with a wide handle and ${s.finish} finish.`,
    },
    {
      label: 'Foam Roller',
      tags: ['foam roller', 'recovery', 'massage', 'mobility'],
      price: [19, 69],
      variants: { kind: 'none' },
      specs: {
        length_cm: [33, 45, 90],
        density: ['soft', 'medium', 'firm'],
        vibrating: chance(0.2),
      },
      desc: (s) =>
        `${s.length_cm} cm ${s.density} foam roller${s.vibrating ? ' with vibration modes' : ''} for recovery.`,
    },
  ],
};
