import { randomBytes } from 'node:crypto';
import { type SlackOAuth, SlackOAuthError } from '../../domain/slack-install.ts';
import { DomainError } from '../../domain/errors.ts';
import type { SecretBox } from '../../domain/secret-box.ts';
import type { AlertThreadsRepository } from '../../store/repositories/alert-threads-repository.ts';
import type { PreferencesRepository } from '../../store/repositories/preferences-repository.ts';
import type { SlidingLimitsRepository } from '../../store/repositories/sliding-limits-repository.ts';
import { ownerOrg, type Viewer } from '../context.ts';
import type { Clock } from '../../domain/clock.ts';

// "Add to Slack" (docs/alerts.md, "Slack"): the install starts from the account
// area, Slack sends the browser back with a code, the code becomes the
// workspace's bot token, stored sealed with the channel secrets; uninstall
// revokes and removes it. The OAuth `state` is sealed with the secrets key (so
// it cannot be forged or read), names the user and expires after 10 minutes;
// the callback must come from that same user's web session (the very session that
// started the install, when a browser started it; never an API key or token), and
// each state completes one callback only (its nonce is spent in the store).

const STATE_TTL_MS = 10 * 60_000;

export type InstallResult = 'connected' | 'denied' | 'failed';

export function slackInstallService(d: {
  preferences: PreferencesRepository;
  threads: AlertThreadsRepository;
  box: SecretBox;
  clock: Clock;
  slidingLimits: SlidingLimitsRepository;
  /** Null when SLACK_CLIENT_ID / SLACK_CLIENT_SECRET are not set. */
  oauth: SlackOAuth | null;
}) {
  const oauth = () => {
    if (!d.oauth) throw new DomainError('conflict', 'Slack is not available on this server (SLACK_CLIENT_ID and SLACK_CLIENT_SECRET are not set)');
    return d.oauth;
  };

  return {
    available: () => d.oauth !== null,

    /**
     * Where to send the browser to install the app. `session`: a reference to the web
     * session asking (none for an API key): the callback must then come from it.
     */
    start(viewer: Viewer, redirectUri: string, session?: string | null): string {
      const orgId = ownerOrg(viewer, 'editor');
      const bound = viewer.authKind === 'session' && session ? { s: session } : {};
      const state = d.box.seal(JSON.stringify({ u: orgId, exp: d.clock.now().getTime() + STATE_TTL_MS, n: randomBytes(8).toString('hex'), ...bound }));
      return oauth().authorizeUrl(Buffer.from(state).toString('base64url'), redirectUri);
    },

    /** Slack's answer: a code (installed) or an error (cancelled). */
    async finish(
      viewer: Viewer,
      q: { code?: string; state?: string; error?: string },
      redirectUri: string,
      session?: string | null,
    ): Promise<{ result: InstallResult; reason?: string }> {
      const orgId = ownerOrg(viewer, 'editor');
      const client = oauth();
      if (viewer.authKind !== 'session') {
        throw new DomainError('session_required', 'The Slack install is finished in the browser signed in to the account, not with an API key or token');
      }
      let state: { u?: unknown; exp?: unknown; n?: unknown; s?: unknown } | null = null;
      try {
        state = JSON.parse(d.box.open(Buffer.from(q.state ?? '', 'base64url').toString('utf8')));
      } catch {
        state = null;
      }
      const now0 = d.clock.now();
      const badState = () =>
        new DomainError(
          'invalid_parameter',
          "Invalid parameter 'state': unknown, expired, used, or started by another account or session; start the install again",
          {
            parameter: 'state',
          },
        );
      if (
        !state ||
        state.u !== orgId ||
        typeof state.exp !== 'number' ||
        state.exp < now0.getTime() ||
        typeof state.n !== 'string' ||
        (state.s !== undefined && state.s !== session)
      ) {
        throw badState();
      }
      // Single use: the first callback spends the state, whatever it brings (code or error).
      const once = await d.slidingLimits.take([{ subject: `slack-state:${state.n}`, limit: 1 }], STATE_TTL_MS, now0);
      if (!once.allowed) throw badState();
      if (q.error) return { result: 'denied', reason: q.error.slice(0, 60) };
      if (!q.code) throw new DomainError('invalid_parameter', "Invalid parameter 'code': missing", { parameter: 'code' });
      let install;
      try {
        install = await client.exchange(q.code, redirectUri);
      } catch (err) {
        return { result: 'failed', reason: err instanceof SlackOAuthError ? err.code : 'slack_unreachable' };
      }
      const now = d.clock.now();
      let previous: string | null = null;
      await d.preferences.update(orgId, now, (s) => {
        previous = s.channelSecrets.slackBotToken;
        return {
          ...s,
          channelSecrets: { ...s.channelSecrets, slackBotToken: install.accessToken },
          slackConnection: {
            connected: true,
            team: install.teamName,
            connected_at: now.toISOString(),
            team_id: install.teamId,
            user_id: install.userId,
            bot_user_id: install.botUserId,
          },
          // A channel of the previous workspace means nothing in this one.
          settings: previous && s.slackConnection?.team_id !== install.teamId ? { ...s.settings, slack: { ...s.settings.slack, channel: null } } : s.settings,
        };
      });
      await d.threads.deleteChannel(orgId, 'slack');
      return { result: 'connected' };
    },

    /** Removes the workspace: the token is revoked at Slack (best effort) and deleted here. */
    async uninstall(viewer: Viewer): Promise<void> {
      const orgId = ownerOrg(viewer, 'editor');
      const token = (await d.preferences.get(orgId)).channelSecrets.slackBotToken;
      if (token && d.oauth) await d.oauth.revoke(token).catch(() => undefined);
      await d.preferences.update(orgId, d.clock.now(), (s) => ({
        ...s,
        channelSecrets: { ...s.channelSecrets, slackBotToken: null },
        slackConnection: null,
        settings: { ...s.settings, slack: { ...s.settings.slack, enabled: false, channel: null } },
      }));
      await d.threads.deleteChannel(orgId, 'slack');
    },
  };
}
