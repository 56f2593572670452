import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { emit, incident } from '../../helpers/alerts.ts';
import { type HttpReceiver, startReceiver } from '../../helpers/receivers.ts';
import { startFakeStatusPages, type FakeStatusPages } from '../../helpers/fake-status-page.ts';
import { send } from '../../helpers/users.ts';
import { signatureOf } from '../../../src/domain/early-warning-signing.ts';
import { callMcpTool, type FullAccount, fullAccount } from './support.ts';

// Insecure direct object references: user A holds one of everything (keys,
// watchlist, preferences and channels, notifications, deliveries, feed, an OAuth
// connection); user B then calls EVERY operation of /openapi.json that needs a
// credential, plus the account pages, with B's key and with B's session, naming
// A's ids wherever an operation takes an id. Each answer must be B's own data or
// 404 (403 where the credential kind is refused), never mention anything of A's,
// and A's state must be exactly as before. The operation list comes from the
// OpenAPI document, so a new per-user route fails here until it has a probe.
// Extends the two-user checks of test/integration/http/{watchlist,preferences,account}.test.ts
// and test/integration/alerts/scope-and-ssrf.test.ts.

interface Probe {
  method: string;
  path: string;
  body?: unknown;
  /** Statuses allowed per credential kind. */
  key: number[];
  session: number[];
}

