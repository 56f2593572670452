import { audienceOf, PUBLIC_AUDIENCE, type Audience } from '../../domain/audience.ts';
import type { Viewer } from '../context.ts';

/**
 * The audience of a request: the viewer's account, or nobody in particular (docs/per-user.md).
 * A signed-in caller reading a shared cached answer reads as the public does (`readsPublic`).
 */
export const audienceFor = (viewer: Viewer): Audience => (viewer.readsPublic ? PUBLIC_AUDIENCE : audienceOf(viewer.orgId));
