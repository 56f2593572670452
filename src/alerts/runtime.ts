import type { Config } from '../infra/config.ts';
import type { ChannelAvailability } from '../domain/alerts.ts';
import type { EventBus } from '../infra/event-bus.ts';
import type { Metrics } from '../domain/metrics.ts';
import type { Clock } from '../domain/clock.ts';
import type { Repositories } from '../services/index.ts';
import type { InvitationMailer } from '../services/orgs/orgs-service.ts';
import type { ConfirmationMailer } from '../services/alerts/preferences-service.ts';
import { emailChannel } from './channels/email.ts';
import { pagerdutyChannel } from './channels/pagerduty.ts';
import { slackChannel } from './channels/slack.ts';
import { webhookChannel } from './channels/webhook.ts';
import { teamsChannel } from './channels/teams.ts';
import { googleChatChannel } from './channels/google-chat.ts';
import { datadogChannel, datadogIntakeUrl } from './channels/datadog.ts';
import { incidentIoChannel } from './channels/incident-io.ts';
import { mattermostChannel } from './channels/mattermost.ts';
import { telegramChannel } from './channels/telegram.ts';
import { grafanaChannel } from './channels/grafana.ts';
import { serviceNowChannel } from './channels/servicenow.ts';
import { fireHydrantChannel } from './channels/firehydrant.ts';
import { ROOTLY_BASE, rootlyChannel } from './channels/rootly.ts';
import { INSTATUS_BASE, STATUSPAGE_BASE, statusPageChannel } from './channels/status-page-push.ts';
import { JSM_BASE, jsmChannel, OPSGENIE_ALERTS_PATH, OPSGENIE_BASE, opsgenieChannel } from './channels/opsgenie.ts';
import { createDispatcher, type Dispatcher } from './dispatcher.ts';
import { guardedAgent } from '../infra/ssrf-guard.ts';
import { foldHealth } from '../domain/source-health.ts';
import { createDeliveryWorker, type DeliveryWorker, type PushChannels } from './worker.ts';

// Alert delivery wired from configuration: channels (SMTP and Slack only when
// configured), the dispatcher and the delivery worker. `start` runs both in the
// background (the 'deliver' role with DELIVER on); tests leave them stopped and
// call `dispatcher.runOnce()` / `worker.runOnce()` with a test clock.

type Log = { info(obj: unknown, msg: string): void; warn(obj: unknown, msg: string): void; error(obj: unknown, msg: string): void };

export interface AlertRuntime {
  dispatcher: Dispatcher;
  worker: DeliveryWorker;
  available: ChannelAvailability;
  /** Confirmation messages of e-mail addresses, through the e-mail channel; null without SMTP. */
  confirmationMailer: ConfirmationMailer | null;
  /** Organisation invitations through the e-mail channel; null without SMTP. */
  invitationMailer: InvitationMailer | null;
  /** Background dispatch and delivery. */
  start(): Promise<void>;
  /**
   * Stops dispatching and delivering; sends in flight get `graceMs` (unbounded if not
   * given) to answer, then are interrupted and left due for another instance. Calling
   * it again returns the same stop (the process shell starts it on a signal, the
   * app's close waits for it).
   */
  stop(o?: { graceMs?: number }): Promise<void>;
  /** Dispatch then deliver everything due now (tests, CLI). */
  runOnce(): Promise<{ dispatched: number; attempted: number }>;
}

