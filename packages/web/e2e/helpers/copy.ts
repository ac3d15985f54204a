import type { Locator, Page } from 'playwright-core';

const TOAST_WAIT_MS = 30_000;

/**
 * Clicks something that copies to the clipboard, waits for the console's toast, and returns what the clipboard holds.
 *
 * Two things made such steps flaky on a loaded machine, and both are handled here:
 * - Chromium refuses `navigator.clipboard.writeText` on a page without focus (the console then opens its
 *   copy-it-yourself dialog), and a full-page screenshot can leave the page unfocused; so the page is brought to the
 *   front first.
 * - A toast lives about three seconds. Every toast text is recorded from just before the click, so a toast that came
 *   and went before the check is still found.
 */
export async function copyAndReadClipboard(page: Page, trigger: Locator, toast: RegExp): Promise<string> {
  await page.bringToFront();
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __toasts: string[] }).__toasts = seen;
    const record = () => {
      for (const notice of document.querySelectorAll('.ant-message-notice')) {
        const text = notice.textContent ?? '';
        if (text && !seen.includes(text)) seen.push(text);
      }
    };
    new MutationObserver(record).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  await trigger.click();
  try {
    await page.waitForFunction(
      ({ source, flags }) =>
        (window as unknown as { __toasts: string[] }).__toasts.some((text) => new RegExp(source, flags).test(text)),
      { source: toast.source, flags: toast.flags },
      { timeout: TOAST_WAIT_MS },
    );
  } catch (error) {
    // Say what the page showed instead: other toasts, or the dialog that appears when the browser refused the copy.
    const shown = await page.evaluate(() => ({
      toasts: (window as unknown as { __toasts: string[] }).__toasts,
      dialogs: [...document.querySelectorAll('.ant-modal')].map((dialog) => dialog.textContent),
    }));
    throw new Error(`no toast matching ${toast} after the copy; the page showed ${JSON.stringify(shown)}`, {
      cause: error,
    });
  }
  return page.evaluate(() => navigator.clipboard.readText());
}
