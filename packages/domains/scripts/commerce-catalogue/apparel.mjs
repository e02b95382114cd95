/** The `apparel` category of the commerce catalogue (see `./index.mjs`). */
import { between, chance } from './specs.mjs';

export const apparel = {
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
      specs: { waterproof_mm: [10000, 20000, 28000], packable: chance(0.6), hood: 'adjustable' },
      desc: (s) =>
        `${s.waterproof_mm} mm waterproof, breathable shell with an adjustable hood${s.packable ? '; packs into its own pocket' : ''}.`,
    },
    {
      label: 'Fleece Hoodie',
      tags: ['hoodie', 'fleece', 'sweater', 'warm', 'casual'],
      price: [39, 129],
      variants: { kind: 'apparel', colors: ['gray', 'navy', 'black', 'burgundy', 'olive'] },
      specs: {
        material: ['recycled polyester fleece', 'cotton fleece', 'grid fleece'],
        fit: ['regular', 'relaxed', 'slim'],
      },
      desc: (s) => `Soft ${s.material} hoodie with a ${s.fit} fit and a kangaroo pocket.`,
    },
    {
      label: 'Merino Wool T-Shirt',
      tags: ['t-shirt', 'shirt', 'merino', 'wool', 'base layer', 'travel'],
      price: [45, 95],
      variants: { kind: 'apparel', colors: ['black', 'white', 'gray', 'navy', 'sage'] },
      specs: { merino_percent: [87, 100], weight_gsm: [150, 170, 190], fit: ['regular', 'slim'] },
      desc: (s) =>
        `${s.merino_percent}% merino tee, ${s.weight_gsm} g/m², odor resistant and great for travel.`,
    },
    {
      label: 'Down Vest',
      tags: ['vest', 'down', 'insulated', 'warm', 'outerwear'],
      price: [79, 229],
      variants: { kind: 'apparel', colors: ['black', 'navy', 'olive', 'orange'] },
      specs: {
        fill: ['600-fill down', '700-fill down', '800-fill down'],
        weight_g: between(180, 320),
      },
      desc: (s) => `Lightweight ${s.fill} vest, ${s.weight_g} g, packs into a chest pocket.`,
    },
    {
      label: 'Stretch Chino Pants',
      tags: ['pants', 'chinos', 'trousers', 'stretch', 'casual'],
      price: [49, 119],
      variants: { kind: 'apparel', colors: ['sand', 'navy', 'olive', 'charcoal'] },
      specs: { fit: ['slim', 'straight', 'relaxed'], stretch: true },
      desc: (s) => `${s.fit}-fit chinos in a cotton blend with a little stretch.`,
    },
    {
      label: 'Running Shorts',
      tags: ['shorts', 'running', 'sport', 'gym', 'lightweight'],
      price: [24, 69],
      variants: { kind: 'apparel', colors: ['black', 'blue', 'gray', 'orange'] },
      specs: { inseam_cm: [10, 13, 18], liner: chance(0.6), phone_pocket: chance(0.7) },
      desc: (s) =>
        `${s.inseam_cm} cm running shorts${s.liner ? ' with a built-in liner' : ''}${s.phone_pocket ? ' and a zip phone pocket' : ''}.`,
    },
  ],
};
