import type { Badge } from '../../domain/stats.ts';
import { html, type Html } from '../html.ts';

// Server-rendered SVG charts (docs/web.md, "Charts"): no script, no inline
// style (the CSP forbids both; colours come from classes in app.css), an
// accessible name and description on every <svg>, and the same figures as a
// table under "Show the numbers" for screen readers and for copying. A value we
// did not observe (null) is never drawn as a figure: its slot is an empty dashed
// outline marked "no data", and the table says "no data".

interface Datum {
  /** Axis and table label (e.g. "4 Nov", a component or vendor name). */
  label: string;
  /** null: not observed (or not available to this viewer, with `note`). */
  value: number | null;
  /** The value as the table and the label show it (e.g. "2 h 5 min"). */
  text: string;
  /** Shown instead of "no data" for a null value (e.g. "Standard plan"). */
  note?: string;
  /** Colour of a dot on a percentage axis; without it the neutral bar colour. */
  tone?: 'ok' | 'warn' | 'down';
}

export interface ChartSpec {
  /** Unique on the page: ids of the title and description derive from it. */
  id: string;
  title: string;
  /** One or two sentences saying what is drawn and how to read it. */
  description: string;
  data: Datum[];
  /** Header of the value column of the table. */
  valueHeader: string;
  /** Header of the label column of the table. */
  labelHeader: string;
  /** Unit written after the axis ticks (e.g. "h"); none for counts. */
  unit?: string;
}

const W = 640;
const round = (n: number) => Math.round(n * 10) / 10;

/** A "nice" upper bound for an axis from 0: 1, 2, 5 × 10^k. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}

function frame(spec: ChartSpec, height: number, body: Html, cls: string): Html {
  const t = `${spec.id}-title`;
  const d = `${spec.id}-desc`;
  const noData = spec.data.some((x) => x.value === null && !x.note);
  return html`<figure class="chart ${cls}" id="${spec.id}">
    <figcaption class="chart__caption">${spec.title}${noData ? html` <span class="muted">(shaded: no data, not observed)</span>` : ''}</figcaption>
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" role="img" aria-labelledby="${t} ${d}" preserveAspectRatio="xMinYMin meet">
      <title id="${t}">${spec.title}</title>
      <desc id="${d}">${spec.description}</desc>
      ${body}
    </svg>
    ${dataTable(spec)}
  </figure>`;
}

function dataTable(spec: ChartSpec): Html {
  return html`<details class="chart__table"><summary>Show the numbers<span class="visually-hidden">: ${spec.title}</span></summary>
    <div class="table-scroll" tabindex="0" role="region" aria-label="${spec.title}, as a table">
    <table><caption class="visually-hidden">${spec.title}</caption>
      <thead><tr><th scope="col">${spec.labelHeader}</th><th scope="col">${spec.valueHeader}</th></tr></thead>
      <tbody>${spec.data.map((x) => html`<tr><th scope="row">${x.label}</th><td>${x.value === null ? (x.note ?? 'no data') : x.text}</td></tr>`)}</tbody>
    </table></div>
  </details>`;
}

/**
 * Vertical columns from a zero baseline (counts, durations over time). Every
 * second label is shown when there are many columns, so they do not overlap.
 */
