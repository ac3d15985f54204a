/**
 * ERNIE model names → the endpoint names of Baidu's wenxinworkshop API (the family's table). A model not listed goes
 * by its lower-cased name, which is how Baidu names the newer endpoints (ERNIE-4.0-Turbo-8K → ernie-4.0-turbo-8k).
 */
const ENDPOINTS: Record<string, string> = {
  'ERNIE-4.0': 'completions_pro',
  'ERNIE-Bot-4': 'completions_pro',
  'ERNIE-4.0-8K': 'completions_pro',
  'ERNIE-Bot': 'completions',
  'ERNIE-3.5-8K': 'completions',
  'ERNIE-Bot-turbo': 'eb-instant',
  'ERNIE-Lite-8K-0922': 'eb-instant',
  'ERNIE-Speed': 'ernie_speed',
  'ERNIE-Speed-8K': 'ernie_speed',
  'ERNIE-Speed-128K': 'ernie-speed-128k',
  'ERNIE-Bot-8K': 'ernie_bot_8k',
  'ERNIE-Lite-8K-0308': 'ernie-lite-8k',
  'ERNIE-Tiny-8K': 'ernie-tiny-8k',
  'BLOOMZ-7B': 'bloomz_7b1',
  'Embedding-V1': 'embedding-v1',
  'bge-large-zh': 'bge_large_zh',
  'bge-large-en': 'bge_large_en',
  'tao-8k': 'tao_8k',
};

const EMBEDDING_PREFIXES = ['Embedding', 'bge-large', 'tao-8k'];

/** The path under the base URL for a model: `chat/…` or, for the embedding models, `embeddings/…`. */
export function baiduPath(model: string): string {
  const kind = EMBEDDING_PREFIXES.some((prefix) => model.startsWith(prefix)) ? 'embeddings' : 'chat';
  return `/rpc/2.0/ai_custom/v1/wenxinworkshop/${kind}/${ENDPOINTS[model] ?? model.toLowerCase()}`;
}
