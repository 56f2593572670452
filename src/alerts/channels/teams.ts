import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import { alertText, clip } from '../../domain/alert-text.ts';
import type { Channel, Target } from './channel.ts';
import { errorDetail, type JsonPostDeps, postJson } from './json-post.ts';
import { isClosingType } from '../../domain/signal-alerts.ts';

// Microsoft Teams through a Workflows webhook ("Post to a channel when a webhook
// request is received"): a `message` envelope whose `attachments[]` carry one
// Adaptive Card (1.4; Teams renders up to 1.5). The stock flow loops over
// `attachments`, so a body without it fails inside the flow even though the
// HTTP call answers 202 (docs/alerts.md, "Microsoft Teams"). 200/202 = accepted.

type TeamsTarget = Extract<Target, { channel: 'teams' }>;

const COLOR: Record<string, string> = { critical: 'Attention', major: 'Attention', minor: 'Warning', none: 'Accent' };

export function teamsBody(d: Delivery): Record<string, unknown> {
  const t = alertText(d);
  const resolved = isClosingType(d.eventType);
  const facts = [
    { title: 'Status', value: clip(t.status || '-', 200) },
    { title: 'Impact', value: t.impact },
    ...(t.components.length ? [{ title: 'Components', value: clip(t.components.join(', '), 1000) }] : []),
    ...(t.affects ? [{ title: 'Services', value: clip(t.affects, 1000) }] : []),
  ];
  const body: unknown[] = [
    { type: 'TextBlock', text: clip(t.headline, 200), weight: 'Bolder', size: 'Small', color: resolved ? 'Good' : (COLOR[t.impact] ?? 'Accent'), wrap: true },
    { type: 'TextBlock', text: clip(t.title, 400), weight: 'Bolder', size: 'Medium', wrap: true },
    { type: 'FactSet', facts },
  ];
  if (t.latest) body.push({ type: 'TextBlock', text: clip(t.latest, 2000), wrap: true });
  body.push({ type: 'TextBlock', text: clip(`${d.eventType} · ${d.occurredAt}`, 200), isSubtle: true, size: 'Small', wrap: true });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          ...(t.url ? { actions: [{ type: 'Action.OpenUrl', title: 'Open status page', url: t.url }] } : {}),
          msteams: { width: 'full' },
        },
      },
    ],
  };
}

export function teamsChannel(o: JsonPostDeps): Channel<TeamsTarget> {
  return {
    send: (d, target, signal) => postJson(o, target.url, teamsBody(d), signal, { label: 'Teams', gone: [404, 410], detail: errorDetail }),
  };
}
