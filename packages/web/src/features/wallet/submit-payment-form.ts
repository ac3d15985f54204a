import type { PayFields } from './types';

/**
 * Hands the order to the payment gateway the way epay expects it: an HTML form POST of the signed fields to the
 * gateway's address.
 *
 * The form is submitted in the same window (`_self`). The order is created by an API call first, so the submit
 * runs after an `await`, outside the click's user gesture: a `_blank` target is then treated as a pop-up and
 * blocked by Safari and by strict pop-up settings elsewhere. The gateway's `return_url` brings the user back to
 * the console (the usage log, where the top-up shows up) after paying.
 */
export function submitPaymentForm(url: string, fields: PayFields, target = '_self'): void {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = url;
  form.target = target;
  form.style.display = 'none';
  for (const [name, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = String(value);
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
  form.remove();
}
