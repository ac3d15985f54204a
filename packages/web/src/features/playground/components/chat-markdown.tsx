import { theme } from 'antd';
import { type CSSProperties, useMemo } from 'react';
import { renderMarkdown } from '../../../lib/rich-text';

/**
 * Model output as markdown. Everything goes through DOMPurify (renderMarkdown): a model can be talked into
 * writing any HTML, and none of it may run in the console.
 */
export function ChatMarkdown({ text }: { text: string }) {
  const { token } = theme.useToken();
  const html = useMemo(() => renderMarkdown(text), [text]);
  // Markdown output carries no antd classes, so hand it the theme's colours through CSS variables.
  const style = {
    '--rc-text': token.colorText,
    '--rc-muted': token.colorTextSecondary,
    '--rc-border': token.colorBorderSecondary,
    '--rc-code-bg': token.colorFillSecondary,
    '--rc-link': token.colorLink,
  } as CSSProperties;
  return (
    <div
      className="rich-content chat-markdown"
      style={style}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify in renderMarkdown
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
