// StatusCake public reports: `https://app.statuscake.com/Workfloor/PublicReportHandler.php?PublicID=<id>`,
// the data of a StatusCake-hosted status page. `TestData` lists the page's uptime tests, each
// with a `Status` of `Up` or `Down`. Test names are not evidenced, so the page state alone is
// read. Mapping: docs/mappings.md "StatusCake".
import { Type } from '@sinclair/typebox';
import type { Indicator } from '../../domain/records.ts';
import { AdapterError, defineAdapter, type AdapterInput } from './adapter.ts';
import { parseJsonBody } from './body.ts';
import { INDICATOR_DESCRIPTIONS } from './mapping.ts';
import { check } from './validate.ts';

const SOURCE = 'statuscake';

const PayloadSchema = Type.Object({ TestData: Type.Array(Type.Object({ Status: Type.String() })) });

/** All tests up: operational; some down: a partial outage; all down: a major one; a word we cannot read: unknown. */
export function statuscakeIndicator(statuses: readonly string[]): Indicator {
  const words = statuses.map((s) => s.trim().toLowerCase());
  const down = words.filter((w) => w === 'down').length;
  if (down > 0) return down === words.length ? 'major_outage' : 'partial_outage';
  return words.every((w) => w === 'up') ? 'operational' : 'unknown';
}

export const statuscakeAdapter = defineAdapter('statuscake', (input: AdapterInput) => {
  const data = check(SOURCE, PayloadSchema, parseJsonBody(SOURCE, input.body, input.contentType));
  if (data.TestData.length === 0) throw new AdapterError(`${SOURCE}: no tests in TestData`, { kind: 'no components' });
  const statuses = data.TestData.map((t) => t.Status);
  const indicator = statuscakeIndicator(statuses);
  const down = statuses.filter((s) => s.trim().toLowerCase() === 'down').length;
  const description = down > 0 ? `${INDICATOR_DESCRIPTIONS[indicator]}: ${down} of ${statuses.length} checks down` : INDICATOR_DESCRIPTIONS[indicator];
  return { status: { indicator, description } };
});
