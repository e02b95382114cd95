/** The `home` category of the commerce catalogue (see `./index.mjs`). */
import { chance } from './specs.mjs';

export const home = {
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
      specs: {
        suction_pa: [2500, 4000, 5500, 8000],
        mopping: chance(0.5),
        self_emptying: chance(0.4),
        runtime_min: [120, 150, 180],
      },
      desc: (s) =>
        `${s.suction_pa} Pa robot vacuum with lidar mapping${s.mopping ? ', mopping' : ''}${s.self_emptying ? ' and a self-emptying dock' : ''}.`,
    },
    {
      label: 'HEPA Air Purifier',
      tags: ['air purifier', 'hepa', 'allergies', 'air quality', 'smart home'],
      price: [89, 649],
      variants: { kind: 'none' },
      specs: {
        room_size_m2: [20, 35, 50, 75, 100],
        cadr_m3h: [180, 250, 400, 600],
        noise_db: [22, 24, 28, 32],
      },
      desc: (s) =>
        `True HEPA purifier for rooms up to ${s.room_size_m2} m², CADR ${s.cadr_m3h} m³/h, as quiet as ${s.noise_db} dB.`,
    },
    {
      label: 'Smart Thermostat',
      tags: ['thermostat', 'smart home', 'heating', 'energy saving'],
      price: [99, 279],
      variants: { kind: 'color', colors: ['white', 'black', 'silver'] },
      specs: {
        voice_assistant: ['Alexa', 'Google Assistant', 'Alexa and Google Assistant'],
        room_sensor_included: chance(0.5),
      },
      desc: (s) =>
        `Learning thermostat that works with ${s.voice_assistant}${s.room_sensor_included ? '; room sensor included' : ''}.`,
    },
    {
      label: 'LED Desk Lamp',
      tags: ['lamp', 'desk lamp', 'led', 'lighting', 'office'],
      price: [29, 189],
      variants: { kind: 'color', colors: ['black', 'white', 'silver'] },
      specs: {
        brightness_lm: [500, 800, 1000],
        color_temperature: '2700-6500K',
        usb_charging: chance(0.6),
      },
      desc: (s) =>
        `Dimmable ${s.brightness_lm} lm desk lamp with adjustable color temperature${s.usb_charging ? ' and a USB charging port' : ''}.`,
    },
    {
      label: 'Memory Foam Pillow',
      tags: ['pillow', 'memory foam', 'sleep', 'bedding'],
      price: [29, 119],
      variants: { kind: 'size', sizes: ['standard', 'queen', 'king'], step: [10, 10] },
      specs: { firmness: ['soft', 'medium', 'firm'], cooling_cover: chance(0.6) },
      desc: (s) =>
        `${s.firmness} contour memory foam pillow${s.cooling_cover ? ' with a cooling cover' : ''}.`,
    },
    {
      label: 'Weighted Blanket',
      tags: ['blanket', 'weighted blanket', 'sleep', 'bedding', 'cozy'],
      price: [59, 199],
      variants: { kind: 'size', sizes: ['5 kg', '7 kg', '9 kg'], step: [15, 15] },
      specs: { cover: ['minky', 'cotton', 'bamboo'], dimensions_cm: ['122x183', '152x203'] },
      desc: (s) => `Evenly weighted glass-bead blanket with a removable ${s.cover} cover.`,
    },
    {
      label: 'Cordless Stick Vacuum',
      tags: ['vacuum', 'stick vacuum', 'cordless', 'cleaning'],
      price: [149, 699],
      variants: { kind: 'none' },
      specs: {
        runtime_min: [40, 50, 60, 70],
        weight_kg: [1.5, 2.2, 2.6, 3],
        hepa_filter: chance(0.7),
      },
      desc: (s) =>
        `Lightweight ${s.weight_kg} kg cordless vacuum with ${s.runtime_min} minutes of runtime${s.hepa_filter ? ' and a HEPA filter' : ''}.`,
    },
  ],
};
