/** The `shoes` category of the commerce catalogue (see `./index.mjs`). */
import { between, chance } from './specs.mjs';

export const shoes = {
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
      specs: {
        drop_mm: [4, 6, 8, 10],
        weight_g: between(210, 310),
        cushioning: ['moderate', 'high', 'max'],
      },
      desc: (s) =>
        `Road running shoe with ${s.cushioning} cushioning, ${s.drop_mm} mm drop, ${s.weight_g} g.`,
    },
    {
      label: 'Trail Running Shoes',
      tags: ['trail running', 'running shoes', 'shoes', 'grip', 'trail'],
      price: [99, 189],
      variants: { kind: 'shoe', colors: ['black', 'olive', 'orange', 'blue'] },
      specs: { lug_depth_mm: [3.5, 4, 5], waterproof: chance(0.4), weight_g: between(250, 330) },
      desc: (s) =>
        `Trail shoe with ${s.lug_depth_mm} mm lugs for mud and rock${s.waterproof ? ', waterproof membrane' : ''}.`,
    },
    {
      label: 'Waterproof Hiking Boots',
      tags: ['hiking boots', 'boots', 'waterproof', 'hiking', 'shoes'],
      price: [119, 279],
      variants: { kind: 'shoe', colors: ['brown', 'black', 'gray'] },
      specs: { waterproof: true, ankle_height: ['mid', 'high'], weight_g: between(480, 720) },
      desc: (s) =>
        `${s.ankle_height}-cut waterproof leather hiking boot with a grippy rubber outsole.`,
    },
    {
      label: 'Leather Sneakers',
      tags: ['sneakers', 'shoes', 'leather', 'casual', 'everyday'],
      price: [69, 229],
      variants: { kind: 'shoe', colors: ['white', 'black', 'navy', 'cream'] },
      specs: {
        upper: ['full-grain leather', 'suede', 'nubuck'],
        sole: ['rubber cupsole', 'vulcanized rubber'],
      },
      desc: (s) => `Minimal everyday sneaker in ${s.upper} on a ${s.sole}.`,
    },
    {
      label: 'Walking Shoes',
      tags: ['walking shoes', 'shoes', 'comfort', 'everyday', 'sneakers'],
      price: [59, 159],
      variants: { kind: 'shoe', colors: ['gray', 'black', 'navy'] },
      specs: { wide_fit_available: chance(0.5), insole: ['memory foam', 'orthotic', 'cork'] },
      desc: (s) => `All-day walking shoe with a ${s.insole} insole and a breathable mesh upper.`,
    },
    {
      label: 'Slide Sandals',
      tags: ['sandals', 'slides', 'summer', 'shoes', 'beach'],
      price: [24, 79],
      variants: { kind: 'shoe', colors: ['black', 'sand', 'navy'] },
      specs: {
        material: ['EVA foam', 'cork and leather', 'recycled rubber'],
        water_friendly: chance(0.7),
      },
      desc: (s) =>
        `Comfortable ${s.material} slides${s.water_friendly ? ' you can wear in the water' : ''}.`,
    },
  ],
};
