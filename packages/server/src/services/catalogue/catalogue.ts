import {
  type BoundChannel,
  type CatalogueModel,
  type CatalogueModelInput,
  type CatalogueVendor,
  type CatalogueVendorInput,
  NameRule,
  nameRuleMatches,
} from '@gateway/shared';
import type { AppContext } from '../../context.js';
import type { ModelFields, ModelRow, VendorRow } from '../../db/repos/catalogue.js';
import { ApiFailure } from '../../http/envelope.js';
import { type OptionWrite, priceOf, priceWrites } from './model-prices.js';

/**
 * The model catalogue's rules, between the routes and the repository: names unique among live rows, a model's
 * vendor must exist, a model's price goes to the ratio options. Later work (price sync, upstream model changes)
 * builds on `saveModel` and `missingModels` rather than on the tables.
 */

/** Models served by enabled channels, by name. */
function servedModels(ctx: AppContext): ReadonlyMap<string, readonly { name: string; type: number }[]> {
  return ctx.channelCache.enabledChannelsByModel();
}

function boundChannels(row: ModelRow, served: ReturnType<typeof servedModels>): BoundChannel[] {
  const rule = Number(row.name_rule ?? NameRule.Exact);
  const names = rule === NameRule.Exact ? [row.model_name] : [...served.keys()];
  const seen = new Map<string, BoundChannel>();
  for (const name of names) {
    if (!nameRuleMatches(rule, row.model_name, name)) continue;
    for (const channel of served.get(name) ?? []) seen.set(`${channel.type}:${channel.name}`, channel);
  }
  return [...seen.values()].map(({ name, type }) => ({ name, type }));
}

export function modelView(ctx: AppContext, row: ModelRow, served = servedModels(ctx)): CatalogueModel {
  return {
    id: row.id,
    model_name: row.model_name,
    description: row.description ?? '',
    icon: row.icon ?? '',
    tags: row.tags ?? '',
    vendor_id: Number(row.vendor_id ?? 0),
    endpoints: row.endpoints ?? '',
    context_length: Number(row.context_length ?? 0),
    status: Number(row.status ?? 1),
    sync_official: Number(row.sync_official ?? 1),
    name_rule: Number(row.name_rule ?? 0),
    created_time: Number(row.created_time ?? 0),
    updated_time: Number(row.updated_time ?? 0),
    bound_channels: boundChannels(row, served),
    price: priceOf(ctx.options, row.model_name),
  };
}

export function vendorView(row: VendorRow, counts: ReadonlyMap<number, number>): CatalogueVendor {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? '',
    icon: row.icon ?? '',
    status: Number(row.status ?? 1),
    created_time: Number(row.created_time ?? 0),
    updated_time: Number(row.updated_time ?? 0),
    model_count: counts.get(row.id) ?? 0,
  };
}

/** Models some enabled channel serves that no catalogue entry (exact or by its name rule) covers, sorted. */
export async function missingModels(ctx: AppContext): Promise<string[]> {
  const entries = await ctx.repos.catalogue.allModels();
  const covered = (name: string) =>
    entries.some((entry) => nameRuleMatches(Number(entry.name_rule ?? 0), entry.model_name, name));
  return [...servedModels(ctx).keys()].filter((name) => !covered(name)).sort();
}

function modelFields(input: CatalogueModelInput): ModelFields {
  const { id: _id, price: _price, ...fields } = input;
  return fields;
}

export interface SavedModel {
  id: number;
  optionWrites: OptionWrite[];
}

/**
 * Creates (no id) or updates a model, then writes its price to the ratio options. Everything is checked before
 * anything is written, so a refused save changes nothing.
 */
export async function saveModel(ctx: AppContext, input: CatalogueModelInput): Promise<SavedModel> {
  const { catalogue } = ctx.repos;
  const id = input.id ?? 0;
  if (id && !(await catalogue.model(id))) throw new ApiFailure('catalogue_not_found');
  if (await catalogue.modelNameTaken(input.model_name, id)) throw new ApiFailure('catalogue_model_name_taken');
  if (input.vendor_id && !(await catalogue.vendor(input.vendor_id))) throw new ApiFailure('catalogue_vendor_unknown');
  const writes = input.price ? priceWrites(ctx.options, input.model_name, input.price) : [];
  const savedId = id ? id : await catalogue.insertModel(modelFields(input));
  if (id) await catalogue.updateModel(id, modelFields(input));
  for (const write of writes) {
    const error = await ctx.options.set(write.key, write.after);
    if (error) throw new ApiFailure(error.code, error.params);
  }
  return { id: savedId, optionWrites: writes };
}

/** Adds catalogue entries (exact names, shown, no vendor) for missing models; names already there are skipped. */
export async function addMissingModels(ctx: AppContext, names: readonly string[]): Promise<number[]> {
  const missing = new Set(await missingModels(ctx));
  const ids: number[] = [];
  for (const name of names) {
    if (!missing.has(name)) continue;
    missing.delete(name);
    ids.push(
      await ctx.repos.catalogue.insertModel({
        model_name: name,
        description: '',
        icon: '',
        tags: '',
        vendor_id: 0,
        endpoints: '',
        context_length: 0,
        status: 1,
        sync_official: 1,
        name_rule: NameRule.Exact,
      }),
    );
  }
  return ids;
}

export async function saveVendor(ctx: AppContext, input: CatalogueVendorInput): Promise<number> {
  const { catalogue } = ctx.repos;
  const id = input.id ?? 0;
  if (id && !(await catalogue.vendor(id))) throw new ApiFailure('catalogue_not_found');
  if (await catalogue.vendorNameTaken(input.name, id)) throw new ApiFailure('catalogue_vendor_name_taken');
  const { id: _id, ...fields } = input;
  if (!id) return catalogue.insertVendor(fields);
  await catalogue.updateVendor(id, fields);
  return id;
}
