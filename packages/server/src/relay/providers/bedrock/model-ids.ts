import { keyRegion } from './key.js';

/**
 * Anthropic's model names → Bedrock model ids, and the region groups (`us`, `eu`, `ap`) in which each id is served
 * through a cross-region inference profile (the family's tables). Other names are taken as Bedrock ids already
 * (`amazon.nova-pro-v1:0`, `meta.llama3-…`, `us.anthropic.…`, an ARN).
 */
const MODELS: ReadonlyArray<readonly [name: string, id: string, crossRegion: string]> = [
  ['claude-3-sonnet-20240229', 'anthropic.claude-3-sonnet-20240229-v1:0', 'us eu ap'],
  ['claude-3-opus-20240229', 'anthropic.claude-3-opus-20240229-v1:0', 'us'],
  ['claude-3-haiku-20240307', 'anthropic.claude-3-haiku-20240307-v1:0', 'us eu ap'],
  ['claude-3-5-sonnet-20240620', 'anthropic.claude-3-5-sonnet-20240620-v1:0', 'us eu ap'],
  ['claude-3-5-sonnet-20241022', 'anthropic.claude-3-5-sonnet-20241022-v2:0', 'us ap'],
  ['claude-3-5-haiku-20241022', 'anthropic.claude-3-5-haiku-20241022-v1:0', 'us'],
  ['claude-3-7-sonnet-20250219', 'anthropic.claude-3-7-sonnet-20250219-v1:0', 'us eu ap'],
  ['claude-sonnet-4-20250514', 'anthropic.claude-sonnet-4-20250514-v1:0', 'us eu ap'],
  ['claude-opus-4-20250514', 'anthropic.claude-opus-4-20250514-v1:0', 'us'],
  ['claude-opus-4-1-20250805', 'anthropic.claude-opus-4-1-20250805-v1:0', 'us'],
  ['claude-sonnet-4-5-20250929', 'anthropic.claude-sonnet-4-5-20250929-v1:0', 'us eu ap'],
  ['claude-haiku-4-5-20251001', 'anthropic.claude-haiku-4-5-20251001-v1:0', 'us eu ap'],
  ['claude-opus-4-5-20251101', 'anthropic.claude-opus-4-5-20251101-v1:0', 'us eu ap'],
  ['claude-sonnet-4-6', 'anthropic.claude-sonnet-4-6', 'us eu ap'],
  ['claude-opus-4-6', 'anthropic.claude-opus-4-6-v1', 'us eu ap'],
  ['nova-micro-v1:0', 'amazon.nova-micro-v1:0', 'us eu ap'],
  ['nova-lite-v1:0', 'amazon.nova-lite-v1:0', 'us eu ap'],
  ['nova-pro-v1:0', 'amazon.nova-pro-v1:0', 'us eu ap'],
  ['nova-premier-v1:0', 'amazon.nova-premier-v1:0', 'us'],
];

const ID_OF = new Map(MODELS.map(([name, id]) => [name, id]));
const CROSS_REGION = new Map(MODELS.map(([, id, groups]) => [id, new Set(groups.split(' '))]));
/** A region group's prefix for inference profile ids: Asia Pacific's is `apac.`. */
const PROFILE_PREFIX: Record<string, string> = { us: 'us', eu: 'eu', ap: 'apac' };

/**
 * The model id a Bedrock call names for `model` on a channel whose key is in `region`: the mapped id, prefixed with
 * the region group's inference profile (`us.anthropic.…`) when the model is served cross-region there.
 */
export function bedrockModelId(model: string, key: string): string {
  const id = ID_OF.get(model) ?? model;
  const region = keyRegion(key);
  // GovCloud (`us-gov-west-1`) has profiles of its own, not the commercial `us.` ones.
  const group = region.startsWith('us-gov-') ? '' : region.split('-')[0]!;
  const prefix = PROFILE_PREFIX[group];
  return prefix && CROSS_REGION.get(id)?.has(group) ? `${prefix}.${id}` : id;
}

/** Anthropic's models take Anthropic's own body through InvokeModel and its thinking settings through Converse. */
export const isClaudeModel = (modelId: string) =>
  /(?:^|\.)anthropic\.claude/.test(modelId) || modelId.startsWith('claude');
