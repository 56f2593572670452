// Registry of adapters by SourceType; the scheduler calls parseSource with the
// catalog's source type and the fetched bytes.
import type { SourceSnapshot, SourceType } from '../../domain/records.ts';
import type { Adapter, AdapterInput } from './adapter.ts';
import { advisoryFeedAdapter } from './advisory-feed.ts';
import { awsCurrentEventsAdapter, awsRssAdapter } from './aws.ts';
import { azureRssAdapter } from './azure.ts';
import { betterstackAdapter } from './betterstack.ts';
import { checklyAdapter } from './checkly.ts';
import { gcpAdapter } from './gcp.ts';
import { incidentioAdapter } from './incidentio.ts';
import { instatusAdapter } from './instatus.ts';
import { releaseFeedAdapter } from './release-feed.ts';
import { statuspageAtomAdapter, statuspageRssAdapter } from './statuspage-feed.ts';
import { statuspageV2Adapter } from './statuspage-v2.ts';

export { AdapterError, type Adapter, type AdapterInput } from './adapter.ts';

export const adapters: Record<SourceType, Adapter> = {
  'statuspage-v2': statuspageV2Adapter,
  incidentio: incidentioAdapter,
  instatus: instatusAdapter,
  betterstack: betterstackAdapter,
  checkly: checklyAdapter,
  'gcp-json': gcpAdapter,
  'aws-currentevents': awsCurrentEventsAdapter,
  'aws-rss': awsRssAdapter,
  'azure-rss': azureRssAdapter,
  'statuspage-rss': statuspageRssAdapter,
  'statuspage-atom': statuspageAtomAdapter,
  'advisory-feed': advisoryFeedAdapter,
  'release-feed': releaseFeedAdapter,
};

/** Parses one fetched payload; throws AdapterError (and nothing else) when it is unusable. */
export function parseSource(type: SourceType, input: AdapterInput): SourceSnapshot {
  return adapters[type].parse(input);
}