describe('IDOR: user B against user A on every per-user operation', () => {
  let t: TestApp;
  let hook: HttpReceiver;
  let a: FullAccount;
  let b: FullAccount;
  let aNotification: string;
  let aDelivery: string;
  let aBoard: { id: string; token: string };
  let pages: FakeStatusPages;
  let aPage: { slug: string; url: string };
  /** A's team organisation, with a pending invitation and an organisation key (docs/teams.md). */
  let aTeam: {
    id: string;
    invitationId: string;
    invitationToken: string;
    keyId: string;
    watchlistId: string;
    routeId: string;
    serviceId: string;
    signalId: string;
    connectorId: string;
    probeId: string;
    scimTokenId: string;
    scimUserId: string;
    scimGroupId: string;
    ssoDomainId: string;
  };
  const A_VENDORS = ['gitlab', 'datadog'];
  const hookRequests = (p: string) => hook.requests.filter((r) => r.path === p).length;

  before(async () => {
    hook = await startReceiver();
    t = await startApp({ env: { DELIVER: 'off', OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' } });
    a = await fullAccount(t, { webhookUrl: `${hook.url}/hook-a`, tag: 'alice' });
    b = await fullAccount(t, { webhookUrl: `${hook.url}/hook-b`, tag: 'bob' });
    const ah = { 'x-api-key': a.apiKey };
    assert.equal((await send(`${t.api}/watchlist`, 'PUT', ah, { vendors: A_VENDORS })).status, 200);
    // A notification and a delivery of A's (B does not watch gitlab).
    await emit(t, 'incident.created', incident('gitlab'));
    await t.app.alerts.runOnce();
    const n = await getJson(`${t.api}/notifications`, { headers: ah });
    assert.equal(n.body.items.length, 1);
    aNotification = n.body.items[0].id;
    const d = await getJson(`${t.api}/notification-deliveries`, { headers: ah });
    aDelivery = d.body.items.find((x: { channel: string }) => x.channel === 'webhook').id;
    assert.equal(hookRequests('/hook-a'), 1);
    const board = await send(`${t.url}/api/v1/boards`, 'POST', ah, { title: 'Board of A' });
    assert.equal(board.status, 201, JSON.stringify(board.body));
    aBoard = { id: board.body.board.id, token: board.body.token };
    // A status page of A's (docs/per-user.md "Custom status pages"); both accounts on a plan that may add pages.
    pages = await startFakeStatusPages();
    for (const u of [a, b]) await t.app.services.accounts.setPlan(u.email, 'standard');
    const page = await send(`${t.url}/api/v1/account/status-pages`, 'POST', ah, { url: `${pages.url}/pages/a-page/`, name: 'Page of A' });
    assert.equal(page.status, 201, JSON.stringify(page.body));
    aPage = { slug: page.body.page.slug, url: `${pages.url}/pages/a-page/` };
    const aSession = { cookie: a.cookie, origin: t.url };
    const team = await send(`${t.url}/api/v1/orgs`, 'POST', aSession, { name: 'Team of A' });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const teamId = team.body.organisation.id;
    const inv = await send(`${t.url}/api/v1/orgs/${teamId}/invitations`, 'POST', aSession, { email: 'carol@example.com', role: 'admin' });
    assert.equal(inv.status, 201, JSON.stringify(inv.body));
    const orgKey = await send(`${t.url}/api/v1/orgs/${teamId}/keys`, 'POST', aSession, { name: 'ci of A', role: 'viewer' });
    assert.equal(orgKey.status, 201, JSON.stringify(orgKey.body));
    const named = await send(`${t.url}/api/v1/orgs/${teamId}/watchlists`, 'POST', aSession, { name: 'Payments of A', vendors: ['gitlab'] });
    assert.equal(named.status, 201, JSON.stringify(named.body));
    const route = await send(`${t.url}/api/v1/orgs/${teamId}/alert-routes`, 'POST', aSession, {
      name: 'Route of A',
      destination: { channel: 'webhook', url: `${hook.url}/route-of-a` },
    });
    assert.equal(route.status, 201, JSON.stringify(route.body));
    const service = await send(`${t.url}/api/v1/orgs/${teamId}/services`, 'POST', aSession, { name: 'service-of-a', dependencies: [{ vendor: 'github' }] });
    assert.equal(service.status, 201, JSON.stringify(service.body));
    // Early warning (docs/early-warning.md): a signing secret, an inbound signal and a report of A's team open a signal.
    const signalSecret = await send(`${t.url}/api/v1/orgs/${teamId}/signal-secret`, 'POST', aSession);
    assert.equal(signalSecret.status, 201, JSON.stringify(signalSecret.body));
    const inboundBody = JSON.stringify({ vendor: 'gitlab', severity: 'major', summary: 'Inbound of A', externalId: 'ext-signal-of-a' });
    const ts = Math.floor(Date.now() / 1000);
    const inbound = await fetch(`${t.url}/api/v1/orgs/${teamId}/signals`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'msg-of-a',
        'webhook-timestamp': String(ts),
        'webhook-signature': signatureOf(signalSecret.body.secret, 'msg-of-a', ts, inboundBody),
      },
      body: inboundBody,
    });
    assert.equal(inbound.status, 202);
    const report = await send(`${t.url}/api/v1/orgs/${teamId}/reports`, 'POST', aSession, { vendor: 'gitlab', summary: 'Report of A' });
    assert.equal(report.status, 201, JSON.stringify(report.body));
    assert.ok(report.body.signal?.id);
    // A Prometheus connector of A's team (docs/early-warning.md "Prometheus connectors").
    const connector = await send(`${t.url}/api/v1/orgs/${teamId}/telemetry-connectors`, 'POST', aSession, {
      name: 'Prometheus of A',
      baseUrl: 'https://prom-of-a.example.com',
      token: 'token-of-a',
      queries: [{ vendor: 'stripe', query: 'up', threshold: 0.2, durationSeconds: 60 }],
    });
    assert.equal(connector.status, 201, JSON.stringify(connector.body));
    // A private probe of A's team with its credential (docs/early-warning.md "Private probes").
    const probe = await send(`${t.url}/api/v1/orgs/${teamId}/probes`, 'POST', aSession, {
      vendor: 'github',
      kind: 'http',
      target: 'https://api.github.com/probe-of-a',
      credential: { name: 'authorization', value: 'Bearer probe-credential-of-a' },
    });
    assert.equal(probe.status, 201, JSON.stringify(probe.body));
    // SCIM (docs/teams.md, "SCIM"): a token of A's team, a provisioned user and a group mapped to a role.
    const scimToken = await send(`${t.url}/api/v1/orgs/${teamId}/scim/tokens`, 'POST', aSession, { name: 'idp of A' });
    assert.equal(scimToken.status, 201, JSON.stringify(scimToken.body));
    const scimAuth = { authorization: `Bearer ${scimToken.body.secret}` };
    const scimUser = await send(`${t.url}/scim/v2/Users`, 'POST', scimAuth, { userName: 'dave.of.a@example.com', externalId: 'ext-of-a' });
    assert.equal(scimUser.status, 201, JSON.stringify(scimUser.body));
    const scimGroup = await send(`${t.url}/scim/v2/Groups`, 'POST', scimAuth, { displayName: 'Group of A', members: [{ value: scimUser.body.id }] });
    assert.equal(scimGroup.status, 201, JSON.stringify(scimGroup.body));
    assert.equal((await send(`${t.url}/api/v1/orgs/${teamId}/scim/groups/${scimGroup.body.id}/role`, 'PUT', aSession, { role: 'editor' })).status, 200);
    // A's single sign-on (seeded in the store: saving through the API reads the issuer's discovery document).
    await t.repos.sso.saveConnection(
      {
        orgId: teamId,
        issuer: 'https://idp-of-a.example',
        clientId: 'client-of-a',
        clientSecret: 'secret-of-a-0123',
        defaultRole: 'viewer',
        ssoRequired: true,
        enabled: true,
      },
      new Date(),
    );
    const ssoDomain = await t.repos.sso.addDomain(
      { id: randomUUID(), orgId: teamId, domain: 'domain-of-a.example', token: 'token-of-a-0123456789', now: new Date() },
      20,
    );
    assert.ok(typeof ssoDomain === 'object');
    aTeam = {
      id: teamId,
      scimTokenId: scimToken.body.token.id,
      scimUserId: scimUser.body.id,
      scimGroupId: scimGroup.body.id,
      ssoDomainId: ssoDomain.id,
      invitationId: inv.body.invitation.id,
      invitationToken: inv.body.invitation.link.split('/').pop(),
      keyId: orgKey.body.key.id,
      watchlistId: named.body.watchlist.id,
      routeId: route.body.route.id,
      serviceId: service.body.service.id,
      signalId: report.body.signal.id,
      connectorId: connector.body.connector.id,
      probeId: probe.body.probe.id,
    };
  });
  after(async () => {
    await t?.close();
    await hook?.close();
    await pages?.close();
  });

  /** What A can see of A's own state (fields that reads do not change). */
  async function stateOfA() {
    const h = { 'x-api-key': a.apiKey };
    const [watchlist, prefs, keys, conns, notes, deliveries, account, boards, statusPages] = await Promise.all([
      getJson(`${t.api}/watchlist`, { headers: h }),
      getJson(`${t.api}/notification-preferences`, { headers: h }),
      getJson(`${t.url}/api/v1/account/keys`, { headers: h }),
      getJson(`${t.url}/api/v1/account/connections`, { headers: h }),
      getJson(`${t.api}/notifications`, { headers: h }),
      getJson(`${t.api}/notification-deliveries`, { headers: h }),
      getJson(`${t.url}/api/v1/account`, { headers: h }),
      getJson(`${t.url}/api/v1/boards`, { headers: h }),
      getJson(`${t.url}/api/v1/account/status-pages`, { headers: h }),
    ]);
    for (const r of [watchlist, prefs, keys, conns, notes, deliveries, account, boards, statusPages]) assert.equal(r.status, 200, JSON.stringify(r.body));
    const row = await t.store.db
      .selectFrom('notification_preferences')
      .select(['webhook_secret', 'pagerduty_routing_key', 'rss_token_hash'])
      .where('org_id', '=', a.id)
      .executeTakeFirstOrThrow();
    return {
      vendors: watchlist.body.vendors,
      preferences: prefs.body.preferences,
      keys: keys.body.keys.map((k: { id: string; name: string; prefix: string }) => [k.id, k.name, k.prefix]),
      connections: conns.body.connections.map((c: { id: string; clientId: string; scope: string }) => [c.id, c.clientId, c.scope]),
      notifications: notes.body.items.map((x: { id: string; readAt: string | null }) => [x.id, x.readAt]),
      deliveries: deliveries.body.items.map((x: { id: string; status: string }) => [x.id, x.status]),
      account: { ...account.body.account, plan: account.body.account.plan },
      boards: boards.body.boards.map((x: { id: string; title: string }) => [x.id, x.title]),
      statusPages: statusPages.body.pages.map((x: { slug: string; name: string }) => [x.slug, x.name]),
      row,
      team: await teamOfA(),
    };
  }

  /** A's team as A's session sees it: name, members, open invitations, keys, audit length. */
  async function teamOfA() {
    const h = { cookie: a.cookie };
    const base = `${t.url}/api/v1/orgs/${aTeam.id}`;
    const [org, members, invitations, keys, audit, watchlists, scimTokens, scimGroups, probes] = await Promise.all(
      ['', '/members', '/invitations', '/keys', '/audit?limit=500', '/watchlists', '/scim/tokens', '/scim/groups', '/probes'].map((p) =>
        getJson(`${base}${p}`, { headers: h }),
      ),
    );
    for (const r of [org, members, invitations, keys, audit, watchlists, scimTokens, scimGroups, probes]) assert.equal(r!.status, 200, JSON.stringify(r!.body));
    return {
      name: org!.body.organisation.name,
      members: members!.body.members.map((m: { userId: string; role: string }) => [m.userId, m.role]),
      invitations: invitations!.body.invitations.map((i: { id: string; state: string }) => [i.id, i.state]),
      keys: keys!.body.keys.map((k: { id: string }) => k.id),
      audit: audit!.body.entries.length,
      watchlists: watchlists!.body.watchlists.map((w: { id: string; name: string; vendors: string[] }) => [w.id, w.name, w.vendors]),
      scimTokens: scimTokens!.body.tokens.map((x: { id: string; name: string }) => [x.id, x.name]),
      probes: probes!.body.probes.map((p: { id: string; target: string; intervalSeconds: number; credential: unknown }) => [
        p.id,
        p.target,
        p.intervalSeconds,
        p.credential,
      ]),
      scimGroups: scimGroups!.body.groups.map((g: { id: string; displayName: string; role: string | null; members: number }) => [
        g.id,
        g.displayName,
        g.role,
        g.members,
      ]),
      sso: await t.repos.sso.connection(aTeam.id),
      ssoDomains: await t.repos.sso.domains(aTeam.id),
    };
  }

  /** Strings that would show A's data in an answer to B. */
  const markersOfA = () => [
    a.email,
    a.id,
    a.keyId,
    a.apiKey.slice(0, 12),
    `${hook.url}/hook-a`,
    a.oauth.grantId,
    a.oauth.clientId,
    aNotification,
    aDelivery,
    `${a.feedToken.slice(-4)}.rss`,
    aBoard.id,
    aBoard.token,
    'Board of A',
    aPage.slug,
    'Page of A',
    aTeam.id,
    'Team of A',
    aTeam.invitationId,
    aTeam.keyId,
    'ci of A',
    'carol@example.com',
    aTeam.watchlistId,
    'Payments of A',
    aTeam.routeId,
    'Route of A',
    'route-of-a',
    aTeam.serviceId,
    'service-of-a',
    aTeam.scimTokenId,
    'idp of A',
    aTeam.scimUserId,
    'dave.of.a@example.com',
    'ext-of-a',
    aTeam.scimGroupId,
    'Group of A',
    'idp-of-a.example',
    'client-of-a',
    'secret-of-a',
    'domain-of-a.example',
    'token-of-a',
    aTeam.ssoDomainId,
    aTeam.signalId,
    aTeam.probeId,
    'probe-of-a',
    'probe-credential-of-a',
    'Inbound of A',
    'Report of A',
    'ext-signal-of-a',
  ];

  function probes(): Record<string, Probe[]> {
    const own = { key: [200], session: [200] };
    const notFound = { key: [404], session: [404] };
    const sessionOnly = (ok: number[]) => ({ key: [403], session: ok });
    const org = (p: string) => `${t.url}/api/v1/orgs/${aTeam.id}${p}`;
    return {
      getWatchlist: [{ method: 'GET', path: `${t.api}/watchlist`, ...own }],
      replaceWatchlist: [
        { method: 'PUT', path: `${t.api}/watchlist`, body: { vendors: ['github'] }, ...own },
        // Mass assignment: fields naming a user are refused, not applied.
        { method: 'PUT', path: `${t.api}/watchlist`, body: { vendors: ['github'], userId: a.id }, key: [400], session: [400] },
        { method: 'PUT', path: `${t.api}/watchlist`, body: { vendors: ['github'], user_id: a.id, plan: 'vip' }, key: [400], session: [400] },
      ],
      addToWatchlist: [{ method: 'POST', path: `${t.api}/watchlist/${A_VENDORS[0]}`, ...own }],
      removeFromWatchlist: [{ method: 'DELETE', path: `${t.api}/watchlist/${A_VENDORS[1]}`, ...own }],
      getNotificationPreferences: [{ method: 'GET', path: `${t.api}/notification-preferences`, ...own }],
      updateNotificationPreferences: [
        { method: 'PUT', path: `${t.api}/notification-preferences`, body: { in_app: { enabled: false } }, ...own },
        { method: 'PUT', path: `${t.api}/notification-preferences`, body: { userId: a.id, in_app: { enabled: false } }, key: [400], session: [400] },
        { method: 'PUT', path: `${t.api}/notification-preferences`, body: { id: a.id, plan: 'vip' }, key: [400], session: [400] },
        // Read-only secret fields are ignored: B cannot plant A's secret as B's own.
        { method: 'PUT', path: `${t.api}/notification-preferences`, body: { webhook: { secret: a.webhookSecret } }, ...own },
      ],
      rotateWebhookSecret: [{ method: 'POST', path: `${t.api}/notification-preferences/webhook/rotate-secret`, ...own }],
      rotateFeedToken: [{ method: 'POST', path: `${t.api}/notification-preferences/rss/rotate-token`, ...own }],
      // No Slack app on this server: 409 for everyone; uninstall removes only B's own workspace.
      startSlackInstall: [{ method: 'GET', path: `${t.api}/slack/install`, key: [409], session: [409] }],
      uninstallSlack: [{ method: 'DELETE', path: `${t.api}/notification-preferences/slack`, ...own }],
      getDashboardFavorites: [
        { method: 'POST', path: `${t.api}/dashboard-favorites`, body: { vendors: A_VENDORS }, ...own },
        { method: 'POST', path: `${t.api}/dashboard-favorites`, body: { vendors: A_VENDORS, userId: a.id }, key: [400], session: [400] },
      ],
      listNotifications: [{ method: 'GET', path: `${t.api}/notifications?limit=100`, ...own }],
      markNotificationRead: [{ method: 'POST', path: `${t.api}/notifications/${aNotification}/read`, key: [404], session: [404] }],
      markAllNotificationsRead: [{ method: 'POST', path: `${t.api}/notifications/read-all`, ...own }],
      listNotificationDeliveries: [{ method: 'GET', path: `${t.api}/notification-deliveries?limit=100`, ...own }],
      sendTestAlert: [
        { method: 'POST', path: `${t.api}/notification-preferences/test`, body: { channel: 'webhook' }, ...own },
        { method: 'POST', path: `${t.api}/notification-preferences/test`, body: { channel: 'webhook', userId: a.id }, key: [400], session: [400] },
      ],
      getAccount: [{ method: 'GET', path: `${t.url}/api/v1/account`, ...own }],
      listApiKeys: [{ method: 'GET', path: `${t.url}/api/v1/account/keys`, ...own }],
      // Unknown fields of the key body are dropped: the key is B's, on B's plan.
      createApiKey: [
        { method: 'POST', path: `${t.url}/api/v1/account/keys`, body: { name: 'b key', userId: a.id, user_id: a.id, plan: 'vip' }, ...sessionOnly([201, 400]) },
      ],
      revokeApiKey: [{ method: 'DELETE', path: `${t.url}/api/v1/account/keys/${a.keyId}`, ...sessionOnly([404]) }],
      listConnections: [{ method: 'GET', path: `${t.url}/api/v1/account/connections`, ...own }],
      listBoards: [{ method: 'GET', path: `${t.url}/api/v1/boards`, ...own }],
      createBoard: [
        { method: 'POST', path: `${t.url}/api/v1/boards`, body: { title: 'b board' }, key: [201], session: [201] },
        { method: 'POST', path: `${t.url}/api/v1/boards`, body: { title: 'b board', userId: a.id }, key: [400], session: [400] },
      ],
      revokeBoard: [{ method: 'DELETE', path: `${t.url}/api/v1/boards/${aBoard.id}`, key: [404], session: [404] }],
      listCustomStatusPages: [{ method: 'GET', path: `${t.url}/api/v1/account/status-pages`, ...own }],
      // B may add the same address as a page of B's own (a new private vendor, not A's); the second call finds it in B's list.
      addCustomStatusPage: [
        { method: 'POST', path: `${t.url}/api/v1/account/status-pages`, body: { url: aPage.url }, key: [201], session: [409] },
        { method: 'POST', path: `${t.url}/api/v1/account/status-pages`, body: { url: aPage.url, userId: a.id }, key: [400], session: [400] },
      ],
      removeCustomStatusPage: [{ method: 'DELETE', path: `${t.url}/api/v1/account/status-pages/${aPage.slug}`, key: [404], session: [404] }],
      disconnectConnection: [{ method: 'DELETE', path: `${t.url}/api/v1/account/connections/${a.oauth.grantId}`, ...sessionOnly([404]) }],
      // Organisations (docs/teams.md): A's team answers 404 to B as if it did not exist; A's personal one too.
      listOrganisations: [{ method: 'GET', path: `${t.url}/api/v1/orgs`, ...own }],
      createOrganisation: [
        { method: 'POST', path: `${t.url}/api/v1/orgs`, body: { name: 'Team of B' }, key: [201], session: [201] },
        { method: 'POST', path: `${t.url}/api/v1/orgs`, body: { name: 'x', ownerId: a.id }, key: [400], session: [400] },
      ],
      getOrganisation: [
        { method: 'GET', path: org(''), ...notFound },
        { method: 'GET', path: `${t.url}/api/v1/orgs/${a.id}`, ...notFound },
      ],
      renameOrganisation: [{ method: 'PATCH', path: org(''), body: { name: 'Taken over' }, ...notFound }],
      deleteOrganisation: [{ method: 'DELETE', path: org(''), ...sessionOnly([404]) }],
      switchOrganisation: [
        { method: 'POST', path: org('/switch'), ...sessionOnly([404]) },
        { method: 'POST', path: `${t.url}/api/v1/orgs/${a.id}/switch`, ...sessionOnly([404]) },
      ],
      listMembers: [{ method: 'GET', path: org('/members'), ...notFound }],
      changeMemberRole: [{ method: 'PATCH', path: org(`/members/${a.id}`), body: { role: 'viewer' }, ...notFound }],
      removeMember: [{ method: 'DELETE', path: org(`/members/${a.id}`), ...notFound }],
      leaveOrganisation: [{ method: 'POST', path: org('/leave'), ...notFound }],
      transferOwnership: [{ method: 'POST', path: org('/transfer'), body: { userId: b.id }, ...sessionOnly([404]) }],
      listInvitations: [{ method: 'GET', path: org('/invitations'), ...notFound }],
      inviteMember: [{ method: 'POST', path: org('/invitations'), body: { email: b.email, role: 'owner' }, ...notFound }],
      revokeInvitation: [{ method: 'DELETE', path: org(`/invitations/${aTeam.invitationId}`), ...notFound }],
      // A's invitation is for another address: B holding its link cannot use it.
      acceptInvitation: [{ method: 'POST', path: `${t.url}/api/v1/invitations/${aTeam.invitationToken}/accept`, key: [409], session: [409] }],
      declineInvitation: [{ method: 'POST', path: `${t.url}/api/v1/invitations/${aTeam.invitationToken}/decline`, key: [409], session: [409] }],
      listOrganisationKeys: [{ method: 'GET', path: org('/keys'), ...notFound }],
      createOrganisationKey: [{ method: 'POST', path: org('/keys'), body: { name: 'stolen', role: 'owner' }, ...sessionOnly([404]) }],
      revokeOrganisationKey: [{ method: 'DELETE', path: org(`/keys/${aTeam.keyId}`), ...sessionOnly([404]) }],
      listNamedWatchlists: [{ method: 'GET', path: org('/watchlists'), ...notFound }],
      getNamedWatchlist: [{ method: 'GET', path: org(`/watchlists/${aTeam.watchlistId}`), ...notFound }],
      createNamedWatchlist: [{ method: 'POST', path: org('/watchlists'), body: { name: 'x', vendors: [] }, ...notFound }],
      updateNamedWatchlist: [{ method: 'PUT', path: org(`/watchlists/${aTeam.watchlistId}`), body: { vendors: [] }, ...notFound }],
      deleteNamedWatchlist: [{ method: 'DELETE', path: org(`/watchlists/${aTeam.watchlistId}`), ...notFound }],
      listAlertRoutes: [{ method: 'GET', path: org('/alert-routes'), ...notFound }],
      getAlertRoute: [{ method: 'GET', path: org(`/alert-routes/${aTeam.routeId}`), ...notFound }],
      createAlertRoute: [{ method: 'POST', path: org('/alert-routes'), body: { name: 'x', destination: { channel: 'email', to: [b.email] } }, ...notFound }],
      updateAlertRoute: [{ method: 'PUT', path: org(`/alert-routes/${aTeam.routeId}`), body: { enabled: false }, ...notFound }],
      deleteAlertRoute: [{ method: 'DELETE', path: org(`/alert-routes/${aTeam.routeId}`), ...notFound }],
      testAlertRoute: [{ method: 'POST', path: org(`/alert-routes/${aTeam.routeId}/test`), ...notFound }],
      listServices: [{ method: 'GET', path: org('/services'), ...notFound }],
      getService: [{ method: 'GET', path: org(`/services/${aTeam.serviceId}`), ...notFound }],
      createService: [{ method: 'POST', path: org('/services'), body: { name: 'x' }, ...notFound }],
      updateService: [{ method: 'PUT', path: org(`/services/${aTeam.serviceId}`), body: { criticality: 'low' }, ...notFound }],
      deleteService: [{ method: 'DELETE', path: org(`/services/${aTeam.serviceId}`), ...notFound }],
      getImpact: [{ method: 'GET', path: org('/impact'), ...notFound }],
      exportOrgConfig: [{ method: 'GET', path: org('/config/export'), ...notFound }],
      applyOrgConfig: [
        { method: 'POST', path: org('/config/apply'), body: { yaml: 'version: 1', dryRun: true, prune: true }, ...notFound },
        { method: 'POST', path: org('/config/apply'), body: { yaml: 'version: 1', prune: true }, ...notFound },
      ],
      // SCIM settings of A's team: 404 as for everything of the team.
      listScimTokens: [{ method: 'GET', path: org('/scim/tokens'), ...notFound }],
      createScimToken: [{ method: 'POST', path: org('/scim/tokens'), body: { name: 'stolen' }, ...sessionOnly([404]) }],
      revokeScimToken: [{ method: 'DELETE', path: org(`/scim/tokens/${aTeam.scimTokenId}`), ...sessionOnly([404]) }],
      listScimGroups: [{ method: 'GET', path: org('/scim/groups'), ...notFound }],
      setScimGroupRole: [{ method: 'PUT', path: org(`/scim/groups/${aTeam.scimGroupId}/role`), body: { role: 'admin' }, ...notFound }],
      // The SCIM endpoints take only a SCIM token: B's key and session are 401 there, whatever the id.
      ...scimProbes(),
      listSignals: [{ method: 'GET', path: org('/signals'), ...notFound }],
      // A's figures rest on A's signals (gitlab's among them): 404 for B, with or without a vendor.
      getVendorTransparency: [
        { method: 'GET', path: org('/early-warning/transparency'), ...notFound },
        { method: 'GET', path: org('/early-warning/transparency?vendor=gitlab&order=unposted'), ...notFound },
      ],
      dismissSignal: [{ method: 'POST', path: org(`/signals/${aTeam.signalId}/dismiss`), body: {}, ...notFound }],
      listTelemetryConnectors: [{ method: 'GET', path: org('/telemetry-connectors'), ...notFound }],
      getTelemetryConnector: [{ method: 'GET', path: org(`/telemetry-connectors/${aTeam.connectorId}`), ...notFound }],
      createTelemetryConnector: [
        {
          method: 'POST',
          path: org('/telemetry-connectors'),
          body: { name: 'x', baseUrl: 'https://prom.example.com', queries: [{ vendor: 'stripe', query: 'up', threshold: 0.2, durationSeconds: 60 }] },
          ...notFound,
        },
      ],
      updateTelemetryConnector: [{ method: 'PUT', path: org(`/telemetry-connectors/${aTeam.connectorId}`), body: { enabled: false }, ...notFound }],
      deleteTelemetryConnector: [{ method: 'DELETE', path: org(`/telemetry-connectors/${aTeam.connectorId}`), ...notFound }],
      listPrivateProbes: [{ method: 'GET', path: org('/probes'), ...notFound }],
      getPrivateProbe: [{ method: 'GET', path: org(`/probes/${aTeam.probeId}`), ...notFound }],
      createPrivateProbe: [{ method: 'POST', path: org('/probes'), body: { vendor: 'github', kind: 'tls', target: 'api.github.com:443' }, ...notFound }],
      updatePrivateProbe: [
        { method: 'PUT', path: org(`/probes/${aTeam.probeId}`), body: { intervalSeconds: 300 }, ...notFound },
        { method: 'PUT', path: org(`/probes/${aTeam.probeId}`), body: { credential: null }, ...notFound },
      ],
      deletePrivateProbe: [{ method: 'DELETE', path: org(`/probes/${aTeam.probeId}`), ...notFound }],
      reportVendorProblem: [{ method: 'POST', path: org('/reports'), body: { vendor: 'gitlab' }, ...notFound }],
      getSignalSecret: [{ method: 'GET', path: org('/signal-secret'), ...notFound }],
      rotateSignalSecret: [{ method: 'POST', path: org('/signal-secret'), ...sessionOnly([404]) }],
      // Signed with the organisation's secret, not a member's credential: B's key or session is no signature.
      receiveSignal: [
        { method: 'POST', path: org('/signals'), body: { vendor: 'gitlab', severity: 'critical', summary: 'B was here' }, key: [401], session: [401] },
      ],
      getSsoConnection: [{ method: 'GET', path: org('/sso'), ...notFound }],
      putSsoConnection: [
        {
          method: 'PUT',
          path: org('/sso'),
          body: { issuer: 'https://idp.invalid', clientId: 'b', clientSecret: 'b-secret', defaultRole: 'admin', ssoRequired: false, enabled: false },
          ...notFound,
        },
      ],
      deleteSsoConnection: [{ method: 'DELETE', path: org('/sso'), ...notFound }],
      listSsoDomains: [{ method: 'GET', path: org('/sso/domains'), ...notFound }],
      addSsoDomain: [{ method: 'POST', path: org('/sso/domains'), body: { domain: 'b-steals.example' }, ...notFound }],
      verifySsoDomain: [{ method: 'POST', path: org(`/sso/domains/${aTeam.ssoDomainId}/verify`), ...notFound }],
      deleteSsoDomain: [{ method: 'DELETE', path: org(`/sso/domains/${aTeam.ssoDomainId}`), ...notFound }],
      listAuditLog: [
        { method: 'GET', path: org('/audit'), ...notFound },
        { method: 'GET', path: `${org('/audit')}?format=csv`, ...notFound },
        { method: 'GET', path: `${org('/audit')}?format=ndjson`, ...notFound },
      ],
    };
  }

  function scimProbes(): Record<string, Probe[]> {
    const refused = { key: [401], session: [401] };
    const u = `${t.url}/scim/v2/Users`;
    const g = `${t.url}/scim/v2/Groups`;
    const patch = { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', value: { active: false } }] };
    return {
      scimServiceProviderConfig: [{ method: 'GET', path: `${t.url}/scim/v2/ServiceProviderConfig`, ...refused }],
      scimResourceTypes: [{ method: 'GET', path: `${t.url}/scim/v2/ResourceTypes`, ...refused }],
      scimSchemas: [{ method: 'GET', path: `${t.url}/scim/v2/Schemas`, ...refused }],
      scimListUsers: [{ method: 'GET', path: `${u}?filter=${encodeURIComponent('userName eq "dave.of.a@example.com"')}`, ...refused }],
      scimCreateUser: [{ method: 'POST', path: u, body: { userName: 'b.into.a@example.com' }, ...refused }],
      scimGetUser: [{ method: 'GET', path: `${u}/${aTeam.scimUserId}`, ...refused }],
      scimReplaceUser: [{ method: 'PUT', path: `${u}/${aTeam.scimUserId}`, body: { userName: 'x@example.com' }, ...refused }],
      scimPatchUser: [{ method: 'PATCH', path: `${u}/${aTeam.scimUserId}`, body: patch, ...refused }],
      scimDeleteUser: [{ method: 'DELETE', path: `${u}/${aTeam.scimUserId}`, ...refused }],
      scimListGroups: [{ method: 'GET', path: g, ...refused }],
      scimCreateGroup: [{ method: 'POST', path: g, body: { displayName: 'x' }, ...refused }],
      scimGetGroup: [{ method: 'GET', path: `${g}/${aTeam.scimGroupId}`, ...refused }],
      scimReplaceGroup: [{ method: 'PUT', path: `${g}/${aTeam.scimGroupId}`, body: { displayName: 'x', members: [] }, ...refused }],
      scimPatchGroup: [
        { method: 'PATCH', path: `${g}/${aTeam.scimGroupId}`, body: { schemas: patch.schemas, Operations: [{ op: 'remove', path: 'members' }] }, ...refused },
      ],
      scimDeleteGroup: [{ method: 'DELETE', path: `${g}/${aTeam.scimGroupId}`, ...refused }],
    };
  }

  test("every operation that needs a credential has a probe, and none reaches A's data", async () => {
    const before = await stateOfA();
    assert.deepEqual(before.vendors, A_VENDORS);
    const doc = (await getJson(`${t.url}/openapi.json`)).body;
    const needsAuth: string[] = [];
    for (const ops of Object.values<Record<string, { operationId?: string; security?: object[] }>>(doc.paths)) {
      for (const op of Object.values(ops)) {
        const security = op.security ?? doc.security ?? [];
        if (op.operationId && security.length > 0 && !security.some((s: object) => Object.keys(s).length === 0)) needsAuth.push(op.operationId);
      }
    }
    const table = probes();
    assert.ok(needsAuth.length >= 20, `found ${needsAuth.length} operations`);
    assert.deepEqual(needsAuth.filter((id) => !table[id]).sort(), [], 'operations without an IDOR probe');

    const markers = markersOfA();
    const bKey = { 'x-api-key': b.apiKey };
    const bSession = { cookie: b.cookie, origin: t.url };
    let calls = 0;
    for (const id of needsAuth) {
      for (const p of table[id]!) {
        for (const [kind, headers, allowed] of [
          ['key', bKey, p.key],
          ['session', bSession, p.session],
        ] as const) {
          const r = await send(p.path, p.method, headers, p.body);
          calls++;
          assert.ok(allowed.includes(r.status), `${id} ${p.method} ${p.path} as B (${kind}): ${r.status} ${JSON.stringify(r.body)}`);
          const text = JSON.stringify(r.body);
          // An id B sent may be echoed back (in a 404 message); anything else of A's may not.
          const sent = `${p.path} ${JSON.stringify(p.body ?? null)}`;
          for (const m of markers) if (!sent.includes(m)) assert.ok(!text.includes(m), `${id} as B (${kind}) shows A's ${m}`);
        }
      }
    }
    assert.ok(calls >= 50);

    // The account pages (HTML) of B's session show nothing of A's either.
    for (const page of ['/account', '/partials/account/keys', '/partials/account/boards', '/partials/account/status-pages']) {
      const r = await fetch(`${t.url}${page}`, { headers: { cookie: b.cookie } });
      assert.equal(r.status, 200, page);
      const html = await r.text();
      assert.ok(html.includes(b.email) || page !== '/account', 'B sees B');
      for (const m of markers) assert.ok(!html.includes(m), `${page} as B shows A's ${m}`);
    }

    // A's state is exactly as it was; A's credentials all still work.
    assert.deepEqual(await stateOfA(), before);
    assert.equal(before.notifications[0][1], null, "A's notification is still unread");
    assert.equal(hookRequests('/hook-a'), 1, "B's test alerts never went to A's webhook");
    assert.ok(hookRequests('/hook-b') >= 2);
    assert.equal((await fetch(`${t.url}/api/v1/feeds/${a.feedToken}.rss`)).status, 200);
    assert.equal((await fetch(`${t.url}/b/${aBoard.token}`)).status, 200, "A's board is still published");
    assert.equal((await callMcpTool(t, a.oauth.accessToken, 'get_incident_history')).isError, undefined);
    // B's own secret was rotated, never set to A's; B's new key is B's.
    const bRow = await t.store.db.selectFrom('notification_preferences').select('webhook_secret').where('org_id', '=', b.id).executeTakeFirstOrThrow();
    assert.notEqual(bRow.webhook_secret, a.webhookSecret);
    const bKeys = await t.store.db.selectFrom('api_keys').select(['user_id']).where('name', '=', 'b key').execute();
    assert.ok(bKeys.every((k) => k.user_id === b.id));
  });

  test('signup ignores plan and id fields; a new account is Free with its own id', async () => {
    const r = await send(
      `${t.url}/api/v1/auth/signup`,
      'POST',
      {},
      { email: `mass.${Date.now()}@example.com`, password: 'long enough password', plan: 'vip', id: a.id, userId: a.id },
    );
    assert.ok(r.status === 201 || r.status === 400, `${r.status}`);
    if (r.status === 201) {
      assert.equal(r.body.account.plan, 'free');
      assert.notEqual(r.body.account.id, a.id);
    }
    const account = await getJson(`${t.url}/api/v1/account`, { headers: { 'x-api-key': a.apiKey } });
    assert.equal(account.body.account.email, a.email);
  });
});
