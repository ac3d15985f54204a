/** A stored body as shown: indented when it is JSON, as stored otherwise (streams, text, cut bodies). */
export function readableBody(text: string): { text: string; json: boolean } {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { text: JSON.stringify(JSON.parse(trimmed), null, 2), json: true };
    } catch {
      // A body cut at the size cap is no longer JSON: shown as it was kept.
    }
  }
  return { text, json: false };
}
