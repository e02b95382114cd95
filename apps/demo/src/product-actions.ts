/**
 * The shopper's clicks on a product (add to cart, save to the selection), reported in the
 * status line when they worked.
 */
import { useStore } from './store-context';

/** Actions on one product. */
export interface ProductActions {
  /** Add `quantity` of `sku` (the product's own when undefined); `label` names it. */
  addToCart(label: string, sku: string | undefined, quantity: number, done: string): Promise<void>;
  /** Save the product to the selection. */
  save(): Promise<void>;
}

/** The actions on `product` in the enclosing storefront. */
export function useProductActions(product: { product_id: string; name: string }): ProductActions {
  const { api, runAndReport } = useStore();
  return {
    addToCart: (label, sku, quantity, done) =>
      runAndReport(`add ${label}`, () => api.addToCart(product.product_id, sku, quantity), done),
    save: () =>
      runAndReport(
        `save ${product.name}`,
        () => api.addToSelection(product.product_id),
        `Saved ${product.name} to your selection.`,
      ),
  };
}
