// What the "Add to Slack" install needs of Slack's OAuth v2 (docs/alerts.md, "Slack"):
// the use case (services/alerts/slack-install-service.ts) speaks to this interface; the
// HTTP client behind it (alerts/slack-oauth.ts) is chosen in app.ts.

export interface SlackInstall {
  accessToken: string;
  botUserId: string | null;
  teamId: string | null;
  teamName: string | null;
  /** The member who installed the app: DMs go to them. */
  userId: string | null;
}

export class SlackOAuthError extends Error {
  readonly code: string;

  constructor(code: string) {
    super(`Slack answered ${code}`);
    this.code = code;
    this.name = 'SlackOAuthError';
  }
}

export interface SlackOAuth {
  /** Where the browser goes to approve the install. */
  authorizeUrl(state: string, redirectUri: string): string;
  /** The code from the redirect, exchanged for the workspace's bot token. */
  exchange(code: string, redirectUri: string): Promise<SlackInstall>;
  /** Revokes a token on uninstall. */
  revoke(token: string): Promise<void>;
}
