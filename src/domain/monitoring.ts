import type { DataType } from './records.ts';

// A catalog vendor without a machine-readable status source is *not monitored*: a state,
// not a promise that data will come (docs/web.md "Not monitored"). Such a vendor has no
// status source, so it publishes no incidents (docs/catalog.md "Vendors without a
// machine-readable source"); everywhere state is summed up it is counted apart, never as
// operational and never as "not read yet".

/** The words every surface uses for it. */
export const NOT_MONITORED = 'not monitored: no machine-readable status source';
/** The same words opening a sentence or a description. */
export const NOT_MONITORED_SENTENCE = 'Not monitored: no machine-readable status source';

/** Has a status source: `incidents` is available iff a status source exists (docs/catalog.md). */
export const isMonitored = (v: { availableDataTypes: readonly DataType[] }): boolean => v.availableDataTypes.includes('incidents');

/** The warning given when someone follows a vendor that is not monitored (watchlist, board). */
export const notMonitoredWarning = (name: string): string => `${name} is ${NOT_MONITORED}; following it will show no status, incidents or alerts.`;
