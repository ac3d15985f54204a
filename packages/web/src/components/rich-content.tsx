import { theme } from 'antd';
import { type CSSProperties, useMemo } from 'react';
import { isEmbeddedPage, renderMarkdown } from '../lib/rich-text';

interface RichContentProps {
  content: string;
  /** Accessible name of the frame when the content is an address to embed. */
  frameTitle: string;
  testId?: string;
  /** Off for the notice: an address there is a link to follow, not a page to embed. */
  allowEmbed?: boolean;
}

/** Admin-written content: an https address becomes a full-size frame, anything else sanitised markdown. */
export function RichContent({ content, frameTitle, testId, allowEmbed = true }: RichContentProps) {
  const { token } = theme.useToken();
  const trimmed = content.trim();
  const embedded = allowEmbed && isEmbeddedPage(trimmed);
  const html = useMemo(() => (embedded ? '' : renderMarkdown(trimmed)), [embedded, trimmed]);

  if (embedded) {
    return <iframe className="embedded-page" src={trimmed} title={frameTitle} data-testid={testId} />;
  }
  // Markdown output carries no antd classes, so hand it the theme's colours through CSS variables.
  const style = {
    '--rc-text': token.colorText,
    '--rc-muted': token.colorTextSecondary,
    '--rc-border': token.colorBorderSecondary,
    '--rc-code-bg': token.colorFillTertiary,
    '--rc-link': token.colorLink,
  } as CSSProperties;
  return (
    <article
      className="rich-content"
      style={style}
      data-testid={testId}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify in renderMarkdown
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
