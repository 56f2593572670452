import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { anonymousViewer, type Viewer } from '../../services/context.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling; set by the authentication hook, anonymous until then. */
    viewer: Viewer;
  }
}

export const viewerPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('viewer', null as unknown as Viewer);
    app.addHook('onRequest', async (request) => {
      request.viewer = anonymousViewer;
    });
  },
  { name: 'viewer' },
);