export function columnChart(spec: ChartSpec): Html {
  const H = 220;
  const top = 16;
  const left = 52;
  const bottom = 36;
  const plotH = H - top - bottom;
  const plotW = W - left - 8;
  const values = spec.data.map((x) => x.value).filter((v): v is number => v !== null);
  const max = niceMax(Math.max(0, ...values));
  const slot = plotW / Math.max(1, spec.data.length);
  const barW = Math.max(2, slot * 0.7);
  const baseY = top + plotH;
  const every = spec.data.length > 8 ? 2 : 1;
  const ticks = [0, max / 2, max];
  const body = html`<g class="chart__axis">
      ${ticks.map((v) => {
        const y = round(baseY - (v / max) * plotH);
        return html`<line class="chart__grid" x1="${left}" x2="${W - 8}" y1="${y}" y2="${y}"></line><text class="chart__tick" x="${left - 6}" y="${y + 4}" text-anchor="end">${fmtTick(v)}${spec.unit ? ` ${spec.unit}` : ''}</text>`;
      })}
    </g>
    <g class="chart__zones">${runs(spec.data).map((r) => {
      const x0 = round(left + slot * r.from);
      const w = round(slot * (r.to - r.from + 1));
      return html`<rect class="${r.note ? 'chart__locked' : 'chart__nodata'}" data-nodata="${r.note ? 'locked' : 'unobserved'}" data-slots="${r.to - r.from + 1}" x="${x0}" y="${top}" width="${w}" height="${plotH}"></rect><text class="chart__zone-label" x="${round(x0 + w / 2)}" y="${top + plotH / 2}" text-anchor="middle">${w >= 60 ? (r.note ?? 'no data') : ''}</text>`;
    })}</g>
    <g class="chart__bars">
      ${spec.data.map((x, k) => {
        const cx = left + slot * k + slot / 2;
        const x0 = round(cx - barW / 2);
        const label =
          k % every === (spec.data.length - 1) % every
            ? html`<text class="chart__label" x="${round(cx)}" y="${H - bottom + 16}" text-anchor="middle">${x.label}</text>`
            : '';
        if (x.value === null) return label;
        const h = round((x.value / max) * plotH);
        return html`<rect class="chart__bar" data-value="${x.value}" x="${x0}" y="${round(baseY - h)}" width="${round(barW)}" height="${h}"><title>${x.label}: ${x.text}</title></rect>${label}`;
      })}
    </g>
    <line class="chart__baseline" x1="${left}" x2="${W - 8}" y1="${baseY}" y2="${baseY}"></line>`;
  return frame(spec, H, body, 'chart--columns');
}

/** Consecutive null values with the same note, as [from, to] slot ranges (drawn as one shaded zone). */
function runs(data: Datum[]): { from: number; to: number; note: string | undefined }[] {
  const out: { from: number; to: number; note: string | undefined }[] = [];
  data.forEach((x, k) => {
    if (x.value !== null) return;
    const last = out[out.length - 1];
    if (last && last.to === k - 1 && last.note === x.note) last.to = k;
    else out.push({ from: k, to: k, note: x.note });
  });
  return out;
}

const fmtTick = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

/**
 * One row per item with a horizontal bar from zero (counts, durations), or, with
 * `percentFrom`, a dot on a percentage axis that starts at that value: uptime
 * differences live in the last percent, and a dot (unlike a bar) does not claim
 * a zero baseline. The axis ends are labelled so the range is never hidden.
 */
/** Characters of a label line: at phone width labels are drawn at 19 units (app.css), up to 12 a character: 14 fit the 180-unit column. */
const LABEL_LINE = 14;
const LABEL_LINES = 3;
const LINE_PITCH = 20;

/**
 * A row label in lines that fit the label column, broken between words, so a vendor's name
 * is shown whole (docs/web.md, "Charts"). Only a word longer than a line, or a fourth line,
 * is cut with "…"; the full label stays in the mark's title and the table.
 */
export function labelLines(label: string): string[] {
  const lines: string[] = [];
  for (const word of label.trim().split(/\s+/)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= LABEL_LINE) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word.length > LABEL_LINE ? `${word.slice(0, LABEL_LINE - 1)}…` : word);
  }
  if (lines.length <= LABEL_LINES) return lines;
  const kept = lines.slice(0, LABEL_LINES);
  kept[LABEL_LINES - 1] = `${kept[LABEL_LINES - 1]!.slice(0, LABEL_LINE - 1)}…`;
  return kept;
}

