import { audienceOf, type Audience } from '../domain/audience.ts';
import type { Viewer } from './context.ts';

/** The audience of a request: the viewer's account, or nobody in particular (docs/per-user.md). */
export const audienceFor = (viewer: Viewer): Audience => audienceOf(viewer.userId);
