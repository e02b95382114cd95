import { useCollection } from '@scenaro/sdk/react';
import { useState } from 'react';
import { useStore } from '../store-context';
import { COLLECTIONS, money } from '../types';
import type { SelectionView } from '../types';
import { DetailsButton } from './DetailsButton';

/** The selection (shortlist): the `selection` collection, shared with the agent. */
export function SelectionPanel() {
  const [selection] = useCollection<SelectionView | null>(COLLECTIONS.SELECTION);
  const { api, connected, runAndReport } = useStore();
  const [busy, setBusy] = useState<string | undefined>();

  const remove = async (id: string, name: string) => {
    setBusy(id);
    try {
      await runAndReport(
        `remove ${name}`,
        () => api.removeFromSelection(id),
        `Removed ${name} from your selection.`,
      );
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <section className="panel" aria-labelledby="selection-title" data-panel="selection">
      <h2 id="selection-title">
        Selection {selection ? <span className="count">{selection.count} saved</span> : null}
      </h2>
      {!selection ? (
        <p className="empty">Connect to the assistant to load your selection.</p>
      ) : selection.products.length === 0 ? (
        <p className="empty">Nothing saved yet. Say “save the first one to my selection”.</p>
      ) : (
        <ul className="lines" aria-label="Saved products">
          {selection.products.map((product) => (
            <li key={product.product_id} className="line">
              <div className="line-text">
                <span className="line-name">{product.name}</span>
                <span className="muted block">
                  {money(product.price)}
                  {product.options ? ' and up' : ''} · {product.in_stock ? 'in stock' : 'sold out'}
                </span>
              </div>
              <div className="line-actions">
                <DetailsButton product={product} className="link" />
                <button
                  type="button"
                  className="link danger"
                  disabled={!connected || busy === product.product_id}
                  aria-label={`Remove ${product.name} from selection`}
                  onClick={() => void remove(product.product_id, product.name)}
                >
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
