// Loaded on every page: small enhancements that need no data.
import { announce } from './common.js';

// Copy buttons: <button data-copy="#target-id">.
document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
  if (!button) return;
  const target = document.querySelector(button.getAttribute('data-copy'));
  if (!target) return;
  const text = target.value ?? target.textContent;
  try {
    await navigator.clipboard.writeText(text.trim());
    button.textContent = 'Copied';
    announce('Copied to the clipboard');
  } catch {
    // Clipboard refused (permissions): select the text so the user can copy it.
    const range = document.createRange();
    range.selectNodeContents(target);
    const sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    announce('Press Control+C or Command+C to copy');
  }
});