export function createAlertRuntime(o: {
  config: Config;
  clock: Clock;
  repos: Repositories;
  bus: EventBus;
  log: Log;
  metrics?: Pick<Metrics, 'deliveryAttempt' | 'delivered'>;
  /** Confirms early-warning signals with the log's new incidents (before their alerts are written). */
  confirmSignals?: () => Promise<unknown>;
}): AlertRuntime {
  const { config, clock, repos } = o;
  const agent = guardedAgent({ allowList: config.outboundAllowPrivate, timeoutMs: config.deliveryTimeoutMs, connections: 256 });
  // User-supplied and operator-set targets alike go through the guarded agent.
  const guarded = { dispatcher: agent, allowList: config.outboundAllowPrivate, clock };
  // What the own-status-page routes push: component statuses, unless the vendor's source is stale.
  const observed = {
    componentRecords: (vendor: string) => repos.status.componentRecords(vendor),
    stale: async (vendor: string) => foldHealth(await repos.sources.pollStates(vendor), clock.now(), config.pollIntervalSeconds).stale,
  };
  const channels: PushChannels = {
    webhook: webhookChannel(guarded),
    pagerduty: pagerdutyChannel({ url: config.pagerdutyEventsUrl, clock }),
    teams: teamsChannel(guarded),
    google_chat: googleChatChannel(guarded),
    opsgenie: opsgenieChannel({
      ...guarded,
      apiFor: (t) => ({ baseUrl: (config.opsgenieApiUrl ?? OPSGENIE_BASE[t.region]).replace(/\/+$/, ''), alertsPath: OPSGENIE_ALERTS_PATH }),
    }),
    jsm: jsmChannel({ ...guarded, baseUrl: config.jsmApiUrl ?? JSM_BASE }),
    incident_io: incidentIoChannel(guarded),
    datadog: datadogChannel({ ...guarded, urlFor: (site) => config.datadogEventsUrl ?? datadogIntakeUrl(site) }),
    mattermost: mattermostChannel(guarded),
    telegram: telegramChannel({ ...guarded, apiUrl: config.telegramApiUrl }),
    grafana: grafanaChannel({ ...guarded, threads: repos.alertThreads }),
    servicenow: serviceNowChannel(guarded),
    firehydrant: fireHydrantChannel(guarded),
    rootly: rootlyChannel({ ...guarded, baseUrl: config.rootlyApiUrl ?? ROOTLY_BASE, threads: repos.alertThreads }),
    statuspage: statusPageChannel('statuspage', { ...guarded, baseUrl: config.statuspageApiUrl ?? STATUSPAGE_BASE, status: observed }),
    instatus: statusPageChannel('instatus', { ...guarded, baseUrl: config.instatusApiUrl ?? INSTATUS_BASE, status: observed }),
    // Always on: users send with their own workspace's bot token (or the server's SLACK_BOT_TOKEN).
    slack: slackChannel({ token: config.slackBotToken, apiUrl: config.slackApiUrl, timeoutMs: config.deliveryTimeoutMs, threads: repos.alertThreads, clock }),
  };
  const email = config.smtpUrl
    ? emailChannel({ smtpUrl: config.smtpUrl, from: config.emailFrom, timeoutMs: config.deliveryTimeoutMs, threads: repos.alertThreads, clock })
    : null;
  if (email) channels.email = email;
  const available: ChannelAvailability = { email: Boolean(channels.email), slack: true };

  const dispatcher = createDispatcher({
    events: repos.events,
    deliveries: repos.deliveries,
    dispatch: repos.dispatch,
    watchlist: repos.watchlist,
    preferences: repos.preferences,
    owners: repos.organisations,
    maintenances: repos.maintenances,
    vendors: repos.vendors,
    clock,
    available,
    floodCap: { limit: config.alertFloodLimit, windowMs: config.alertFloodWindowSeconds * 1000 },
    routes: repos.alertRoutes,
    namedWatchlists: repos.namedWatchlists,
    affected: { services: repos.services, status: repos.status },
    routesById: repos.alertRoutes,
    earlyWarning: repos.earlyWarning,
    confirmSignals: o.confirmSignals,
    log: o.log,
  });
  const worker = createDeliveryWorker({
    deliveries: repos.deliveries,
    preferences: repos.preferences,
    routes: repos.alertRoutes,
    owners: repos.organisations,
    clock,
    channels,
    timeoutMs: config.deliveryTimeoutMs,
    concurrency: config.deliveryConcurrency,
    receiverConcurrency: config.deliveryHostConcurrency,
    log: o.log,
    metrics: o.metrics,
  });

  let running = false;
  let timer: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;
  let dispatching: Promise<void> | null = null;
  let again = false;
  let stopped: Promise<void> | null = null;

  const dispatch = () => {
    if (!running) return;
    if (dispatching) {
      again = true;
      return;
    }
    dispatching = (async () => {
      try {
        do {
          again = false;
          const created = await dispatcher.runOnce();
          if (created) worker.wake();
        } while (again && running);
      } catch (err) {
        o.log.error({ err }, 'alert dispatch failed; retrying on the next tick');
      } finally {
        dispatching = null;
      }
    })();
  };

  return {
    dispatcher,
    worker,
    available,
    confirmationMailer: email ? (to, link, expiresAt) => email.sendConfirmation(to, link, expiresAt) : null,
    invitationMailer: email ? (to, invitation) => email.sendInvitation(to, invitation) : null,
    async start() {
      await dispatcher.init();
      running = true;
      // New events of this process arrive on the bus; other instances' are found by polling.
      unsubscribe = o.bus.subscribe(() => dispatch());
      timer = setInterval(dispatch, 1_000);
      timer.unref();
      worker.start();
      dispatch();
    },
    stop(s = {}) {
      stopped ??= (async () => {
        running = false;
        unsubscribe?.();
        if (timer) clearInterval(timer);
        if (dispatching) await dispatching;
        await worker.stop(s);
        await Promise.all(Object.values(channels).map((c) => c?.close?.()));
        await agent.close();
      })();
      return stopped;
    },
    async runOnce() {
      const dispatched = await dispatcher.runOnce();
      const attempted = await worker.runOnce();
      return { dispatched, attempted };
    },
  };
}
