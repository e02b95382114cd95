/**
 * Read tools of the tau2 retail domain.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import type { ToolDefinition } from '@scenaro/agent/scenario';
import { pythonJsonDumps, setDictItem } from '@scenaro/agent/python';
import { recordLookupTool, sessionDb, stringParam, toolParameters } from '../../common/tool-kit.js';
import type { RetailDb } from './db-types.js';
import { getItem, getOrder, getProduct, getUser } from './store.js';

const orderIdParam = stringParam("The order id, which starts with '#', for example '#W0000000'.");

/** tau2's `find_user_id_by_name_zip` (read tool). */
export const findUserIdByNameZip: ToolDefinition<{
  first_name: string;
  last_name: string;
  zip: string;
}> = {
  name: 'find_user_id_by_name_zip',
  aliases: ['FindUserIdByNameZipTool'],
  kind: 'read',
  description:
    "Find a customer's user id from first name, last name and zip code. Prefer looking the user up by " +
    'email; use this only when the email is unknown or not found.',
  parameters: toolParameters({
    first_name: stringParam("The customer's first name, for example 'John'."),
    last_name: stringParam("The customer's last name, for example 'Doe'."),
    zip: stringParam("The customer's zip code, for example '12345'."),
  }),
  execute: ({ first_name, last_name, zip }, context) => {
    const db = sessionDb<RetailDb>(context);
    for (const [userId, user] of Object.entries(db.users)) {
      if (
        user.name.first_name.toLowerCase() === first_name.toLowerCase() &&
        user.name.last_name.toLowerCase() === last_name.toLowerCase() &&
        user.address.zip === zip
      ) {
        return userId;
      }
    }
    throw new ToolError('User not found');
  },
};

/** tau2's `find_user_id_by_email` (read tool). */
export const findUserIdByEmail: ToolDefinition<{ email: string }> = {
  name: 'find_user_id_by_email',
  aliases: ['FindUserIdByEmailTool'],
  kind: 'read',
  description: "Find a customer's user id from their email address.",
  parameters: toolParameters({
    email: stringParam("The customer's email, for example 'someone@example.com'."),
  }),
  execute: ({ email }, context) => {
    const db = sessionDb<RetailDb>(context);
    for (const [userId, user] of Object.entries(db.users)) {
      if (user.email.toLowerCase() === email.toLowerCase()) return userId;
    }
    throw new ToolError('User not found');
  },
};

/** tau2's `get_order_details` (read tool). */
export const getOrderDetails = recordLookupTool({
  name: 'get_order_details',
  alias: 'GetOrderDetailsTool',
  description:
    'Look up an order: status, items with prices and options, address, fulfillments and payments.',
  idName: 'order_id',
  idParam: orderIdParam,
  find: getOrder,
});

/** tau2's `get_product_details` (read tool). */
export const getProductDetails = recordLookupTool({
  name: 'get_product_details',
  alias: 'GetProductDetailsTool',
  description:
    'Look up a product type and all of its items (variants) with their options, price and availability. ' +
    'A product id is not an item id.',
  idName: 'product_id',
  idParam: stringParam("The product id, for example '6086499569'."),
  find: getProduct,
});

/** tau2's `get_item_details` (read tool). */
export const getItemDetails = recordLookupTool({
  name: 'get_item_details',
  alias: 'GetItemDetailsTool',
  description:
    'Look up one item (a product variant): options, price and availability. An item id is not a product id.',
  idName: 'item_id',
  idParam: stringParam("The item id, for example '1008292230'."),
  find: getItem,
});

/** tau2's `get_user_details` (read tool). */
export const getUserDetails = recordLookupTool({
  name: 'get_user_details',
  alias: 'GetUserDetailsTool',
  description: "Look up a customer's profile: name, address, email, payment methods and order ids.",
  idName: 'user_id',
  idParam: stringParam("The user id, for example 'sara_doe_496'."),
  find: getUser,
});

/** tau2's `list_all_product_types` (read tool). */
export const listAllProductTypes: ToolDefinition<Record<string, never>> = {
  name: 'list_all_product_types',
  aliases: ['ListAllProductTypesTool'],
  kind: 'read',
  description:
    'List the name and product id of every product type in the store (there are 50), as a JSON object ' +
    'sorted by name.',
  parameters: toolParameters({}),
  execute: (_args, context) => {
    const db = sessionDb<RetailDb>(context);
    const byName: Record<string, string> = {};
    for (const product of Object.values(db.products))
      setDictItem(byName, product.name, product.product_id);
    return pythonJsonDumps(byName);
  },
};
