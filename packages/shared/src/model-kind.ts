/**
 * What a model does, judged from its name by the family's conventions: the channel test calls each model on the
 * endpoint it serves, and the playground offers only models that chat.
 */
export type ModelKind = 'chat' | 'embedding' | 'rerank' | 'image' | 'speech' | 'transcription' | 'moderation';

const RULES: Array<[ModelKind, RegExp]> = [
  ['rerank', /rerank/],
  ['embedding', /embed|^m3e|^bge-|^text-similarity|^gte-|^e5-|^nomic-embed|^jina-clip|^jina-colbert/],
  ['moderation', /moderation/],
  ['transcription', /whisper|transcribe|^sensevoice|^paraformer/],
  ['speech', /tts|^speech-|^cosyvoice/],
  [
    'image',
    /dall-e|gpt-image|^imagen|^flux|stable-diffusion|^sd3|^sdxl|^mj_|^midjourney|^ideogram|^recraft|^kolors|^cogview|^wanx|seedream|-image-(?!preview)/,
  ],
];

export function modelKind(model: string): ModelKind {
  const name = model.toLowerCase();
  for (const [kind, pattern] of RULES) if (pattern.test(name)) return kind;
  return 'chat';
}

export function canChat(model: string): boolean {
  return modelKind(model) === 'chat';
}
