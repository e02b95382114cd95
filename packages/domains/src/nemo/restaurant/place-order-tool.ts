/**
 * NeMo's `PlaceOrderTool` (restaurant and fastbite): checks the order, pushes it as a
 * `<final_response>` and confirms it. The schema the model sees declares the non-JSON-Schema
 * types `list` and `float`, as NeMo's does.
 *
 * `auto_validate` is taken as Python truthiness, as NeMo does: every NeMo scenario passes the
 * string `"False"`, which is truthy, so item keys, signs and the total are checked.
 *
 * @module
 */
import type { JsonObject, ToolContext } from '@scenaro/agent/scenario';
import { pyFloatCall, pyFloatStr, pythonRepr, pythonStr, pyTruthy } from '@scenaro/agent/python';
import { nemoTool, pushFinalResponse } from '../../common/tool-kit.js';
import { pyContains, pyItem, pyIterate } from '../common/python-items.js';

const ITEM_KEYS = ['name', 'unit_price', 'quantity'];

/** `numpy.isclose(a, b)`: `|a - b| <= 1e-8 + 1e-5 * |b|`. */
function isClose(a: number, b: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return false;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b;
  return Math.abs(a - b) <= 1e-8 + 1e-5 * Math.abs(b);
}

function checkItem(item: unknown, validNames: unknown): void {
  for (const key of ITEM_KEYS) {
    if (!pyContains(item, key)) {
      throw new Error(
        `Each item in the \`items\` parameter must have a \`${key}\` key, but the item is: ${pythonStr(item)}.`,
      );
    }
  }
  const name = pyItem(item, 'name');
  if (pyTruthy(validNames) && Array.isArray(validNames) && !validNames.includes(name)) {
    throw new Error(
      `The item ${pythonStr(name)} is not on the menu. All valid item names are: ${pythonRepr(validNames)}.`,
    );
  }
  if (pyFloatCall(pyItem(item, 'unit_price')) < 0) {
    throw new Error(
      `The unit price of the item ${pythonStr(name)} is negative. The unit price must be non-negative.`,
    );
  }
  if (pyFloatCall(pyItem(item, 'quantity')) < 0) {
    throw new Error(
      `The quantity of the item ${pythonStr(name)} is negative. The quantity must be non-negative.`,
    );
  }
}

function placeOrder(args: JsonObject, context: ToolContext): JsonObject {
  const items = args['items'] ?? null;
  const customerName = args['customer_name'] ?? null;
  const totalPrice = args['total_price'] ?? null;
  if (customerName === null) throw new Error('The `customer_name` parameter is required.');
  if (totalPrice === null) throw new Error('The `total_price` parameter is required.');
  if (items === null) throw new Error('The `items` parameter is required.');
  const validate = pyTruthy(context.options['auto_validate']);
  let total = 0;
  for (const item of pyIterate(items)) {
    if (validate) checkItem(item, context.options['valid_item_names']);
    total += pyFloatCall(pyItem(item, 'unit_price')) * pyFloatCall(pyItem(item, 'quantity'));
  }
  if (validate && !isClose(total, pyFloatCall(totalPrice))) {
    throw new Error(
      `The total price is incorrect. The calculated total price is ${pyFloatStr(total)} but the expected total price is ${pythonStr(totalPrice)}.`,
    );
  }
  const order = {
    items,
    customer_name: customerName,
    customer_phone: args['customer_phone'] ?? null,
    total_price: totalPrice,
  };
  const details = pushFinalResponse(context, order);
  return {
    success: true,
    message: `The order has been placed successfully for the customer ${pythonStr(customerName)} with the total price ${pythonStr(totalPrice)}.`,
    order_details: details,
  };
}

export const placeOrderTool = nemoTool({
  name: 'PlaceOrderTool',
  description: 'Place an order for the customer',
  parameters: {
    type: 'object',
    properties: {
      items: {
        type: 'list',
        description:
          "A list of items to be ordered, each item is a dictionary with the following keys: name, unit_price, and quantity. For example, [{'name': 'xxx', 'unit_price': '1.00', 'quantity': '1'}, {'name': 'yyy', 'unit_price': '2.00', 'quantity': '2'}].",
      },
      customer_name: { type: 'string', description: 'The name of the customer.' },
      customer_phone: {
        type: 'string',
        description: "The phone number of the customer. The format should be like '123-456-7890'.",
      },
      total_price: { type: 'float', description: 'The total price of the order.' },
    },
    required: ['items', 'customer_name', 'total_price'],
  },
  kind: 'read',
  fixedSignature: true,
  execute: placeOrder,
});