/** A dot's colour follows the uptime badge (docs/statistics.md): green only for a good figure, none for an unknown one. */
export const UPTIME_TONE: Record<Badge, 'ok' | 'warn' | 'down' | undefined> = { excellent: 'ok', good: 'ok', fair: 'warn', poor: 'down', unknown: undefined };

export function rowChart(spec: ChartSpec, opts: { percentFrom?: number } = {}): Html {
  const labels = spec.data.map((x) => labelLines(x.label));
  // Every row takes the height of the tallest label; the marks keep their size.
  const row = 30 + LINE_PITCH * (Math.max(1, ...labels.map((l) => l.length)) - 1);
  const top = 8;
  const labelW = 180;
  const valueW = 120;
  const plotX = labelW + 8;
  const plotW = W - plotX - valueW;
  const axisY = top + row * spec.data.length + 4;
  const H = axisY + 22;
  const values = spec.data.map((x) => x.value).filter((v): v is number => v !== null);
  const percent = opts.percentFrom !== undefined;
  const lo = percent ? opts.percentFrom! : 0;
  const hi = percent ? 100 : niceMax(Math.max(0, ...values));
  const xOf = (v: number) => round(plotX + ((Math.min(Math.max(v, lo), hi) - lo) / (hi - lo || 1)) * plotW);
  const body = html`${spec.data.map((x, k) => {
    const mid = top + row * k + row / 2;
    const y = mid - 15;
    const lines = labels[k]!;
    const first = round(mid + 4 - (LINE_PITCH * (lines.length - 1)) / 2);
    const label = html`<text class="chart__label" x="${labelW}" y="${first}" text-anchor="end">${lines.length === 1 ? lines[0]! : lines.map((l, i) => html`<tspan x="${labelW}" dy="${i ? LINE_PITCH : 0}">${l}</tspan>`)}</text>`;
    const value = html`<text class="chart__value" x="${W - valueW + 14}" y="${mid + 4}">${x.value === null ? (x.note ?? 'no data') : x.text}</text>`;
    if (x.value === null) {
      return html`${label}<rect class="${x.note ? 'chart__locked' : 'chart__nodata'}" data-nodata="${x.note ? 'locked' : 'unobserved'}" x="${plotX}" y="${y + 6}" width="${round(plotW)}" height="18"><title>${x.label}: ${x.note ?? 'no data'}</title></rect>${value}`;
    }
    if (percent) {
      return html`${label}<line class="chart__track" x1="${plotX}" x2="${plotX + round(plotW)}" y1="${mid}" y2="${mid}"></line><circle class="chart__dot${x.tone ? ` chart__dot--${x.tone}` : ''}" data-value="${x.value}" cx="${xOf(x.value)}" cy="${mid}" r="6"><title>${x.label}: ${x.text}</title></circle>${value}`;
    }
    const w = round(xOf(x.value) - plotX);
    return html`${label}<rect class="chart__bar" data-value="${x.value}" x="${plotX}" y="${y + 6}" width="${w}" height="18"><title>${x.label}: ${x.text}</title></rect>${value}`;
  })}
    <line class="chart__baseline" x1="${plotX}" x2="${plotX + round(plotW)}" y1="${axisY}" y2="${axisY}"></line>
    <text class="chart__tick" x="${plotX}" y="${axisY + 16}" text-anchor="start">${percent ? `${lo}%` : '0'}</text>
    <text class="chart__tick" x="${plotX + round(plotW)}" y="${axisY + 16}" text-anchor="end">${percent ? '100%' : `${fmtTick(hi)}${spec.unit ? ` ${spec.unit}` : ''}`}</text>`;
  return frame(spec, H, body, percent ? 'chart--dots' : 'chart--rows');
}

/** Where a percentage axis starts so every observed value fits: 99, 95, 90, 50 or 0. */
export function percentFloor(values: (number | null)[]): number {
  const seen = values.filter((v): v is number => v !== null);
  const min = Math.min(100, ...seen);
  return [99, 95, 90, 50, 0].find((f) => min >= f) ?? 0;
}
