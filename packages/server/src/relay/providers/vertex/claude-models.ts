/**
 * Anthropic's model names → Vertex AI's model ids (the family's table): Vertex dates its Claude ids after an `@`,
 * and Claude 3.5 Sonnet's second version is `-v2`. Any other name (a Vertex id already, a newer model mapped by
 * the channel's model mapping) goes as it is.
 */
const VERTEX_CLAUDE_IDS: Readonly<Record<string, string>> = {
  'claude-3-sonnet-20240229': 'claude-3-sonnet@20240229',
  'claude-3-opus-20240229': 'claude-3-opus@20240229',
  'claude-3-haiku-20240307': 'claude-3-haiku@20240307',
  'claude-3-5-sonnet-20240620': 'claude-3-5-sonnet@20240620',
  'claude-3-5-sonnet-20241022': 'claude-3-5-sonnet-v2@20241022',
  'claude-3-7-sonnet-20250219': 'claude-3-7-sonnet@20250219',
  'claude-sonnet-4-20250514': 'claude-sonnet-4@20250514',
  'claude-opus-4-20250514': 'claude-opus-4@20250514',
  'claude-opus-4-1-20250805': 'claude-opus-4-1@20250805',
  'claude-sonnet-4-5-20250929': 'claude-sonnet-4-5@20250929',
  'claude-haiku-4-5-20251001': 'claude-haiku-4-5@20251001',
  'claude-opus-4-5-20251101': 'claude-opus-4-5@20251101',
};

export function vertexClaudeId(model: string): string {
  return Object.hasOwn(VERTEX_CLAUDE_IDS, model) ? VERTEX_CLAUDE_IDS[model]! : model;
}

/** Models served by Anthropic's publisher on Vertex; every other name goes to Google's. */
export const isClaudeModel = (model: string) => model.startsWith('claude');
