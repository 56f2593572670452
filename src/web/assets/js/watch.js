// Vendor page: add the vendor to the watchlist or remove it.
import { api, errorMessage } from './common.js';

const button = document.querySelector('[data-watch-toggle]');
const status = document.querySelector('[data-watch-status]');

button?.addEventListener('click', async () => {
  const slug = button.dataset.watchToggle;
  const watched = button.dataset.watched === '1';
  button.disabled = true;
  const result = await api(`/api/v1/infrastructure/watchlist/${encodeURIComponent(slug)}`, { method: watched ? 'DELETE' : 'POST' });
  button.disabled = false;
  if (!result.ok) {
    status.textContent = [errorMessage(result), result.body?.hint].filter(Boolean).join(' ');
    return;
  }
  const now = result.body.vendors.includes(slug);
  button.dataset.watched = now ? '1' : '0';
  button.textContent = now ? 'Remove from watchlist' : 'Add to watchlist';
  const warnings = Array.isArray(result.body.warnings) ? result.body.warnings.join(' ') : '';
  status.textContent = now ? [`Added. ${result.body.count} vendors on your watchlist.`, warnings].filter(Boolean).join(' ') : 'Removed from your watchlist.';
});
