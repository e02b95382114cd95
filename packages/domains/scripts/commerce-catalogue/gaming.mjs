/** The `gaming` category of the commerce catalogue (see `./index.mjs`). */
import { between, chance } from './specs.mjs';

export const gaming = {
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
      specs: {
        battery_life_hours: [20, 30, 50, 80],
        surround: ['7.1 virtual', 'spatial audio', 'stereo'],
        mic: 'detachable',
      },
      desc: (s) =>
        `Low-latency wireless headset with ${s.surround} sound, a detachable mic and ${s.battery_life_hours} hours of battery.`,
    },
    {
      label: 'Mechanical Keyboard',
      tags: ['keyboard', 'mechanical', 'gaming', 'rgb'],
      price: [49, 249],
      variants: { kind: 'switch', options: ['linear red', 'tactile brown', 'clicky blue'] },
      specs: {
        layout: ['full size', 'TKL', '75%', '65%'],
        wireless: chance(0.5),
        hot_swappable: chance(0.5),
      },
      desc: (s) =>
        `${s.layout} mechanical keyboard with RGB lighting${s.wireless ? ', wireless' : ''}${s.hot_swappable ? ', hot-swappable switches' : ''}.`,
    },
    {
      label: 'Gaming Mouse',
      tags: ['mouse', 'gaming', 'wireless', 'esports'],
      price: [29, 159],
      variants: { kind: 'color', colors: ['black', 'white', 'pink'] },
      specs: { dpi: [16000, 26000, 30000], weight_g: between(55, 110), wireless: chance(0.6) },
      desc: (s) =>
        `${s.weight_g} g ${s.wireless ? 'wireless' : 'wired'} mouse with a ${s.dpi} DPI sensor.`,
    },
    {
      label: '27-inch Gaming Monitor',
      tags: ['monitor', 'gaming', 'display', 'high refresh', '27 inch'],
      price: [199, 899],
      variants: { kind: 'none' },
      specs: {
        resolution: ['1440p', '4K', '1080p'],
        refresh_hz: [144, 165, 240, 360],
        panel: ['IPS', 'VA', 'OLED'],
      },
      desc: (s) => `27-inch ${s.resolution} ${s.panel} monitor running at ${s.refresh_hz} Hz.`,
    },
    {
      label: 'Wireless Controller',
      tags: ['controller', 'gamepad', 'gaming', 'wireless', 'pc'],
      price: [39, 199],
      variants: { kind: 'color', colors: ['black', 'white', 'red', 'blue'] },
      specs: {
        hall_effect_sticks: chance(0.5),
        back_paddles: chance(0.4),
        battery_life_hours: [20, 30, 40],
      },
      desc: (s) =>
        `Wireless controller for PC and consoles${s.hall_effect_sticks ? ' with drift-free Hall effect sticks' : ''}${s.back_paddles ? ' and back paddles' : ''}.`,
    },
    {
      label: 'Streaming Microphone',
      tags: ['microphone', 'usb mic', 'streaming', 'podcast'],
      price: [49, 199],
      variants: { kind: 'none' },
      specs: { connection: ['USB-C', 'USB-C and XLR'], pattern: ['cardioid', 'multi-pattern'] },
      desc: (s) => `${s.pattern} ${s.connection} microphone for streaming and podcasts.`,
    },
  ],
};
