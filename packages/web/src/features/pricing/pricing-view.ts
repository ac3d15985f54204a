import {
  DEFAULT_USER_USABLE_GROUPS,
  type DisplayedPrice,
  displayedPrice,
  isAvailableInGroup,
  orderPricingEntries,
  type PricingEntry,
  type PricingVendor,
  type QuotaDisplay,
} from '@gateway/shared';

/** One table row: the entry, whether the viewed group can use it, and its price for that group. */
export interface PricingRow extends PricingEntry {
  available: boolean;
  price: DisplayedPrice;
  /** The catalogue's vendor of the model, if it has one. */
  vendor?: PricingVendor;
}

/**
 * Fuzzy model-name match: every space-separated part of the query must appear in the name in order, though not
 * necessarily side by side ("g4o mini" finds "gpt-4o-mini"). Case is ignored.
 */
export function fuzzyMatch(name: string, query: string): boolean {
  const haystack = name.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((part) => {
      let position = 0;
      for (const char of part) {
        position = haystack.indexOf(char, position);
        if (position === -1) return false;
        position++;
      }
      return true;
    });
}

/** The group a page opens on: the user's own group when it has a price, else "default" (spec 001 "Pricing"). */
export function initialGroup(userGroup: string | undefined, groupRatio: Record<string, number>): string {
  if (userGroup && Object.hasOwn(groupRatio, userGroup)) return userGroup;
  if (Object.hasOwn(groupRatio, 'default')) return 'default';
  return Object.keys(groupRatio)[0] ?? 'default';
}

export function groupRatioOf(groupRatio: Record<string, number>, group: string): number {
  return Object.hasOwn(groupRatio, group) ? groupRatio[group]! : 1;
}

/**
 * Rows for the viewed group, filtered by the search, in the spec's order (the same shared rule the server
 * applies); the default "available first" sort is applied on top by the table (stable, so ties keep that order).
 */
export function pricingRows(
  entries: readonly PricingEntry[],
  group: string,
  groupRatio: Record<string, number>,
  display: QuotaDisplay,
  search: string,
  vendors: readonly PricingVendor[] = [],
): PricingRow[] {
  const ratio = groupRatioOf(groupRatio, group);
  const vendorById = new Map(vendors.map((vendor) => [vendor.id, vendor]));
  return orderPricingEntries(entries)
    .filter((entry) => !search.trim() || fuzzyMatch(entry.model_name, search))
    .map((entry) => ({
      ...entry,
      available: isAvailableInGroup(entry, group),
      price: displayedPrice(entry, ratio, display),
      vendor: entry.vendor_id ? vendorById.get(entry.vendor_id) : undefined,
    }));
}

/** Available first, keeping the given order otherwise (what the table's default sort shows). */
export function availableFirst(rows: readonly PricingRow[]): PricingRow[] {
  return [...rows].sort((a, b) => Number(b.available) - Number(a.available));
}

/**
 * A group's description as the reader should see it: the descriptions the gateway ships with (Chinese, written into
 * the option at first start) are words of ours and follow the reader's language; an operator's own are shown as
 * written.
 */
export function groupDescription(group: string, description: string | undefined, t: (key: string) => string): string {
  if (!description || description === group) return group;
  return DEFAULT_USER_USABLE_GROUPS[group] === description ? t(`pricing.shipped_groups.${group}`) : description;
}
