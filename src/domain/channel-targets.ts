// Formats of channel targets, shared by the notification preferences and the alert
// routes (docs/alerts.md, docs/alert-routes.md). Pure.

/** PagerDuty Events v2 routing (integration) keys are 32 characters. */
const ROUTING_KEY = /^[A-Za-z0-9]{32}$/;
export const isRoutingKey = (v: string) => ROUTING_KEY.test(v);

/** Opsgenie (and JSM Operations) API integration keys are UUIDs. */
const OPSGENIE_KEY = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const isOpsgenieKey = (v: string) => OPSGENIE_KEY.test(v);

/** Public or private Slack channel ids (DMs have no id here). */
const SLACK_CONVERSATION = /^[CG][A-Z0-9]{2,20}$/;
export const isSlackConversation = (v: string) => SLACK_CONVERSATION.test(v);

/**
 * Teams: Office 365 connector URLs (webhook.office.com, outlook.office.com) are
 * retired; only Workflows webhooks take Adaptive Cards (docs/alerts.md, "Microsoft Teams").
 * Call with a URL that parses (after the outbound URL check).
 */
export function teamsUrlProblem(value: string): string | null {
  const host = new URL(value).hostname.toLowerCase();
  if (host.endsWith('.webhook.office.com') || host === 'outlook.office.com') {
    return 'is an Office 365 connector URL (retired): create a Workflows webhook ("Post to a channel when a webhook request is received") and use its URL';
  }
  return null;
}

/** Datadog sites (docs/alerts.md "Datadog"): the events intake is `event-management-intake.<site>`. */
export const DATADOG_SITES = [
  'datadoghq.com',
  'us3.datadoghq.com',
  'us5.datadoghq.com',
  'datadoghq.eu',
  'ap1.datadoghq.com',
  'ap2.datadoghq.com',
  'ddog-gov.com',
] as const;
export type DatadogSite = (typeof DATADOG_SITES)[number];
/** Datadog API keys are 32 hexadecimal characters. */
const DATADOG_KEY = /^[0-9a-f]{32}$/;
export const isDatadogKey = (v: string) => DATADOG_KEY.test(v);

/** Telegram bot tokens: `<bot id>:<secret>` (BotFather). */
const TELEGRAM_TOKEN = /^[0-9]{5,16}:[A-Za-z0-9_-]{30,64}$/;
export const isTelegramToken = (v: string) => TELEGRAM_TOKEN.test(v);
/** A chat id (negative for groups and channels) or a public channel's `@username`. */
const TELEGRAM_CHAT = /^(?:-?[0-9]{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/;
export const isTelegramChat = (v: string) => TELEGRAM_CHAT.test(v);

/** A bearer token as given by a tool's settings: printable ASCII, no spaces, 8 to 512 characters. */
const BEARER = /^[\x21-\x7e]{8,512}$/;
export const isBearerToken = (v: string) => BEARER.test(v);

/** A Grafana dashboard UID: up to 40 letters, digits, `-` and `_`. */
const DASHBOARD_UID = /^[A-Za-z0-9_-]{1,40}$/;
export const isDashboardUid = (v: string) => DASHBOARD_UID.test(v);

/** A ServiceNow user name for basic auth: printable, no spaces, no colon (it would split the credentials). */
const SN_USER = /^[\x21-\x39\x3b-\x7e]{1,100}$/;
export const isServiceNowUser = (v: string) => SN_USER.test(v);

/** A password: printable ASCII (spaces allowed), 1 to 256 characters. */
const SECRET_TEXT = /^[\x20-\x7e]{1,256}$/;
export const isSecretText = (v: string) => SECRET_TEXT.test(v);
