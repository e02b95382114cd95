import { useCollection } from '@scenaro/sdk/react';
import { useState } from 'react';
import { useStore } from '../store-context';
import { COLLECTIONS, describeOptions, money } from '../types';
import type { CartLine, CartView } from '../types';

function lineLabel(line: CartLine): string {
  const options = describeOptions(line.options);
  return options ? `${line.name} (${options})` : line.name;
}

/** The cart: the `cart` collection, kept in the bot session's db and shared with the agent. */
export function CartPanel() {
  const [cart] = useCollection<CartView | null>(COLLECTIONS.CART);
  const { api, connected, runAndReport } = useStore();
  const [busy, setBusy] = useState<string | undefined>();

  /** Run one line's action; `what` says it in words ("remove X"), `done` once it worked. */
  const act = async (sku: string, what: string, done: string, action: () => Promise<CartView>) => {
    setBusy(sku);
    try {
      await runAndReport(what, action, done);
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <section className="panel" aria-labelledby="cart-title" data-panel="cart">
      <h2 id="cart-title">
        Cart{' '}
        {cart ? (
          <span className="count">
            {cart.item_count} item{cart.item_count === 1 ? '' : 's'}
          </span>
        ) : null}
      </h2>
      {!cart ? (
        <p className="empty">Connect to the assistant to load your cart.</p>
      ) : cart.items.length === 0 ? (
        <p className="empty">Your cart is empty.</p>
      ) : (
        <>
          <ul className="lines" aria-label="Cart items">
            {cart.items.map((line) => {
              const label = lineLabel(line);
              const disabled = !connected || busy === line.sku;
              return (
                <li key={line.sku} className="line" data-sku={line.sku}>
                  <div className="line-text">
                    <span className="line-name">{line.name}</span>
                    {describeOptions(line.options) ? (
                      <span className="muted block">{describeOptions(line.options)}</span>
                    ) : null}
                    <span className="muted block">
                      {money(line.unit_price)} each · {money(line.line_total)}
                    </span>
                  </div>
                  <div className="line-actions">
                    <div className="stepper" role="group" aria-label={`Quantity of ${label}`}>
                      <button
                        type="button"
                        disabled={disabled || line.quantity <= 1}
                        aria-label={`One less ${label}`}
                        onClick={() =>
                          void act(
                            line.sku,
                            `change the quantity of ${label}`,
                            `${label}: quantity ${line.quantity - 1}.`,
                            () => api.updateCart(line.sku, line.quantity - 1),
                          )
                        }
                      >
                        -
                      </button>
                      <span className="qty" aria-live="polite">
                        {line.quantity}
                      </span>
                      <button
                        type="button"
                        disabled={disabled || line.quantity >= Math.min(10, line.stock)}
                        aria-label={`One more ${label}`}
                        onClick={() =>
                          void act(
                            line.sku,
                            `change the quantity of ${label}`,
                            `${label}: quantity ${line.quantity + 1}.`,
                            () => api.updateCart(line.sku, line.quantity + 1),
                          )
                        }
                      >
                        +
                      </button>
                    </div>
                    <button
                      type="button"
                      className="link danger"
                      disabled={disabled}
                      aria-label={`Remove ${label} from cart`}
                      onClick={() =>
                        void act(
                          line.sku,
                          `remove ${label}`,
                          `Removed ${label} from your cart.`,
                          () => api.removeFromCart(line.sku),
                        )
                      }
                    >
                      Remove
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
          <dl className="totals">
            <div>
              <dt>Subtotal</dt>
              <dd>{money(cart.subtotal)}</dd>
            </div>
            <div>
              <dt>Tax ({(cart.tax_rate * 100).toFixed(2)}%)</dt>
              <dd>{money(cart.tax)}</dd>
            </div>
            <div className="total">
              <dt>Total</dt>
              <dd data-testid="cart-total">{money(cart.total)}</dd>
            </div>
          </dl>
          <p className="muted small">Say “checkout with my card” to place the order.</p>
        </>
      )}
    </section>
  );
}
