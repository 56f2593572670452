import { Type } from '@sinclair/typebox';
import { MAX_FRAME_ANCESTORS } from '../../domain/boards.ts';
import { DateTime, PLAIN_TEXT_PATTERN } from './common.ts';

// Public status boards (docs/boards.md).

const BoardSchema = Type.Object(
  {
    id: Type.String({ description: 'Id for revoking; not the public URL' }),
    title: Type.String(),
    vendors: Type.Array(Type.String(), { description: 'Vendor slugs shown, copied from the watchlist when the board was made' }),
    frameAncestors: Type.Array(Type.String(), { description: 'CSP frame-ancestors sources of the public page (`*` = embeddable anywhere)' }),
    createdAt: DateTime(),
  },
  { additionalProperties: false, description: 'A public status board' },
);

export const BoardCreateBody = Type.Object(
  {
    title: Type.Optional(Type.String({ maxLength: 100, pattern: PLAIN_TEXT_PATTERN, description: 'Heading of the page (default "Our vendors")' })),
    frameAncestors: Type.Optional(
      Type.Array(Type.String({ maxLength: 200 }), {
        minItems: 1,
        maxItems: MAX_FRAME_ANCESTORS,
        description: "Sites that may embed the page in a frame: `*` (default), `'self'`, `'none'` or origins like `https://intranet.example.com`",
        examples: [['https://intranet.example.com']],
      }),
    ),
  },
  { additionalProperties: false },
);

export const BoardCreated = Type.Object({
  success: Type.Boolean(),
  board: BoardSchema,
  url: Type.String({ description: 'The public page; its token is in this response only (stored hashed)' }),
  token: Type.String({ description: 'The unguessable part of the URL (256 random bits, base64url)' }),
  warnings: Type.Optional(
    Type.Array(Type.String(), {
      description: 'Present when a vendor on the board is not monitored (no machine-readable status source): the board shows it as such',
    }),
  ),
});

export const BoardList = Type.Object({ success: Type.Boolean(), boards: Type.Array(BoardSchema) });

export const BoardTokenParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'The token of the board URL' }),
});
