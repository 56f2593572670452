// Overview page: filter the vendor cards as you type (and keep the filter in
// the address so it survives reloads and can be shared), plus live updates.
import { startLive, startLiveFromMain } from './live-core.js';

const form = document.querySelector('[data-filter-form]');
const grid = document.querySelector('[data-vendor-grid]');
const result = document.querySelector('[data-filter-result]');
const empty = document.querySelector('[data-filter-empty]');

function currentFilter() {
  const data = new FormData(form);
  return {
    q: String(data.get('q') || '')
      .trim()
      .toLowerCase(),
    category: String(data.get('category') || ''),
    problems: data.get('problems') === '1',
    scope: String(data.get('scope') || ''),
  };
}

function applyFilter({ updateUrl = false } = {}) {
  if (!form || !grid) return;
  const f = currentFilter();
  const cards = grid.querySelectorAll('[data-vendor]');
  let shown = 0;
  for (const card of cards) {
    const match =
      (!f.category || card.dataset.category === f.category) &&
      (!f.problems || card.dataset.problem === '1') &&
      (!f.q || card.dataset.name.includes(f.q) || card.dataset.vendor.includes(f.q));
    card.hidden = !match;
    if (match) shown++;
  }
  result.textContent = `Showing ${shown} of ${cards.length} vendors`;
  empty.hidden = shown !== 0;
  if (updateUrl) {
    const params = new URLSearchParams();
    if (f.q) params.set('q', f.q);
    if (f.category) params.set('category', f.category);
    if (f.problems) params.set('problems', '1');
    if (f.scope === 'all') params.set('scope', 'all');
    const qs = params.toString();
    history.replaceState(null, '', qs ? `/?${qs}` : '/');
  }
}

if (form) {
  form.querySelector('[data-filter-submit]').hidden = true;
  form.addEventListener('input', () => applyFilter({ updateUrl: true }));
  form.addEventListener('change', () => applyFilter({ updateUrl: true }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    applyFilter({ updateUrl: true });
  });
}

const options = startLiveFromMain();
if (options) startLive({ ...options, onSwap: () => applyFilter() });
