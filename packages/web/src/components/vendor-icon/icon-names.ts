/**
 * The vendor icons bundled with the console (from @lobehub/icons-static-svg, MIT), by the names the family stores in
 * `vendors.icon` / `models.icon` (its @lobehub/icons component names: "OpenAI", "Claude.Color"). Names are matched
 * without regard to case; an unknown name shows the vendor's initial instead.
 */
export const VENDOR_ICON_NAMES = [
  'OpenAI',
  'Anthropic',
  'Claude.Color',
  'Gemini.Color',
  'Google.Color',
  'DeepSeek.Color',
  'Qwen.Color',
  'Alibaba.Color',
  'Zhipu.Color',
  'ChatGLM.Color',
  'Moonshot',
  'Kimi.Color',
  'Doubao.Color',
  'Volcengine.Color',
  'ByteDance.Color',
  'Grok',
  'XAI',
  'Mistral.Color',
  'Meta.Color',
  'Cohere.Color',
  'Minimax.Color',
  'Baichuan.Color',
  'Wenxin.Color',
  'Baidu.Color',
  'Spark.Color',
  'Hunyuan.Color',
  'Tencent.Color',
  'Yi.Color',
  'Ollama',
  'Midjourney',
  'Suno',
  'Kling.Color',
  'Jimeng.Color',
  'Vidu.Color',
  'Runway',
  'Sora.Color',
  'Ai360.Color',
  'Jina',
  'Perplexity.Color',
  'OpenRouter',
  'Azure.Color',
  'Microsoft.Color',
  'Aws.Color',
  'Bedrock.Color',
  'VertexAI.Color',
  'Cloudflare.Color',
  'SiliconCloud.Color',
  'Stability.Color',
  'Flux',
  'Coze',
  'Dify.Color',
  'Groq',
  'Together.Color',
  'Fireworks.Color',
  'Nvidia.Color',
  'HuggingFace.Color',
  'Stepfun.Color',
  'Replicate',
  'Github',
  'GithubCopilot',
  'Xinference.Color',
  'LmStudio',
] as const;

/** The icon file's base name for a stored icon name ("Claude.Color" → "claude-color"). */
export function iconFileOf(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/\.color$/, '-color');
}
