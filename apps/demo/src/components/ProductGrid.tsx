import { useCollection, useFeature } from '@scenaro/sdk/react';
import { useProductActions } from '../product-actions';
import { useStore } from '../store-context';
import { COLLECTIONS, FEATURES, money, OPTION_KEYS } from '../types';
import type { CartView, GridData, ProductSummary, SelectionView } from '../types';
import { DetailsButton } from './DetailsButton';
import { FeaturePanel } from './FeaturePanel';
import { ProductArt } from './ProductArt';

function optionText(product: ProductSummary): string {
  const options = product.options ?? {};
  return OPTION_KEYS.filter((k) => options[k] !== undefined)
    .map((k) => `${(options[k] ?? []).length} ${k === 'switch' ? 'switches' : `${k}s`}`)
    .join(', ');
}

function ProductCard(props: {
  product: ProductSummary;
  position: number;
  inCart: boolean;
  inSelection: boolean;
}) {
  const { product, position } = props;
  const { connected, showProduct } = useStore();
  const { addToCart, save } = useProductActions(product);
  const hasOptions = product.options !== undefined;
  const add = () => addToCart(product.name, undefined, 1, `Added ${product.name} to your cart.`);
  return (
    <li className="card" data-product-id={product.product_id}>
      <ProductArt category={product.category} className="card-art" />
      <span className="position" title={`Result ${position}`}>
        <span className="sr-only">Result </span>
        {position}
      </span>
      <h3 className="card-title">{product.name}</h3>
      <p className="card-brand">{product.brand}</p>
      <p className="card-price">
        {money(product.price)}
        {hasOptions ? <span className="muted"> and up</span> : null}
      </p>
      <p className="card-meta">
        Rated {product.rating} / 5 · {product.review_count.toLocaleString('en-US')} reviews
      </p>
      <p className={product.in_stock ? 'stock in' : 'stock out'}>
        {product.in_stock ? 'In stock' : 'Sold out'}
        {hasOptions ? ` · ${optionText(product)}` : ''}
      </p>
      {props.inCart || props.inSelection ? (
        <p className="card-tags">
          {props.inCart ? <span className="tag">In your cart</span> : null}
          {props.inSelection ? <span className="tag">In your selection</span> : null}
        </p>
      ) : null}
      <div className="card-actions">
        {hasOptions ? (
          <button
            type="button"
            className="wide"
            onClick={() => showProduct(product.product_id)}
            aria-label={`Choose options of ${product.name}`}
          >
            Choose options
          </button>
        ) : (
          <button
            type="button"
            className="primary wide"
            disabled={!connected || !product.in_stock}
            onClick={() => void add()}
            aria-label={`Add ${product.name} to cart`}
          >
            Add to cart
          </button>
        )}
        <DetailsButton product={product} />
        <button
          type="button"
          disabled={!connected || props.inSelection}
          onClick={() => void save()}
          aria-label={`Save ${product.name} to selection`}
        >
          {props.inSelection ? 'Saved' : 'Save'}
        </button>
      </div>
    </li>
  );
}

/** The `product_grid` feature: cards from `show_products`' componentData. */
export function ProductGrid() {
  const feature = useFeature<GridData>(FEATURES.PRODUCT_GRID);
  const [cart] = useCollection<CartView | null>(COLLECTIONS.CART);
  const [selection] = useCollection<SelectionView | null>(COLLECTIONS.SELECTION);
  const data = feature.componentData;
  return (
    <FeaturePanel
      name={FEATURES.PRODUCT_GRID}
      feature={feature}
      headingId="grid-title"
      heading={data?.title ?? 'Products'}
      what="results"
    >
      {data ? (
        <ol className="grid" aria-label="Search results">
          {data.products.map((product, i) => (
            <ProductCard
              key={product.product_id}
              product={product}
              position={i + 1}
              inCart={cart?.items.some((l) => l.product_id === product.product_id) ?? false}
              inSelection={selection?.product_ids.includes(product.product_id) ?? false}
            />
          ))}
        </ol>
      ) : feature.status === 'idle' ? (
        <p className="empty">
          Ask the assistant to find something, for example “show me headphones under $100”. The
          results appear here, numbered so you can say “show the first one”.
        </p>
      ) : null}
    </FeaturePanel>
  );
}
