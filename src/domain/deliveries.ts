import { randomUUID } from 'node:crypto';

// Rules every delivery row follows, whoever creates it: the dispatcher, the test
// alert, the delivery worker (docs/alerts.md).

/** Where a delivery row stands (docs/alerts.md); also a filter of the delivery log. */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export const newDeliveryId = () => `dlv_${randomUUID().replace(/-/g, '')}`;

/** The lease of a claimed row: longer than any send can take, so a live worker never loses it. */
export const leaseMs = (timeoutMs: number) => 2 * timeoutMs + 1_000;
