/** The `laptops` category of the commerce catalogue (see `./index.mjs`). */
import { chance } from './specs.mjs';

export const laptops = {
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
      specs: {
        screen_in: 13.3,
        cpu: ['Core Ultra 5', 'Core Ultra 7', 'Ryzen 5', 'Ryzen 7', 'Snapdragon X Plus'],
        ram_gb: [8, 16, 16, 32],
        weight_kg: [1.05, 1.12, 1.19, 1.24, 1.29],
        battery_life_hours: [12, 14, 16, 18, 20],
      },
      desc: (s) =>
        `A ${s.weight_kg} kg 13.3-inch laptop with ${s.cpu}, ${s.ram_gb} GB of memory and up to ${s.battery_life_hours} hours on battery.`,
    },
    {
      label: '14-inch Laptop',
      tags: ['laptop', 'notebook', 'work', 'student'],
      price: [549, 1299],
      variants: { kind: 'storage', options: ['512GB', '1TB'], step: [120, 120] },
      specs: {
        screen_in: 14,
        cpu: ['Core i5', 'Core i7', 'Core Ultra 5', 'Ryzen 5', 'Ryzen 7'],
        ram_gb: [8, 16, 16, 32],
        weight_kg: [1.35, 1.42, 1.48, 1.55],
        battery_life_hours: [9, 10, 12, 14],
      },
      desc: (s) =>
        `Everyday 14-inch laptop with ${s.cpu} and ${s.ram_gb} GB of memory, good for work and school.`,
    },
    {
      label: 'Gaming Laptop',
      tags: ['laptop', 'gaming', 'rtx', 'high refresh'],
      price: [999, 2799],
      variants: { kind: 'storage', options: ['1TB', '2TB'], step: [180, 180] },
      specs: {
        screen_in: [15.6, 16, 17.3],
        cpu: ['Core i7', 'Core i9', 'Ryzen 7', 'Ryzen 9'],
        gpu: ['RTX 4060', 'RTX 4070', 'RTX 4080', 'RTX 4090'],
        ram_gb: [16, 32, 32, 64],
        refresh_hz: [144, 165, 240],
      },
      desc: (s) =>
        `${s.screen_in}-inch ${s.refresh_hz} Hz gaming laptop with ${s.gpu} graphics and ${s.ram_gb} GB of memory.`,
    },
    {
      label: '2-in-1 Convertible Laptop',
      tags: ['laptop', '2-in-1', 'convertible', 'touchscreen', 'tablet', 'stylus'],
      price: [599, 1599],
      variants: { kind: 'color', colors: ['silver', 'graphite', 'blue'] },
      specs: {
        screen_in: [13.3, 14],
        cpu: ['Core Ultra 5', 'Core Ultra 7', 'Ryzen 5'],
        ram_gb: [8, 16],
        stylus_included: chance(0.5),
        weight_kg: [1.25, 1.32, 1.4],
      },
      desc: (s) =>
        `Touchscreen laptop that folds into a tablet${s.stylus_included ? ', stylus included' : ''}; ${s.cpu}, ${s.ram_gb} GB.`,
    },
    {
      label: 'Chromebook',
      tags: ['laptop', 'chromebook', 'student', 'budget', 'chromeos'],
      price: [199, 549],
      variants: { kind: 'none' },
      specs: {
        screen_in: [11.6, 14, 15.6],
        ram_gb: [4, 8],
        storage_gb: [64, 128, 256],
        battery_life_hours: [10, 12, 13],
      },
      desc: (s) =>
        `Affordable ${s.screen_in}-inch ChromeOS laptop with ${s.ram_gb} GB of memory and ${s.battery_life_hours} hours of battery, ideal for students.`,
    },
    {
      label: '16-inch Creator Laptop',
      tags: ['laptop', 'creator', 'video editing', 'oled', 'workstation'],
      price: [1399, 3199],
      variants: { kind: 'storage', options: ['1TB', '2TB'], step: [250, 250] },
      specs: {
        screen_in: 16,
        display: ['OLED 3.2K', 'Mini-LED 3.5K', 'IPS 2.5K'],
        cpu: ['Core Ultra 9', 'Ryzen 9', 'Core i9'],
        ram_gb: [32, 64],
        gpu: ['RTX 4060', 'RTX 4070'],
      },
      desc: (s) =>
        `16-inch ${s.display} laptop for photo and video work with ${s.cpu}, ${s.gpu} and ${s.ram_gb} GB of memory.`,
    },
  ],
};
