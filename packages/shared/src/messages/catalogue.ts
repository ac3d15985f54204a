import type { MessageCode } from '../messages.js';

/**
 * One language's server messages: every key of the full catalogue (the spread sub-catalogues included), so a
 * missing or misspelt key is a type error. Placeholders (`{name}`) are kept exactly as in the English text.
 */
export type MessageCatalogue = Record<MessageCode, string>;
