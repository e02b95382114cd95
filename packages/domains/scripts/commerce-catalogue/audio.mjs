/** The `audio` category of the commerce catalogue (see `./index.mjs`). */
import { between, chance } from './specs.mjs';

export const audio = {
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
      specs: {
        battery_life_hours: [20, 24, 30, 35, 40, 50],
        noise_cancelling: true,
        weight_g: between(220, 320),
        bluetooth: ['5.2', '5.3', '5.4'],
      },
      desc: (s) =>
        `Over-ear wireless headphones with active noise cancelling and up to ${s.battery_life_hours} hours of battery life.`,
    },
    {
      label: 'True Wireless Earbuds',
      tags: ['earbuds', 'wireless', 'bluetooth', 'in-ear'],
      price: [39, 249],
      variants: { kind: 'color', colors: ['black', 'white', 'navy', 'pink', 'graphite'] },
      specs: {
        battery_life_hours: [5, 6, 7, 8, 10],
        case_battery_hours: [18, 24, 28, 32, 36],
        noise_cancelling: chance(0.6),
        water_resistance: ['IPX4', 'IPX5', 'IP55'],
      },
      desc: (s) =>
        `Compact in-ear earbuds with ${s.battery_life_hours} hours of playback (${s.case_battery_hours} with the case)${s.noise_cancelling ? ' and active noise cancelling' : ''}.`,
    },
    {
      label: 'Sport Earbuds',
      tags: ['earbuds', 'wireless', 'running', 'sport', 'sweatproof', 'in-ear'],
      price: [49, 179],
      variants: { kind: 'color', colors: ['black', 'orange', 'teal', 'red'] },
      specs: {
        battery_life_hours: [8, 9, 10, 12],
        water_resistance: ['IPX5', 'IPX7', 'IP57'],
        ear_hooks: chance(0.5),
      },
      desc: (s) =>
        `Secure-fit earbuds for running and the gym, ${s.water_resistance} sweat and water resistant, ${s.battery_life_hours} hours per charge.`,
    },
    {
      label: 'Portable Bluetooth Speaker',
      tags: ['speaker', 'bluetooth', 'portable', 'waterproof', 'outdoor'],
      price: [29, 199],
      variants: { kind: 'color', colors: ['black', 'blue', 'red', 'sand', 'teal'] },
      specs: {
        battery_life_hours: [10, 12, 15, 20, 24],
        water_resistance: ['IPX6', 'IP67'],
        output_w: [10, 16, 20, 30, 40],
      },
      desc: (s) =>
        `Rugged ${s.water_resistance} speaker with ${s.output_w} W of sound and ${s.battery_life_hours} hours of battery for the beach or the backyard.`,
    },
    {
      label: 'Soundbar',
      tags: ['soundbar', 'tv', 'home theater', 'speaker', 'dolby atmos'],
      price: [149, 899],
      variants: { kind: 'none' },
      specs: {
        channels: ['2.1', '3.1', '5.1', '5.1.2', '7.1.4'],
        output_w: [120, 200, 300, 400, 600],
        dolby_atmos: chance(0.5),
        wireless_subwoofer: chance(0.6),
      },
      desc: (s) =>
        `${s.channels}-channel TV soundbar, ${s.output_w} W${s.dolby_atmos ? ' with Dolby Atmos' : ''}${s.wireless_subwoofer ? ' and a wireless subwoofer' : ''}.`,
    },
    {
      label: 'Studio Monitor Headphones',
      tags: ['headphones', 'wired', 'studio', 'over-ear', 'mixing'],
      price: [69, 349],
      variants: { kind: 'none' },
      specs: {
        impedance_ohm: [32, 38, 80, 250],
        cable: ['detachable coiled', 'detachable straight', 'fixed'],
        weight_g: between(240, 360),
      },
      desc: (s) =>
        `Closed-back wired headphones with a flat response for mixing and recording; ${s.impedance_ohm} ohm, ${s.cable} cable.`,
    },
  ],
};
