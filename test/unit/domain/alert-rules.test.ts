import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { changeKind, componentsMatch, passesChannelRules } from '../../../src/domain/alert-rules.ts';
import { channelsFor } from '../../../src/domain/alerts.ts';
import { defaultPreferences, mergePreferences, normalizeStored, patchProblems, vendorSlugsIn } from '../../../src/domain/preferences.ts';

// What counts as an alert per channel, and per-vendor component subscriptions
// (docs/alerts.md "What counts").

const up = (status: string, createdAt: string) => ({ status, body: 'x', createdAt });

describe('kinds of change', () => {
  test('an update is a status change only when its newest update moved the status', () => {
    assert.equal(changeKind('incident.created', {}), 'created');
    assert.equal(changeKind('incident.resolved', {}), 'resolved');
    assert.equal(changeKind('maintenance.started', {}), 'status_changed');
    assert.equal(changeKind('maintenance.completed', {}), 'resolved');
    assert.equal(
      changeKind('incident.updated', { updates: [up('investigating', '2026-01-01T10:00:00Z'), up('identified', '2026-01-01T10:05:00Z')] }),
      'status_changed',
    );
    // Newest first in the upstream's order: the order of the list does not matter.
    assert.equal(changeKind('incident.updated', { updates: [up('identified', '2026-01-01T10:05:00Z'), up('identified', '2026-01-01T10:00:00Z')] }), 'updated');
    assert.equal(changeKind('incident.updated', { updates: [up('identified', '2026-01-01T10:05:00Z')] }), 'updated');
  });
});

describe('component subscriptions', () => {
  test('the list form matches any vendor; the map form only filters the vendors it names', () => {
    assert.ok(componentsMatch(['actions'], 'github', ['Actions']));
    assert.ok(!componentsMatch(['Actions'], 'aws', ['EC2']));
    const map = { github: ['Actions', 'Git Operations'] };
    assert.ok(componentsMatch(map, 'github', ['git operations']));
    assert.ok(!componentsMatch(map, 'github', ['Pages']));
    assert.ok(!componentsMatch(map, 'github', []), 'an event naming no component does not pass');
    assert.ok(componentsMatch(map, 'aws', ['EC2']), 'vendors not in the map are not filtered');
    assert.ok(componentsMatch(null, 'github', []));
  });

  test('saved in either form; a map replaces the previous one as a whole', () => {
    let p = mergePreferences(defaultPreferences(), { content_filters: { components: ['Actions', 'Actions'] } });
    assert.deepEqual(p.content_filters.components, ['Actions']);
    p = mergePreferences(p, { content_filters: { components: { github: ['Actions'], aws: ['EC2'] } } });
    p = mergePreferences(p, { content_filters: { components: { github: ['Pages'] } } });
    assert.deepEqual(p.content_filters.components, { github: ['Pages'] });
    assert.deepEqual(normalizeStored(JSON.parse(JSON.stringify(p))).content_filters.components, { github: ['Pages'] });
    assert.deepEqual(vendorSlugsIn({ content_filters: { components: { github: ['x'] } }, slack: { alert_on: { components: { aws: ['y'] } } } }).sort(), [
      'aws',
      'github',
    ]);
  });
});

describe('per-channel rules', () => {
  const base = { type: 'incident.updated' as const, vendor: 'github', impact: 'minor' as const, components: ['Actions'] };
  const recipient = (settings: ReturnType<typeof defaultPreferences>) => ({
    settings,
    watching: true,
    hasRoutingKey: true,
    slackConnected: true,
    hasTeamsUrl: false,
    hasGoogleChatUrl: false,
    hasOpsgenieKey: false,
    emailProven: true,
  });

  test('a channel with rules of its own ignores the global filters; others keep them', () => {
    const s = mergePreferences(defaultPreferences(), {
      slack: { enabled: true, alert_on: { min_impact: 'major' } },
      pagerduty: { enabled: true },
      email: { enabled: true },
    });
    assert.deepEqual(s.slack.alert_on, { changes: ['created', 'status_changed', 'resolved'], min_impact: 'major', components: [] });
    const available = { email: true, slack: true };
    // A plain update of minor impact: Slack's rules (updates off by default, major and above) drop it.
    assert.deepEqual(channelsFor({ ...base, kind: 'updated' }, recipient(s), available), ['pagerduty', 'email', 'in_app']);
    // A major status change reaches Slack too.
    assert.deepEqual(channelsFor({ ...base, impact: 'major', kind: 'status_changed' }, recipient(s), available), ['pagerduty', 'slack', 'email', 'in_app']);
    // Updates switched on for Slack; the global filter keeps only resolutions for the others.
    const t = mergePreferences(s, {
      slack: { alert_on: { changes: ['updated'], min_impact: 'none' } },
      content_filters: { event_types: ['incident.resolved'] },
    });
    assert.deepEqual(channelsFor({ ...base, kind: 'updated' }, recipient(t), available), ['slack']);
    // Muted vendors win over every rule.
    assert.deepEqual(channelsFor({ ...base, kind: 'updated' }, recipient(mergePreferences(t, { muted_vendors: ['github'] })), available), []);
    // A paging channel's own rules never hold back a resolve.
    const paging = mergePreferences(defaultPreferences(), { pagerduty: { enabled: true, alert_on: { changes: ['created'], min_impact: 'critical' } } });
    assert.deepEqual(channelsFor({ ...base, type: 'incident.resolved', kind: 'resolved' }, recipient(paging), available), ['pagerduty', 'in_app']);
    assert.deepEqual(channelsFor({ ...base, kind: 'updated' }, recipient(paging), available), ['in_app']);
    assert.ok(
      passesChannelRules(
        { kind: 'created', impact: 'none', vendor: 'aws', components: [] },
        { changes: ['created'], min_impact: 'none', components: { github: ['Actions'] } },
      ),
    );
  });

  test('null goes back to the global filters; bad values are refused by field', () => {
    const s = mergePreferences(mergePreferences(defaultPreferences(), { slack: { alert_on: { min_impact: 'major' } } }), { slack: { alert_on: null } });
    assert.equal(s.slack.alert_on, null);
    const problems = patchProblems(
      {
        timezone: 'Mars/Olympus',
        quiet_hours: { start: '25:00' },
        maintenance_reminders: { lead_times: ['1w'] },
        slack: { alert_on: { changes: ['exploded' as never] } },
      },
      { allowPrivate: [] },
    ).map((p) => p.field);
    assert.deepEqual(problems, ['slack.alert_on.changes', 'timezone', 'quiet_hours.start', 'maintenance_reminders.lead_times']);
  });
});
