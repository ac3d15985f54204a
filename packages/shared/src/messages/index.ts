import type { Language } from '../languages.js';
import type { MessageCatalogue } from './catalogue.js';
import { FR_MESSAGES } from './fr.js';
import { JA_MESSAGES } from './ja.js';
import { RU_MESSAGES } from './ru.js';
import { VI_MESSAGES } from './vi.js';
import { ZH_TW_MESSAGES } from './zh-TW.js';

export type { MessageCatalogue } from './catalogue.js';

/** The server messages of every language besides zh and en (those two sit beside each key in messages.ts). */
export const TRANSLATED_MESSAGES: Record<Exclude<Language, 'zh' | 'en'>, MessageCatalogue> = {
  'zh-TW': ZH_TW_MESSAGES,
  ja: JA_MESSAGES,
  fr: FR_MESSAGES,
  ru: RU_MESSAGES,
  vi: VI_MESSAGES,
};
