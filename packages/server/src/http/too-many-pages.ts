import { translate } from '@gateway/shared';

/**
 * The page a browser gets when an address loaded console pages faster than the per-IP web limit allows: plain
 * HTML with no script and no external file (those would be refused too), in both languages, saying when to retry.
 */
export function tooManyPagesHtml(retryAfterSeconds: number): string {
  const zh = translate('web_rate_limited_page', 'zh', { seconds: retryAfterSeconds });
  const en = translate('web_rate_limited_page', 'en', { seconds: retryAfterSeconds });
  return `<!doctype html>
<html lang="zh"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>429</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1.5rem;line-height:1.6;color:#1f1f1f}
@media (prefers-color-scheme:dark){body{background:#141414;color:#e8e8e8}}h1{font-size:1.4rem}</style></head>
<body><h1>429</h1><p>${zh}</p><p lang="en">${en}</p></body></html>`;
}
