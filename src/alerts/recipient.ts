import type { RecipientState } from '../domain/alerts.ts';
import { emailAddressStatus } from '../domain/preferences.ts';
import type { PreferencesState } from '../store/repositories/preferences-repository.ts';

// What the routing rules (domain/alerts.ts) need to know of one user's stored settings,
// read the same way for incident alerts and maintenance reminders (docs/alerts.md).

/** Alerts may go to the e-mail address: the account's own, or one proven by its link. */
export const emailProven = (s: PreferencesState, accountEmail: string | null) =>
  emailAddressStatus(s.settings.email.address, accountEmail, s.emailConfirmedAddress) === 'confirmed';

export function recipientOf(state: PreferencesState, watching: boolean, accountEmail: string | null): RecipientState {
  return {
    settings: state.settings,
    watching,
    hasRoutingKey: Boolean(state.pagerdutyRoutingKey),
    slackConnected: state.slackConnection?.connected === true,
    hasTeamsUrl: Boolean(state.channelSecrets.teamsWebhookUrl),
    hasGoogleChatUrl: Boolean(state.channelSecrets.googleChatWebhookUrl),
    hasOpsgenieKey: Boolean(state.channelSecrets.opsgenieApiKey),
    emailProven: emailProven(state, accountEmail),
  };
}
