import { countWords } from '../text.js';

/** A document's text in the shapes rerank APIs take: a string, or an object with `text`. */
export function documentText(document: unknown): string {
  if (typeof document === 'string') return document;
  const text = (document as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}

/**
 * The Cohere and Jina mocks' ranking: a document's score is the share of the query's words it holds, minus a tiny
 * tie-break by position, so the order and the numbers can be worked out by hand. Best first, cut to `topN`.
 */
export function rankDocuments(
  query: string,
  documents: string[],
  topN?: number,
): Array<{ index: number; relevance_score: number }> {
  const queryWords = new Set(query.toLowerCase().split(/\s+/).filter(Boolean));
  const ranked = documents.map((text, index) => {
    const words = new Set(text.toLowerCase().split(/\s+/).filter(Boolean));
    const overlap = [...queryWords].filter((word) => words.has(word)).length;
    return { index, relevance_score: Number(((overlap + 1) / (queryWords.size + 1) - index * 0.001).toFixed(4)) };
  });
  ranked.sort((a, b) => b.relevance_score - a.relevance_score);
  return typeof topN === 'number' && topN > 0 ? ranked.slice(0, topN) : ranked;
}

/** Words in all the texts (the mocks' token count). */
export const wordsIn = (texts: string[]) => texts.reduce((sum, text) => sum + countWords(text), 0);
