// Registry of adapters by SourceType; the scheduler calls parseSource with the
// catalog's source type and the fetched bytes.
import type { SourceSnapshot, SourceType } from '../../domain/records.ts';
import type { Adapter, AdapterInput } from './adapter.ts';
import { advisoryFeedAdapter } from './advisory-feed.ts';
import { awsCurrentEventsAdapter, awsRssAdapter } from './aws.ts';
import { azureRssAdapter } from './azure.ts';
import { betterstackAdapter } from './betterstack.ts';
import { cachetAdapter } from './cachet.ts';
import { checklyAdapter } from './checkly.ts';
import { gcpAdapter } from './gcp.ts';
import { herokuStatusAdapter } from './heroku-status.ts';
import { incidentioAdapter } from './incidentio.ts';
import { instatusAdapter } from './instatus.ts';
import { releaseFeedAdapter } from './release-feed.ts';
import { salesforceTrustAdapter } from './salesforce-trust.ts';
import { slackStatusAdapter } from './slack-status.ts';
import { sorryAdapter } from './sorry.ts';
import { statuspageAtomAdapter, statuspageRssAdapter } from './statuspage-feed.ts';
import { statuspageV2Adapter } from './statuspage-v2.ts';
import { statusioAdapter } from './statusio.ts';
import { statuspalAdapter } from './statuspal.ts';
import { hundAdapter } from './hund.ts';
import { cstateAdapter } from './cstate.ts';
import { statuspageHtmlAdapter } from './statuspage-html.ts';
import { uptimerobotAdapter } from './uptimerobot.ts';
import { site24x7Adapter } from './site24x7.ts';
import { stripeStatusAdapter } from './stripe-status.ts';
import { zendeskStatusAdapter } from './zendesk-status.ts';
import { paypalStatusAdapter } from './paypal-status.ts';
import { algoliaStatusAdapter } from './algolia-status.ts';
import { oktaStatusAdapter } from './okta-status.ts';
import { statuscakeAdapter } from './statuscake.ts';
import { statushubAdapter } from './statushub.ts';
import { fastlyStatusAdapter } from './fastly-status.ts';

export { AdapterError, type Adapter, type AdapterInput } from './adapter.ts';

const adapters: Record<SourceType, Adapter> = {
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
  statusio: statusioAdapter,
  'slack-status': slackStatusAdapter,
  'heroku-status': herokuStatusAdapter,
  'salesforce-trust': salesforceTrustAdapter,
  sorry: sorryAdapter,
  cachet: cachetAdapter,
  statuspal: statuspalAdapter,
  hund: hundAdapter,
  'statuspage-html': statuspageHtmlAdapter,
  uptimerobot: uptimerobotAdapter,
  cstate: cstateAdapter,
  site24x7: site24x7Adapter,
  'stripe-status': stripeStatusAdapter,
  'zendesk-status': zendeskStatusAdapter,
  'paypal-status': paypalStatusAdapter,
  'algolia-status': algoliaStatusAdapter,
  'okta-status': oktaStatusAdapter,
  statuscake: statuscakeAdapter,
  statushub: statushubAdapter,
  'fastly-status': fastlyStatusAdapter,
  'advisory-feed': advisoryFeedAdapter,
  'release-feed': releaseFeedAdapter,
};

/** Parses one fetched payload; throws AdapterError (and nothing else) when it is unusable. */
export function parseSource(type: SourceType, input: AdapterInput): SourceSnapshot {
  return adapters[type].parse(input);
}
