import DOMPurify from 'dompurify';
import { marked } from 'marked';

// Notice, home page, about and footer are written by an admin, but a stolen admin session must not turn them
// into a script injection on every visitor: everything goes through DOMPurify.
let hooksInstalled = false;

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    // Links in admin content leave the console instead of replacing it.
    if (node.tagName === 'A' && node.getAttribute('href')?.match(/^https?:/)) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
}

export function sanitizeHtml(html: string): string {
  installHooks();
  return DOMPurify.sanitize(html);
}

/** Markdown (raw HTML allowed inside it, as the family does) to sanitised HTML. */
export function renderMarkdown(text: string): string {
  return sanitizeHtml(marked.parse(text, { async: false, gfm: true, breaks: true }));
}

/** Home and about content that is just an https address is shown as a full-size embedded page. */
export function isEmbeddedPage(content: string): boolean {
  return content.trim().startsWith('https://');
}
