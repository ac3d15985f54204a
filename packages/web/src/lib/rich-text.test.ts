import { describe, expect, it } from 'vitest';
import { isEmbeddedPage, renderMarkdown, sanitizeHtml } from './rich-text';

describe('rich text', () => {
  it('renders markdown and strips scripts and handlers', () => {
    const html = renderMarkdown('**bold** <script>alert(1)</script><a href="javascript:alert(1)">x</a>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('javascript:');
  });

  it('opens external links in a new tab', () => {
    expect(sanitizeHtml('<a href="https://example.com">x</a>')).toContain('target="_blank"');
  });

  it('embeds only https addresses', () => {
    expect(isEmbeddedPage(' https://example.com ')).toBe(true);
    expect(isEmbeddedPage('http://example.com')).toBe(false);
    expect(isEmbeddedPage('# https://example.com')).toBe(false);
  });
});
