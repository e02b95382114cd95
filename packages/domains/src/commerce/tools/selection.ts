/**
 * The selection: the shopper's shortlist of products they are considering.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import type { ToolDefinition } from '@scenaro/agent/scenario';
import { defineTool, toolParameters } from '../../common/tool-kit.js';
import { addToSelection, selectionView } from '../model/cart.js';
import { PRODUCT_ID_SCHEMA, shopperOf } from './shared.js';

const PRODUCT_ARGS = toolParameters({ product_id: PRODUCT_ID_SCHEMA });

/** `add_to_selection`: shortlist a product. */
export const addToSelectionTool: ToolDefinition = defineTool<{ product_id: string }>({
  name: 'add_to_selection',
  kind: 'write',
  description:
    "Add a product to the shopper's selection (their shortlist of products to consider). Not the cart.",
  parameters: PRODUCT_ARGS,
  execute(args, context) {
    const { db, user } = shopperOf(context);
    addToSelection(db, user, args.product_id);
    return selectionView(db, user);
  },
});

/** `remove_from_selection`: drop a product from the shortlist. */
export const removeFromSelectionTool: ToolDefinition = defineTool<{ product_id: string }>({
  name: 'remove_from_selection',
  kind: 'write',
  description: "Remove a product from the shopper's selection.",
  parameters: PRODUCT_ARGS,
  execute(args, context) {
    const { db, user } = shopperOf(context);
    const index = user.selection.product_ids.indexOf(args.product_id);
    if (index < 0) {
      throw new ToolError(`Product '${args.product_id}' is not in the selection.`);
    }
    user.selection.product_ids.splice(index, 1);
    return selectionView(db, user);
  },
});

/** `get_selection`: the shortlist with product summaries. */
export const getSelectionTool: ToolDefinition = defineTool<Record<string, never>>({
  name: 'get_selection',
  kind: 'read',
  description: "The shopper's selection (shortlist) with a summary of each product.",
  parameters: toolParameters({}, [], { listEmptyRequired: false }),
  execute(_args, context) {
    const { db, user } = shopperOf(context);
    return selectionView(db, user);
  },
});
