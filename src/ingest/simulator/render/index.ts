// Serializers that turn our records back into real upstream formats. The demo
// simulator serves their output, and the round-trip tests prove that the adapters
// read it back unchanged.
export {
  renderStatuspageIncidents,
  renderStatuspageMaintenances,
  renderStatuspageSummary,
  type StatuspagePageInfo,
  type StatuspageSummaryInput,
} from './statuspage.ts';
export { renderInstatusSummary, type InstatusSummaryInput } from './instatus.ts';
export { renderIncidentioWidget, type IncidentioWidgetInput } from './incidentio.ts';
export { renderGcpIncidents } from './gcp.ts';
export { renderStatusio, type StatusioInput } from './statusio.ts';
export { renderHerokuCurrentStatus, renderSlackCurrent, renderTrustActiveIncidents } from './vendor-apis.ts';
export { renderCachetIncidents, renderSorryNotices, renderSorryPage } from './selfhosted.ts';
export {
  advisoryFeed,
  releaseFeed,
  renderAtom,
  renderRss,
  statuspageHistoryFeed,
  type FeedDocumentOut,
  type FeedItemOut,
} from './feed.ts';
