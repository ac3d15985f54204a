// The icons themselves, loaded as one chunk the first time a page shows a vendor icon (about 40 KB compressed).
const files = import.meta.glob<string>(
  '../../../../../node_modules/@lobehub/icons-static-svg/icons/{openai,anthropic,claude-color,gemini-color,google-color,deepseek-color,qwen-color,alibaba-color,zhipu-color,chatglm-color,moonshot,kimi-color,doubao-color,volcengine-color,bytedance-color,grok,xai,mistral-color,meta-color,cohere-color,minimax-color,baichuan-color,wenxin-color,baidu-color,spark-color,hunyuan-color,tencent-color,yi-color,ollama,midjourney,suno,kling-color,jimeng-color,vidu-color,runway,sora-color,ai360-color,jina,perplexity-color,openrouter,azure-color,microsoft-color,aws-color,bedrock-color,vertexai-color,cloudflare-color,siliconcloud-color,stability-color,flux,coze,dify-color,groq,together-color,fireworks-color,nvidia-color,huggingface-color,stepfun-color,replicate,github,githubcopilot,xinference-color,lmstudio}.svg',
  { eager: true, query: '?raw', import: 'default' },
);

/** Icon file base name → SVG markup (bundled files of the icon set, never user input). */
export const ICON_SVGS: Record<string, string> = Object.fromEntries(
  Object.entries(files).map(([path, svg]) => [path.slice(path.lastIndexOf('/') + 1, -'.svg'.length), svg]),
);
