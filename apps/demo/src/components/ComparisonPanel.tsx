import { useFeature } from '@scenaro/sdk/react';
import { FEATURES, money } from '../types';
import type { Comparison } from '../types';
import { FeaturePanel } from './FeaturePanel';

function attributeLabel(attribute: string): string {
  const label = attribute.replace(/_options$/, ' options').replace(/_/g, ' ');
  return label.charAt(0).toUpperCase() + label.slice(1);
}

function cell(attribute: string, value: string | number | boolean | null): string {
  if (value === null) return '—';
  if (attribute === 'price' && typeof value === 'number') return money(value);
  if (attribute === 'in_stock') return value ? 'In stock' : 'Sold out';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (attribute === 'review_count' && typeof value === 'number')
    return value.toLocaleString('en-US');
  return String(value);
}

/** The `comparison` feature: a table from `show_comparison`'s componentData. */
export function ComparisonPanel() {
  const feature = useFeature<Comparison>(FEATURES.COMPARISON);
  const data = feature.componentData;
  if (!data && feature.status === 'idle') return null;
  return (
    <FeaturePanel
      name={FEATURES.COMPARISON}
      feature={feature}
      headingId="comparison-title"
      heading="Comparison"
      what="comparison"
    >
      {data ? (
        <div className="table-scroll" role="region" aria-label="Comparison table" tabIndex={0}>
          <table className="comparison">
            <thead>
              <tr>
                <th scope="col">
                  <span className="sr-only">Attribute</span>
                </th>
                {data.products.map((p) => (
                  <th scope="col" key={p.product_id}>
                    {p.name}
                    <span className="muted block">{p.brand}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.rows.map((row) => (
                <tr key={row.attribute}>
                  <th scope="row">{attributeLabel(row.attribute)}</th>
                  {row.values.map((value, i) => (
                    <td key={data.products[i]?.product_id ?? i}>{cell(row.attribute, value)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </FeaturePanel>
  );
}
