/**
 * Saves text as a file through a temporary link. With `bom`, a byte-order mark goes first so spreadsheet programs
 * read the Chinese texts of a CSV as UTF-8.
 */
export function downloadText(fileName: string, text: string, type: string, bom = false): void {
  const blob = new Blob(bom ? ['\uFEFF', text] : [text], { type: `${type};charset=utf-8` });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled, or some browsers cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
