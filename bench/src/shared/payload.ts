/**
 * The fixed request body of the POST /items scenario (~1 KB of JSON), and the shared
 * constants of the other scenarios. Deterministic: every run and every server sees the same bytes.
 */

export interface ItemLine {
  sku: string;
  qty: number;
}

export interface ItemPayload {
  name: string;
  price: number;
  tags: string[];
  owner: { name: string; email: string };
  lines: ItemLine[];
}

export const LINE_COUNT = 10;

export function makeItem(lines = LINE_COUNT): ItemPayload {
  return {
    name: 'Tern benchmark widget: anodised aluminium, deluxe edition, from warehouse stock',
    price: 1299.95,
    tags: ['bench', 'widget', 'deluxe', 'aluminium', 'blue', 'extra-large', 'sale', 'warehouse-7', 'limited', 'gift-wrap', 'in-stock'],
    owner: { name: 'Ada King, Countess of Lovelace', email: 'ada.lovelace@analytical-engine.example.com' },
    lines: Array.from({ length: lines }, (_, i) => ({
      sku: `WIDGET-${String(1000 + i * 37).padStart(6, '0')}-ANODISED-ALUMINIUM-BLUE-XL-REV${i % 4}`,
      qty: (i % 5) + 1,
    })),
  };
}

/** The exact bytes autocannon sends. */
export const ITEM_JSON = JSON.stringify(makeItem());

/** Scenario 2's URL and the body every server must answer with. */
export const ROUTE_URL = '/users/42/posts/hello-world-2';
export const ROUTE_EXPECTED = { id: 42, slug: 'hello-world-2' };

/** The built-in `slug` converter's pattern, anchored, so the peers accept exactly what Tern accepts. */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
export const SLUG_RE = new RegExp(SLUG_PATTERN);
export const INT_RE = /^[0-9]+$/;

/**
 * Scenario 4: three async middleware layers before the handler of GET /mw.
 * Layer 1 sets the response header x-mw-1: 1, layer 2 sets the request field `user` to
 * { id: 7 }, layer 3 sets the response header x-mw-3: 3; the handler answers {"user": 7}
 * (read from the field layer 2 set).
 */
export const MW_USER = { id: 7 };
export const MW_EXPECTED = { user: 7 };
