/** Text made safe to place inside HTML (mail bodies that quote names, links or upstream error messages). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
