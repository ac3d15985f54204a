import { blocksOf, type ClaudeBlock, type ClaudeRequest } from './wire.js';

function blockText(block: ClaudeBlock): string {
  switch (block.type) {
    case 'text':
      return String(block.text ?? '');
    case 'thinking':
      return String(block.thinking ?? '');
    case 'tool_use':
      return `${String(block.name)} ${JSON.stringify(block.input ?? {})}`;
    case 'tool_result':
      return blocksOf(block.content as string | ClaudeBlock[] | undefined)
        .map(blockText)
        .join('\n');
    default:
      return '';
  }
}

/**
 * Everything of a Messages request that the model reads as text (system, turns, tool calls and results, tool
 * definitions): what the reservation estimates, the sensitive-word check reads, and the tokenizer counts when an
 * upstream reports no usage (and for count_tokens).
 */
export function claudePromptText(request: ClaudeRequest): string {
  const system =
    typeof request.system === 'string' ? request.system : (request.system ?? []).map((b) => b.text ?? '').join('\n');
  const turns = request.messages.map((message) => blocksOf(message.content).map(blockText).join('\n'));
  const tools = (request.tools ?? []).map(
    (tool) => `${tool.name} ${tool.description ?? ''} ${JSON.stringify(tool.input_schema ?? {})}`,
  );
  return [system, ...turns, ...tools].filter(Boolean).join('\n');
}
