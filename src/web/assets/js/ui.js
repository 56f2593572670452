// Loaded on every page: small enhancements that need no data.
import { announce, api } from './common.js';

// Copy buttons: <button data-copy="#target-id">.
document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
  if (!button) return;
  const target = document.querySelector(button.getAttribute('data-copy'));
  if (!target) return;
  const text = ('value' in target ? target.value : target.textContent).trim();
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
    announce('Copied to the clipboard');
  } catch {
    // Clipboard refused (permissions, insecure origin): select the text instead.
    const range = document.createRange();
    range.selectNodeContents(target);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    announce('Selected: press Control+C or Command+C to copy');
  }
});

// Log out through the API, then back to the overview.
for (const form of document.querySelectorAll('[data-logout]')) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    await api(form.getAttribute('action'), { method: 'POST' });
    window.location.assign('/');
  });
}
