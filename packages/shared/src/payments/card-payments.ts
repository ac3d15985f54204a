/**
 * Card payments beside epay: Stripe Checkout (units of credit × `StripeUnitPrice`) and Creem (fixed products from
 * `CreemProducts`). Shared so the server and the console read the operator's product list alike.
 */

/** One entry of `CreemProducts` (the family's JSON field names). */
export interface CreemProduct {
  productId: string;
  name: string;
  /** Money the product costs, in `currency`. */
  price: number;
  currency: string;
  /** Quota credited when paid (raw quota, not units of credit). */
  quota: number;
}

const isText = (value: unknown): value is string => typeof value === 'string';

/** The product list when every entry is usable (a product id, a price above 0, a whole positive quota), else null. */
export function parseCreemProducts(value: unknown): CreemProduct[] | null {
  if (!Array.isArray(value)) return null;
  const products: CreemProduct[] = [];
  for (const entry of value) {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return null;
    const { productId, name, price, currency, quota } = entry as Record<string, unknown>;
    if (!isText(productId) || productId.trim() === '') return null;
    if (typeof price !== 'number' || !Number.isFinite(price) || price <= 0) return null;
    if (typeof quota !== 'number' || !Number.isSafeInteger(quota) || quota <= 0) return null;
    if ((name !== undefined && !isText(name)) || (currency !== undefined && !isText(currency))) return null;
    products.push({ productId, name: name ?? productId, price, currency: currency || 'USD', quota });
  }
  return products;
}

/** Reads the stored option text; an unreadable value offers no products (the option check refuses saving one). */
export function creemProductsFrom(text: string | undefined): CreemProduct[] {
  try {
    return parseCreemProducts(JSON.parse(text || '[]')) ?? [];
  } catch {
    return [];
  }
}

/** `top_ups.payment_provider` values (the family's names); epay orders of older rows have ''. */
export const PaymentProvider = {
  Epay: 'epay',
  Stripe: 'stripe',
  Creem: 'creem',
} as const;
