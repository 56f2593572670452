import { randomUUID } from 'node:crypto';
import type { Agent } from 'undici';
import { CREDENTIAL_UNREADABLE } from '../domain/private-probes.ts';
import { probeHost } from '../domain/probes.ts';
import { periodicRound } from '../infra/periodic-round.ts';
import { guardedAgent } from '../infra/ssrf-guard.ts';
import type { ProbesService } from '../services/probes/probes-service.ts';
import { runCheck } from './checks.ts';

// The probe runner (docs/early-warning.md "Probes"): like ingestion's scheduler, it claims the
// due probes under a lease in the store (so each runs once per interval across all
// instances), measures them with bounds, and hands each sample to the probes' use case.
// Bounds: at most `concurrency` checks in flight in this process, `hostConcurrency` per host,
// each within `timeoutMs`; a round claims at most twice `concurrency` probes, and its lease
// covers the worst wait for a host's slot. Rounds never overlap. Organisations' private probes
// are claimed in the same rounds and count against the same bounds.

type Log = { warn(obj: unknown, msg: string): void };

export interface ProbeRunnerOptions {
  probes: Pick<ProbesService, 'claimDue' | 'record'>;
  allowList: readonly string[];
  concurrency: number;
  hostConcurrency: number;
  timeoutMs: number;
  /** How often the runner looks for due probes. */
  tickMs: number;
  now: () => number;
  log: Log;
  /** Extra trusted CA for tls probes (tests). */
  ca?: string | Buffer;
  owner?: string;
}

export interface ProbeRunner {
  start(): void;
  stop(): Promise<void>;
  /** One round: claim the due probes, measure, record; how many were measured. */
  runOnce(): Promise<{ measured: number; observations: number }>;
}

/** A counting semaphore per key and one for all, in arrival order. */
function slots(total: number, perKey: number) {
  let inFlight = 0;
  const perHost = new Map<string, number>();
  const waiting: { key: string; go: () => void }[] = [];
  const free = (key: string) => inFlight < total && (perHost.get(key) ?? 0) < perKey;
  const take = (key: string) => {
    inFlight++;
    perHost.set(key, (perHost.get(key) ?? 0) + 1);
  };
  const pump = () => {
    for (let i = 0; i < waiting.length; i++) {
      const w = waiting[i]!;
      if (!free(w.key)) continue;
      waiting.splice(i--, 1);
      take(w.key);
      w.go();
    }
  };
  return async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    if (free(key)) take(key);
    else await new Promise<void>((go) => waiting.push({ key, go }));
    try {
      return await fn();
    } finally {
      inFlight--;
      const n = (perHost.get(key) ?? 1) - 1;
      if (n) perHost.set(key, n);
      else perHost.delete(key);
      pump();
    }
  };
}

export function createProbeRunner(o: ProbeRunnerOptions): ProbeRunner {
  const owner = o.owner ?? `probes-${randomUUID()}`;
  const agent: Agent = guardedAgent({ allowList: o.allowList, timeoutMs: o.timeoutMs, connections: o.hostConcurrency });
  const withSlot = slots(o.concurrency, o.hostConcurrency);
  const batch = o.concurrency * 2;
  // The worst wait: every probe of the batch on one host, `hostConcurrency` at a time.
  const leaseMs = Math.ceil(batch / o.hostConcurrency) * o.timeoutMs + 30_000;
  const runOnce = async () => {
    const due = await o.probes.claimDue(owner, batch, leaseMs);
    let observations = 0;
    await Promise.all(
      due.map((p) =>
        withSlot(probeHost(p.spec), async () => {
          // Without its credential the request would only be refused: no request at all.
          const sample = p.credentialUnreadable
            ? { at: new Date(o.now()).toISOString(), ok: false, latencyMs: null, reason: CREDENTIAL_UNREADABLE }
            : await runCheck(p.spec, { agent, allowList: o.allowList, timeoutMs: o.timeoutMs, now: o.now, ca: o.ca }, p.credential);
          try {
            observations += (await o.probes.record(p, owner, sample)).observations;
          } catch (err) {
            o.log.warn({ err, probe: p.id }, 'probes: recording a sample failed');
          }
        }),
      ),
    );
    return { measured: due.length, observations };
  };

  const rounds = periodicRound(runOnce, {
    everyMs: o.tickMs,
    runAtStart: true,
    onError: (err) => o.log.warn({ err }, 'probes: a round failed; retrying on the next tick'),
  });

  return {
    start: () => rounds.start(),
    async stop() {
      await rounds.stop();
      await agent.close();
    },
    runOnce,
  };
}
