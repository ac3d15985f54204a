import type { ChatMessage } from '../../types.js';

export interface Turn<Block> {
  role: 'user' | 'assistant';
  content: Block[];
}

/**
 * Chat messages as the alternating turns Claude's Messages API and Bedrock's Converse require: system and developer
 * messages left out (both formats carry them apart), tool results sent as the user, consecutive messages of one role
 * merged, and a user turn holding `opening` put first when the conversation would start with the assistant.
 */
export function alternatingTurns<Block>(
  messages: readonly ChatMessage[],
  blocksOf: (message: ChatMessage) => Block[],
  opening: Block,
): Turn<Block>[] {
  const turns: Turn<Block>[] = [];
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(message);
    if (blocks.length === 0) continue;
    const last = turns.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  }
  if (turns[0]?.role !== 'user') turns.unshift({ role: 'user', content: [opening] });
  return turns;
}
