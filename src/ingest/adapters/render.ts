// Serializers that turn our records back into real upstream formats. The demo
// simulator serves their output, and the round-trip tests prove that the adapters
// read it back unchanged.
export {
  renderStatuspageIncidents,
  renderStatuspageMaintenances,
  renderStatuspageSummary,
  type StatuspagePageInfo,
  type StatuspageSummaryInput,
} from './render-statuspage.ts';
export { renderInstatusSummary, type InstatusSummaryInput } from './render-instatus.ts';
export { renderIncidentioWidget, type IncidentioWidgetInput } from './render-incidentio.ts';
export { renderGcpIncidents } from './render-gcp.ts';
export { renderStatusio, type StatusioInput } from './render-statusio.ts';
export { renderHerokuCurrentStatus, renderSlackCurrent, renderTrustActiveIncidents } from './render-vendor-apis.ts';
export { renderCachetIncidents, renderSorryNotices, renderSorryPage } from './render-selfhosted.ts';
export {
  advisoryFeed,
  releaseFeed,
  renderAtom,
  renderRss,
  statuspageHistoryFeed,
  type FeedDocumentOut,
  type FeedItemOut,
} from './render-feed.ts';
