import { threadKey } from './channel.ts';
import nodemailer, { type Transporter } from 'nodemailer';
import { emailMessage } from '../../domain/alert-text.ts';
import { escapeHtml } from '../../domain/html-escape.ts';
import { isSignalAlertType } from '../../domain/signal-alerts.ts';
import type { Delivery } from '../../store/repositories/deliveries-repository.ts';
import type { AlertThreadsRepository } from '../../store/repositories/alert-threads-repository.ts';
import { type Channel, describeError, failed, type SendOutcome, sent, type Target } from './channel.ts';

// E-mail through the operator's SMTP server (SMTP_URL), one message per alert,
// plain text and HTML. A 5xx reply (mailbox unknown, refused) is final; 4xx
// replies and connection problems are retried on the delivery schedule.

type EmailTarget = Extract<Target, { channel: 'email' }>;

/** The message that proves an address: only the link, no alert content (docs/alerts.md "Proven addresses"). */
export function confirmationMessage(link: string, expiresAt: string): { subject: string; text: string; html: string } {
  const text = [
    'Someone asked to receive vendor status alerts at this address.',
    '',
    'To confirm, open this link and press "Confirm":',
    link,
    '',
    `The link works once, until ${expiresAt}. If you did not ask for this, ignore this message: nothing will be sent here.`,
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    '<p>Someone asked to receive vendor status alerts at this address.</p>',
    `<p><a href="${escapeHtml(link)}">Confirm this address</a></p>`,
    `<p style="color:#666;font-size:small">The link works once, until ${escapeHtml(expiresAt)}. If you did not ask for this, ignore this message: nothing will be sent here.</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: 'Confirm your address for vendor status alerts', text, html };
}

/** An invitation to an organisation (docs/teams.md, "Invitations"). */
export function invitationMessage(i: { orgName: string; invitedBy: string | null; link: string; expiresAt: string }) {
  const who = i.invitedBy ? `${i.invitedBy} invited you` : 'You were invited';
  const text = [
    `${who} to the organisation "${i.orgName}" on Vendor Status.`,
    '',
    'To accept or decline, sign in with this address and open:',
    i.link,
    '',
    `The link works once, until ${i.expiresAt}. If you do not know the sender, ignore this message.`,
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<p>${escapeHtml(who)} to the organisation “${escapeHtml(i.orgName)}” on Vendor Status.</p>`,
    `<p><a href="${escapeHtml(i.link)}">Open the invitation</a></p>`,
    `<p style="color:#666;font-size:small">The link works once, until ${escapeHtml(i.expiresAt)}. If you do not know the sender, ignore this message.</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: `Invitation to ${i.orgName.slice(0, 80)} on Vendor Status`, text, html };
}

export type EmailChannel = Channel<EmailTarget> & {
  /** Sends a confirmation link; true when the server accepted it. */
  sendConfirmation(to: string, link: string, expiresAt: string): Promise<boolean>;
  /** Sends an organisation invitation; true when the server accepted it. */
  sendInvitation(to: string, invitation: Parameters<typeof invitationMessage>[0]): Promise<boolean>;
};

/** Message-ID of a delivery: the same on every retry (receivers and tests spot duplicates). */
export const messageIdOf = (deliveryId: string) => `<${deliveryId}@alerts.vendor-status>`;

/**
 * Alerts about records and early-warning signals thread (a signal's updates, then the vendor
 * incident that confirms it, whose rows carry the signal as their thread entity); summaries,
 * digests and test alerts stand alone.
 */
const threads = (d: Delivery) => !d.isTest && (d.eventSeq !== null || isSignalAlertType(d.eventType));

export function emailChannel(o: {
  smtpUrl: string;
  from: string;
  timeoutMs: number;
  /** First message of each incident per user (docs/alerts.md "E-mail", threading). */
  threads?: AlertThreadsRepository;
  clock?: { now(): Date };
}): EmailChannel {
  const u = new URL(o.smtpUrl);
  const transport: Transporter = nodemailer.createTransport({
    host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: u.port ? Number(u.port) : u.protocol === 'smtps:' ? 465 : 587,
    secure: u.protocol === 'smtps:',
    ...(u.username ? { auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } } : {}),
    pool: true,
    maxConnections: 5,
    connectionTimeout: o.timeoutMs,
    greetingTimeout: o.timeoutMs,
    socketTimeout: o.timeoutMs,
  });
  /**
   * The Message-ID this alert replies to: the incident's first message to this
   * address. The first alert records itself before it is sent (a retry finds itself
   * and stays the root); a changed address starts a new thread.
   */
  async function threadRoot(d: Delivery, to: string, messageId: string): Promise<string | null> {
    if (!o.threads || !threads(d)) return null;
    const entity = `${d.vendor}:${d.threadEntity ?? d.entityId}`;
    const key = threadKey(d);
    const found = await o.threads.get(d.orgId, key, entity);
    if (found && found.conversation.toLowerCase() === to.toLowerCase()) return found.ref === messageId ? null : found.ref;
    if (found) await o.threads.deleteOne(d.orgId, key, entity);
    await o.threads.save(d.orgId, key, entity, { conversation: to, ref: messageId }, o.clock?.now() ?? new Date());
    const saved = await o.threads.get(d.orgId, key, entity);
    // Another worker recorded an earlier first message at the same time: reply to it.
    return saved && saved.ref !== messageId ? saved.ref : null;
  }

  return {
    async send(d, target, _signal): Promise<SendOutcome> {
      try {
        const m = emailMessage(d);
        const messageId = messageIdOf(d.id);
        const root = await threadRoot(d, target.to, messageId);
        const info = await transport.sendMail({
          from: o.from,
          to: target.to,
          subject: m.subject,
          text: m.text,
          html: m.html,
          // The same id on every retry lets mail clients and tests spot duplicates.
          messageId,
          ...(root ? { inReplyTo: root, references: [root] } : {}),
          headers: { 'X-Alert-Delivery-Id': d.id, 'X-Alert-Event': d.eventType },
        });
        if (info.rejected?.length) return failed('recipient rejected', { permanent: true });
        return sent(250);
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode ?? null;
        return failed(describeError(err), { statusCode: code, permanent: code !== null && code >= 500 });
      }
    },
    async sendConfirmation(to, link, expiresAt) {
      try {
        const info = await transport.sendMail({ from: o.from, to, ...confirmationMessage(link, expiresAt) });
        return !info.rejected?.length;
      } catch {
        return false;
      }
    },
    async sendInvitation(to, invitation) {
      try {
        const info = await transport.sendMail({ from: o.from, to, ...invitationMessage(invitation) });
        return !info.rejected?.length;
      } catch {
        return false;
      }
    },
    async close() {
      transport.close();
    },
  };
}
