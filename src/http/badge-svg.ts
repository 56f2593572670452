import { makeBadge } from 'badge-maker';
import type { Badge } from '../domain/badges.ts';

// The SVG of a badge, drawn by shields.io's own renderer (badge-maker), so it looks
// like every other badge in a README (flat style, shields' named colours).

export const renderBadgeSvg = (b: Badge): string => makeBadge({ label: b.label, message: b.message, color: b.color, style: 'flat' });
