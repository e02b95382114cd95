import type { CSSProperties } from 'react';

/** The two colors of each category's picture (other categories keep the stylesheet's grey). */
const CATEGORY_COLORS: Readonly<Record<string, readonly [string, string]>> = {
  audio: ['#4f46e5', '#312e81'],
  laptops: ['#0f766e', '#134e4a'],
  phones: ['#be185d', '#831843'],
  kitchen: ['#c2410c', '#7c2d12'],
  outdoor: ['#4d7c0f', '#365314'],
  shoes: ['#7c3aed', '#4c1d95'],
  apparel: ['#0369a1', '#0c4a6e'],
  home: ['#a16207', '#713f12'],
  fitness: ['#dc2626', '#7f1d1d'],
  gaming: ['#0891b2', '#164e63'],
};

/** A product's picture: its category on the category's gradient (decorative). */
export function ProductArt(props: { category: string; className: string }) {
  const colors = CATEGORY_COLORS[props.category];
  const style = colors
    ? ({ '--art-from': colors[0], '--art-to': colors[1] } as CSSProperties)
    : undefined;
  return (
    <div className={props.className} style={style} aria-hidden="true">
      <span>{props.category}</span>
    </div>
  );
}
