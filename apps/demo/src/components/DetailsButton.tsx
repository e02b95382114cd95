import { useStore } from '../store-context';

/** Opens a product in the detail panel. */
export function DetailsButton(props: {
  product: { product_id: string; name: string };
  className?: string;
}) {
  const { showProduct } = useStore();
  return (
    <button
      type="button"
      {...(props.className ? { className: props.className } : {})}
      onClick={() => showProduct(props.product.product_id)}
      aria-label={`Details of ${props.product.name}`}
    >
      Details
    </button>
  );
}
