import { useCollection, useFeature } from '@scenaro/sdk/react';
import { useId, useState } from 'react';
import { useProductActions } from '../product-actions';
import { useStore } from '../store-context';
import { COLLECTIONS, FEATURES, money, OPTION_KEYS } from '../types';
import type { DetailData, OptionKey, ProductDetails, SelectionView, VariantView } from '../types';
import { FeaturePanel } from './FeaturePanel';
import { ProductArt } from './ProductArt';

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).replace(/_/g, ' ');
}

function optionKeys(product: ProductDetails): OptionKey[] {
  return OPTION_KEYS.filter((k) => product.variants?.some((v) => v[k] !== undefined));
}

function initialChoice(product: ProductDetails, sku?: string): Partial<Record<OptionKey, string>> {
  const variants = product.variants ?? [];
  const start =
    variants.find((v) => v.sku === sku) ?? variants.find((v) => v.in_stock) ?? variants[0];
  const choice: Partial<Record<OptionKey, string>> = {};
  for (const key of optionKeys(product)) if (start?.[key] !== undefined) choice[key] = start[key];
  return choice;
}

function specValue(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

function DetailBody(props: { data: DetailData }) {
  const { product, selectedSku } = props.data;
  const { connected } = useStore();
  const { addToCart, save } = useProductActions(product);
  const [selection] = useCollection<SelectionView | null>(COLLECTIONS.SELECTION);
  const [choice, setChoice] = useState(() => initialChoice(product, selectedSku));
  const [quantity, setQuantity] = useState(1);
  const id = useId();
  const keys = optionKeys(product);
  const variants = product.variants ?? [];
  const variant: VariantView | undefined =
    keys.length === 0 ? undefined : variants.find((v) => keys.every((k) => v[k] === choice[k]));
  const price = variant?.price ?? product.price;
  const stock = keys.length === 0 ? (product.stock ?? 0) : (variant?.stock ?? 0);
  const sellable = (keys.length === 0 || variant !== undefined) && stock > 0;
  const saved = selection?.product_ids.includes(product.product_id) ?? false;
  const label = variant
    ? `${product.name} (${keys.map((k) => variant[k]).join(', ')})`
    : product.name;

  const add = () =>
    addToCart(label, variant?.sku, quantity, `Added ${quantity} × ${label} to your cart.`);

  return (
    <article className="detail" data-product-id={product.product_id}>
      <ProductArt category={product.category} className="detail-art" />
      <div className="detail-body">
        <h3 className="detail-title">{product.name}</h3>
        <p className="card-brand">
          {product.brand} · {product.category}
        </p>
        <p className="detail-price">{money(price)}</p>
        <p className="card-meta">
          Rated {product.rating} / 5 · {product.review_count.toLocaleString('en-US')} reviews
        </p>
        <p>{product.description}</p>
        <div className="detail-form">
          {keys.map((key) => {
            const values = [...new Set(variants.flatMap((v) => (v[key] ? [v[key]] : [])))];
            return (
              <div className="field" key={key}>
                <label htmlFor={`${id}-${key}`}>{capitalize(key)}</label>
                <select
                  id={`${id}-${key}`}
                  value={choice[key] ?? ''}
                  onChange={(e) => setChoice({ ...choice, [key]: e.target.value })}
                >
                  {values.map((value) => {
                    const any = variants.some((v) => v[key] === value && v.in_stock);
                    return (
                      <option key={value} value={value}>
                        {value}
                        {any ? '' : ' (sold out)'}
                      </option>
                    );
                  })}
                </select>
              </div>
            );
          })}
          <div className="field">
            <label htmlFor={`${id}-qty`}>Quantity</label>
            <input
              id={`${id}-qty`}
              type="number"
              min={1}
              max={10}
              value={quantity}
              onChange={(e) => setQuantity(Math.min(10, Math.max(1, Number(e.target.value) || 1)))}
            />
          </div>
        </div>
        <p className={sellable ? 'stock in' : 'stock out'}>
          {keys.length > 0 && !variant
            ? 'This combination is not sold.'
            : stock > 0
              ? `In stock (${stock} left)`
              : 'Sold out'}
        </p>
        <div className="card-actions">
          <button
            type="button"
            className="primary"
            disabled={!connected || !sellable}
            onClick={() => void add()}
          >
            Add to cart
          </button>
          <button type="button" disabled={!connected || saved} onClick={() => void save()}>
            {saved ? 'In your selection' : 'Save to selection'}
          </button>
        </div>
        {Object.keys(product.specs).length > 0 ? (
          <dl className="specs">
            {Object.entries(product.specs).map(([key, value]) => (
              <div key={key}>
                <dt>{capitalize(key)}</dt>
                <dd>{specValue(value)}</dd>
              </div>
            ))}
          </dl>
        ) : null}
      </div>
    </article>
  );
}

/** The `product_detail` feature: one product from `show_product` (or the shopper's click). */
export function ProductDetail() {
  const feature = useFeature<DetailData>(FEATURES.PRODUCT_DETAIL);
  const data = feature.componentData;
  return (
    <FeaturePanel
      name={FEATURES.PRODUCT_DETAIL}
      feature={feature}
      id="product-detail"
      headingId="detail-heading"
      heading="Product details"
      focusableHeading
      what="product"
    >
      {data ? (
        <DetailBody key={`${feature.requestId ?? ''}:${data.product.product_id}`} data={data} />
      ) : feature.status === 'idle' ? (
        <p className="empty">Pick “Details” on a product, or ask “show the first one”.</p>
      ) : null}
    </FeaturePanel>
  );
}
