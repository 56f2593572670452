import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import { alertText, clip } from '../../domain/alert-text.ts';
import type { Channel, Target } from './channel.ts';
import { errorDetail, type JsonPostDeps, postJson } from './json-post.ts';

// Mattermost incoming webhooks (docs/alerts.md "Mattermost"): a Markdown `text` and one
// Slack-style attachment. Vendor text is Markdown-escaped and its @-mentions defused, so a
// status page cannot ping @channel or plant a link. A webhook cannot edit: each event posts.

type MattermostTarget = Extract<Target, { channel: 'mattermost' }>;

const COLOR: Record<string, string> = { critical: '#D32F2F', major: '#F57C00', minor: '#FBC02D', none: '#1976D2' };

/** Markdown characters escaped with a backslash; `@` followed by a name gets a zero-width joiner so no mention fires. */
export const markdownText = (s: string) => s.replace(/[\\`*_{}[\]()#+\-.!|~>]/g, '\\$&').replace(/@(?=[A-Za-z0-9_])/g, '@\u200b');

export function mattermostBody(d: Delivery): Record<string, unknown> {
  const t = alertText(d);
  const fields = [{ title: 'Impact', value: markdownText(t.impact), short: true }];
  if (t.status) fields.push({ title: 'Status', value: markdownText(t.status), short: true });
  if (t.components.length) fields.push({ title: 'Components', value: markdownText(clip(t.components.join(', '), 1000)), short: false });
  if (t.affects) fields.push({ title: 'Services', value: markdownText(clip(t.affects, 1000)), short: false });
  return {
    text: clip(`**${markdownText(t.headline)}**: ${markdownText(t.title)}`, 4000),
    attachments: [
      {
        fallback: clip(`${t.headline}: ${t.title}`, 300),
        color: d.eventType === 'incident.resolved' || d.eventType === 'maintenance.completed' ? '#2E7D32' : (COLOR[t.impact] ?? '#1976D2'),
        title: clip(t.title, 300),
        ...(t.url ? { title_link: t.url } : {}),
        text: markdownText(clip(t.latest ?? '', 6000)),
        fields,
        footer: 'Vendor Status API',
      },
    ],
  };
}

export function mattermostChannel(o: JsonPostDeps): Channel<MattermostTarget> {
  return {
    send(d, target, signal) {
      // A deleted hook answers 404 or 400 "Unable to find the webhook": 404 switches the route off.
      return postJson(o, target.url, mattermostBody(d), signal, { label: 'Mattermost', gone: [404], detail: errorDetail });
    },
  };
}
