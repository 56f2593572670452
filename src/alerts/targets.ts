import type { AlertRoute } from '../domain/alert-routes.ts';
import { emailAddressStatus } from '../domain/preferences.ts';
import type { Delivery } from '../store/repositories/deliveries-repository.ts';
import type { PreferencesState } from '../store/repositories/preferences-repository.ts';
import type { Target } from './channels/channel.ts';

// Where a claimed row is sent, read from the user's preferences at send time, so a
// changed URL or a rotated secret applies to retries and a channel switched off
// meanwhile cancels the row (docs/alerts.md "Deliveries and workers").

/** Secrets the webhook signs with: the current one, plus the previous during its grace period. */
function signingSecrets(s: PreferencesState, now: Date): string[] {
  if (!s.webhookSecret) return [];
  const grace = s.webhookPreviousSecret && s.webhookPreviousExpiresAt && Date.parse(s.webhookPreviousExpiresAt) > now.getTime();
  return grace ? [s.webhookSecret, s.webhookPreviousSecret!] : [s.webhookSecret];
}

/** Where a row goes now, from the user's current preferences; a string says why it cannot be sent. */
export function resolveTarget(d: Delivery, s: PreferencesState, email: string | null, now: Date): Target | string {
  const p = s.settings;
  switch (d.channel) {
    case 'webhook':
      if (!d.isTest && !p.webhook.enabled) return 'webhook disabled';
      if (!p.webhook.url) return 'no webhook URL';
      return { channel: 'webhook', url: p.webhook.url, format: p.webhook.format, secrets: signingSecrets(s, now) };
    case 'pagerduty':
      if (!d.isTest && !p.pagerduty.enabled) return 'PagerDuty disabled';
      if (!s.pagerdutyRoutingKey) return 'no PagerDuty routing key';
      return { channel: 'pagerduty', routingKey: s.pagerdutyRoutingKey };
    case 'slack': {
      if (!d.isTest && !p.slack.enabled) return 'Slack disabled';
      if (!s.slackConnection?.connected) return 'Slack not connected';
      const memberId = s.slackConnection.user_id;
      return {
        channel: 'slack',
        token: s.channelSecrets.slackBotToken,
        conversation: p.slack.channel,
        slackUserId: typeof memberId === 'string' ? memberId : null,
        email,
      };
    }
    case 'teams':
      if (!d.isTest && !p.teams.enabled) return 'Teams disabled';
      if (!s.channelSecrets.teamsWebhookUrl) return 'no Teams webhook URL';
      return { channel: 'teams', url: s.channelSecrets.teamsWebhookUrl };
    case 'google_chat':
      if (!d.isTest && !p.google_chat.enabled) return 'Google Chat disabled';
      if (!s.channelSecrets.googleChatWebhookUrl) return 'no Google Chat webhook URL';
      return { channel: 'google_chat', url: s.channelSecrets.googleChatWebhookUrl };
    case 'opsgenie':
      if (!d.isTest && !p.opsgenie.enabled) return 'Opsgenie disabled';
      if (!s.channelSecrets.opsgenieApiKey) return 'no Opsgenie API key';
      return { channel: 'opsgenie', apiKey: s.channelSecrets.opsgenieApiKey, region: p.opsgenie.region };
    case 'email': {
      if (!d.isTest && !p.email.enabled) return 'e-mail disabled';
      // Only an address its owner proved receives anything, test alerts included (docs/alerts.md).
      if (emailAddressStatus(p.email.address, email, s.emailConfirmedAddress) !== 'confirmed') {
        return 'e-mail address not confirmed: follow the link sent to it';
      }
      const to = p.email.address ?? email;
      return to ? { channel: 'email', to } : 'no e-mail address';
    }
    default:
      return `unknown channel '${d.channel}'`;
  }
}

/**
 * Where a row of an alert route goes now, from the route as it is at send time: a deleted
 * route cancels its rows, a route switched off cancels all but test rows (docs/alert-routes.md).
 * Slack posts with the organisation's installed workspace (its preferences hold the connection).
 */
export function resolveRouteTarget(d: Delivery, route: AlertRoute | null, s: PreferencesState | undefined): Target | string {
  if (!route || route.orgId !== d.orgId) return 'alert route deleted';
  if (!d.isTest && !route.enabled) return 'alert route switched off';
  const t = route.destination;
  if (t.channel !== d.channel) return 'alert route changed its channel';
  switch (t.channel) {
    case 'webhook':
      return { channel: 'webhook', url: t.url, format: t.format, secrets: [t.secret] };
    case 'pagerduty':
      return { channel: 'pagerduty', routingKey: t.routingKey };
    case 'opsgenie':
      return { channel: 'opsgenie', apiKey: t.apiKey, region: t.region };
    case 'jsm':
      return { channel: 'jsm', apiKey: t.apiKey };
    case 'incident_io':
      return { channel: 'incident_io', url: t.url, token: t.token };
    case 'datadog':
      return { channel: 'datadog', site: t.site, apiKey: t.apiKey };
    case 'mattermost':
      return { channel: 'mattermost', url: t.url };
    case 'telegram':
      return { channel: 'telegram', botToken: t.botToken, chatId: t.chatId };
    case 'grafana':
      return { channel: 'grafana', url: t.url, token: t.token, dashboardUid: t.dashboardUid };
    case 'servicenow':
      return { channel: 'servicenow', url: t.url, username: t.username, password: t.password };
    case 'firehydrant':
      return { channel: 'firehydrant', url: t.url };
    case 'rootly':
      return { channel: 'rootly', apiKey: t.apiKey };
    case 'statuspage':
    case 'instatus':
      return { channel: t.channel, pageId: t.pageId, apiKey: t.apiKey, components: t.components };
    case 'teams':
      return { channel: 'teams', url: t.url };
    case 'google_chat':
      return { channel: 'google_chat', url: t.url };
    case 'email':
      return { channel: 'email', to: t.to.join(', ') };
    case 'slack':
      if (!s?.slackConnection?.connected) return 'Slack not connected';
      return { channel: 'slack', token: s.channelSecrets.slackBotToken, conversation: t.conversation, slackUserId: null, email: null };
  }
}
