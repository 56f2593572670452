// StatusHub-hosted pages: `<page>/api/statuses`, whose `counters` count the page's services
// by state: `count_status_1` up, `count_status_2` affected, `count_status_3` down. Service names
// are not evidenced, so the page state alone is read. Mapping: docs/mappings.md "StatusHub".
import { Type } from '@sinclair/typebox';
import type { Indicator } from '../../domain/records.ts';
import { defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { INDICATOR_DESCRIPTIONS } from './mapping.ts';
import { check } from './validate.ts';

const SOURCE = 'statushub';

const Count = Type.Integer({ minimum: 0 });
const PayloadSchema = Type.Object({ counters: Type.Object({ count_status_1: Count, count_status_2: Count, count_status_3: Count }) });

export function statushubIndicator(up: number, affected: number, down: number): Indicator {
  if (down > 0) return up === 0 && affected === 0 ? 'major_outage' : 'partial_outage';
  if (affected > 0) return 'degraded';
  return up > 0 ? 'operational' : 'unknown';
}

export const statushubAdapter = defineAdapter('statushub', (input: AdapterInput) => {
  const { counters: c } = check(SOURCE, PayloadSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  const indicator = statushubIndicator(c.count_status_1, c.count_status_2, c.count_status_3);
  const counts = [c.count_status_2 ? `${c.count_status_2} affected` : '', c.count_status_3 ? `${c.count_status_3} down` : ''].filter(Boolean).join(', ');
  return { status: { indicator, description: counts ? `${INDICATOR_DESCRIPTIONS[indicator]}: ${counts}` : INDICATOR_DESCRIPTIONS[indicator] } };
});
