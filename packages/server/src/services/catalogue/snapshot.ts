import { CatalogueStatus, NameRule, nameRuleMatches, type PricingVendor } from '@gateway/shared';
import type { AppContext } from '../../context.js';
import type { ModelRow } from '../../db/repos/catalogue.js';

/** What the public price list shows of a model from the catalogue. */
export interface ModelMeta {
  description: string;
  icon: string;
  tags: string;
  vendor_id: number;
  hidden: boolean;
}

export interface CatalogueSnapshot {
  vendors: PricingVendor[];
  /** The catalogue entry for a served model name (exact first, then the first rule that matches), if any. */
  metaOf(model: string): ModelMeta | undefined;
}

/**
 * The catalogue as the public price list reads it, kept in memory: the price list is built without a database
 * round trip. Read again after a save on this node, and at most TTL_MS old for saves made on another node.
 */
const TTL_MS = 10_000;
const snapshots = new WeakMap<AppContext, { at: number; value: Promise<CatalogueSnapshot> }>();

export function catalogueSnapshot(ctx: AppContext): Promise<CatalogueSnapshot> {
  const held = snapshots.get(ctx);
  if (held && Date.now() - held.at < TTL_MS) return held.value;
  const value = readSnapshot(ctx);
  snapshots.set(ctx, { at: Date.now(), value });
  // A failed read is not kept: the next visitor tries again.
  value.catch(() => snapshots.delete(ctx));
  return value;
}

export function forgetCatalogueSnapshot(ctx: AppContext): void {
  snapshots.delete(ctx);
}

function metaOfRow(row: ModelRow): ModelMeta {
  return {
    description: row.description ?? '',
    icon: row.icon ?? '',
    tags: row.tags ?? '',
    vendor_id: Number(row.vendor_id ?? 0),
    hidden: Number(row.status ?? CatalogueStatus.Shown) !== CatalogueStatus.Shown,
  };
}

async function readSnapshot(ctx: AppContext): Promise<CatalogueSnapshot> {
  const [models, vendors] = await Promise.all([ctx.repos.catalogue.allModels(), ctx.repos.catalogue.allVendors()]);
  const exact = new Map<string, ModelMeta>();
  const rules: ModelRow[] = [];
  for (const row of models) {
    if (Number(row.name_rule ?? 0) === NameRule.Exact) exact.set(row.model_name, metaOfRow(row));
    else rules.push(row);
  }
  return {
    vendors: vendors.map(({ id, name, description, icon }) => ({
      id,
      name,
      description: description ?? '',
      icon: icon ?? '',
    })),
    metaOf(model) {
      const found = exact.get(model);
      if (found) return found;
      const rule = rules.find((row) => nameRuleMatches(Number(row.name_rule), row.model_name, model));
      return rule ? metaOfRow(rule) : undefined;
    },
  };
}
