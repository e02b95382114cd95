/** The `phones` category of the commerce catalogue (see `./index.mjs`). */
import { chance } from './specs.mjs';

export const phones = {
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
      specs: {
        screen_in: [6.1, 6.3, 6.7, 6.8],
        camera_mp: [48, 50, 108, 200],
        battery_mah: [4000, 4500, 5000],
        five_g: true,
      },
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
      specs: {
        screen_in: [6.4, 6.5, 6.6, 6.7],
        camera_mp: [48, 50, 64],
        battery_mah: [5000, 5000, 5500],
        five_g: chance(0.8),
      },
      desc: (s) =>
        `Great-value phone with a big ${s.screen_in}-inch screen and a ${s.battery_mah} mAh battery that lasts two days.`,
    },
    {
      label: 'Compact Phone',
      tags: ['phone', 'smartphone', 'compact', 'small', 'mobile'],
      price: [399, 799],
      variants: { kind: 'color', colors: ['black', 'white', 'pink', 'blue'] },
      specs: {
        screen_in: [5.4, 5.8, 5.9],
        camera_mp: [12, 48, 50],
        battery_mah: [3000, 3300, 3600],
        five_g: true,
      },
      desc: (s) =>
        `One-hand ${s.screen_in}-inch phone that fits any pocket, with a ${s.camera_mp} MP camera.`,
    },
    {
      label: 'Rugged Phone',
      tags: ['phone', 'rugged', 'waterproof', 'outdoor', 'durable'],
      price: [299, 699],
      variants: { kind: 'none' },
      specs: {
        screen_in: [6.1, 6.5],
        water_resistance: ['IP68', 'IP69K'],
        drop_rating_m: [1.5, 1.8, 2],
        battery_mah: [6000, 8000, 10000],
      },
      desc: (s) =>
        `${s.water_resistance} waterproof phone that survives ${s.drop_rating_m} m drops, with a ${s.battery_mah} mAh battery.`,
    },
    {
      label: 'Foldable Phone',
      tags: ['phone', 'foldable', 'flip', 'smartphone', '5g'],
      price: [999, 1899],
      variants: { kind: 'color', colors: ['black', 'cream', 'green', 'silver'] },
      specs: {
        screen_in: [6.7, 7.6, 7.8],
        cover_screen_in: [3.4, 6.2, 6.3],
        camera_mp: [50, 200],
        five_g: true,
      },
      desc: (s) =>
        `Folding phone with a ${s.screen_in}-inch inner display and a ${s.cover_screen_in}-inch cover screen.`,
    },
  ],
};
