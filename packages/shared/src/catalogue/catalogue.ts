import { z } from 'zod';

/**
 * The model catalogue (the family's `models` and `vendors` tables, `/api/models/` and `/api/vendors/`): what a
 * model is (vendor, description, tags, context length, endpoints) beside how it is billed. Prices are not stored
 * here: they stay in the ratio options (`ModelRatio`, `ModelPrice`, `CompletionRatio`, `CacheRatio`), which the
 * relay bills from; the catalogue reads and writes them there.
 */

/** How a catalogue entry's name matches served model names (the family's NameRule numbers). */
export const NameRule = { Exact: 0, Prefix: 1, Contains: 2, Suffix: 3 } as const;
export type NameRuleValue = (typeof NameRule)[keyof typeof NameRule];

/** Catalogue status: 1 shown on the pricing page, 0 hidden from it (the family's `status`). */
export const CatalogueStatus = { Hidden: 0, Shown: 1 } as const;

/** The endpoints a model may serve, in the family's endpoint-type spelling. */
export const CATALOGUE_ENDPOINTS = [
  'openai',
  'openai-response',
  'anthropic',
  'embeddings',
  'image-generation',
  'audio',
  'openai-video',
  'jina-rerank',
] as const;
export type CatalogueEndpoint = (typeof CATALOGUE_ENDPOINTS)[number];

export const CATALOGUE_NAME_MAX = 128;
export const CATALOGUE_ICON_MAX = 128;
export const CATALOGUE_TAGS_MAX = 255;

/** Whether a catalogue entry's name rule covers a served model name. */
export function nameRuleMatches(rule: number, pattern: string, model: string): boolean {
  if (rule === NameRule.Prefix) return model.startsWith(pattern);
  if (rule === NameRule.Contains) return model.includes(pattern);
  if (rule === NameRule.Suffix) return model.endsWith(pattern);
  return model === pattern;
}

/** A model's price as the ratio options hold it; null = the option has no entry for the model. */
export interface CataloguePrice {
  model_ratio: number | null;
  /** Dollars per call; when set it wins over the ratios (as the relay bills). */
  model_price: number | null;
  completion_ratio: number | null;
  cache_ratio: number | null;
}

export const CATALOGUE_PRICE_FIELDS = ['model_ratio', 'model_price', 'completion_ratio', 'cache_ratio'] as const;

export interface CatalogueVendor {
  id: number;
  name: string;
  description: string;
  /** An icon of the bundled set, by the family's name ("OpenAI", "Claude.Color"); '' none. */
  icon: string;
  status: number;
  created_time: number;
  updated_time: number;
  model_count: number;
}

export interface BoundChannel {
  name: string;
  type: number;
}

export interface CatalogueModel {
  id: number;
  model_name: string;
  description: string;
  icon: string;
  /** Comma-separated. */
  tags: string;
  vendor_id: number;
  /** JSON array of endpoint types; '' = not said. */
  endpoints: string;
  context_length: number;
  status: number;
  sync_official: number;
  name_rule: number;
  created_time: number;
  updated_time: number;
  /** Enabled channels serving the model (for a rule: any model it matches). */
  bound_channels: BoundChannel[];
  price: CataloguePrice;
}

/** `GET /api/models/` and `/search`: one page with the family's paging fields. */
export interface CatalogueModelPage {
  items: CatalogueModel[];
  total: number;
  page: number;
  page_size: number;
  vendor_counts: Record<string, number>;
}

export interface CatalogueVendorPage {
  items: CatalogueVendor[];
  total: number;
  page: number;
  page_size: number;
}

const trimmed = (max: number, code: 'catalogue_field_too_long') => z.string().trim().max(max, code);
const ratio = z.number({ error: 'catalogue_price_invalid' }).min(0, 'catalogue_price_invalid').max(1e9).nullable();

export const cataloguePriceSchema = z.object({
  model_ratio: ratio.optional(),
  model_price: ratio.optional(),
  completion_ratio: ratio.optional(),
  cache_ratio: ratio.optional(),
});

/** A model as the console (or a family script) sends it; `price` is ours and optional. */
export const catalogueModelSchema = z.object({
  id: z.number().int().optional(),
  model_name: z
    .string({ error: 'catalogue_model_name_required' })
    .trim()
    .min(1, 'catalogue_model_name_required')
    .max(CATALOGUE_NAME_MAX, 'catalogue_field_too_long'),
  description: z.string().default(''),
  icon: trimmed(CATALOGUE_ICON_MAX, 'catalogue_field_too_long').default(''),
  tags: trimmed(CATALOGUE_TAGS_MAX, 'catalogue_field_too_long').default(''),
  vendor_id: z.number().int().min(0).default(0),
  endpoints: z
    .string()
    .default('')
    .refine((value) => value === '' || isEndpointList(value), 'catalogue_endpoints_invalid'),
  context_length: z.number().int().min(0, 'catalogue_context_invalid').max(1e9).default(0),
  status: z.number().int().min(0).max(1).default(CatalogueStatus.Shown),
  sync_official: z.number().int().min(0).max(1).default(1),
  name_rule: z.number().int().min(0).max(3).default(NameRule.Exact),
  price: cataloguePriceSchema.optional(),
});
export type CatalogueModelInput = z.infer<typeof catalogueModelSchema>;

export const catalogueVendorSchema = z.object({
  id: z.number().int().optional(),
  name: z
    .string({ error: 'catalogue_vendor_name_required' })
    .trim()
    .min(1, 'catalogue_vendor_name_required')
    .max(CATALOGUE_NAME_MAX, 'catalogue_field_too_long'),
  description: z.string().default(''),
  icon: trimmed(CATALOGUE_ICON_MAX, 'catalogue_field_too_long').default(''),
  status: z.number().int().min(0).max(1).default(1),
});
export type CatalogueVendorInput = z.infer<typeof catalogueVendorSchema>;

function isEndpointList(value: string): boolean {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string');
  } catch {
    return false;
  }
}

/** The endpoint list of a model row ('' or bad JSON = none said). */
export function endpointList(value: string): string[] {
  return value !== '' && isEndpointList(value) ? (JSON.parse(value) as string[]) : [];
}
