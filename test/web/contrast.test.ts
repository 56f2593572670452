import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ASSET_DIR } from '../../src/web/assets.ts';

// WCAG 2.x contrast of the colour pairs the stylesheet uses: 4.5:1 for text,
// 3:1 for graphical marks (uptime bar cells, card borders) against the surface.

const css = fs.readFileSync(path.join(ASSET_DIR, 'css/app.css'), 'utf8');
const vars = new Map([...css.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})\s*;/g)].map((m) => [m[1]!, m[2]!]));

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function ratio(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

const color = (name: string) => {
  const v = vars.get(name);
  assert.ok(v, `--${name} is defined`);
  return v;
};

test('text colours reach 4.5:1 on the backgrounds they are used on', () => {
  const pairs: [string, string][] = [
    ['text', 'surface'],
    ['text', 'bg'],
    ['muted', 'surface'],
    ['muted', 'bg'],
    ['link', 'surface'],
    ['link', 'bg'],
    ['brand-text', 'brand'],
    ['text', 'unknown-bg'],
    ['text', 'ok-bg'],
    ['text', 'down-bg'],
    ['text', 'warn-bg'],
    ['text', 'maint-bg'],
  ];
  for (const state of ['ok', 'warn', 'partial', 'down', 'maint', 'unknown']) {
    pairs.push([`${state}-fg`, `${state}-bg`], [`${state}-fg`, 'surface']);
  }
  for (const [fg, bg] of pairs) {
    const r = ratio(color(fg), color(bg));
    assert.ok(r >= 4.5, `--${fg} on --${bg}: ${r.toFixed(2)}:1`);
  }
});

test('graphical marks reach 3:1 against the surface', () => {
  assert.equal(ratio('#000000', '#ffffff').toFixed(1), '21.0');
  for (const mark of ['input-border', 'bar-ok', 'bar-minor', 'bar-major', 'bar-critical', 'bar-nodata', 'maint-fg', 'focus']) {
    const r = ratio(color(mark), color('surface'));
    assert.ok(r >= 3, `--${mark}: ${r.toFixed(2)}:1`);
  }
});
