import { randomUUID } from 'node:crypto';
import { periodicRound } from '../infra/periodic-round.ts';
import { type PrometheusClient, prometheusClient } from '../infra/prometheus-client.ts';
import type { TelemetryService } from '../services/probes/telemetry-service.ts';

// The evaluator of telemetry connectors (docs/early-warning.md "Prometheus connectors"):
// every tick it claims due connectors of every organisation under a lease (each evaluated
// once per interval across instances) and runs their queries through the guarded client.
// Connectors run side by side, their queries one after another, each within its deadline,
// so a slow Prometheus holds only its own connector.

type Log = { warn(obj: unknown, msg: string): void };

export interface TelemetryRunner {
  start(): void;
  stop(): Promise<void>;
  runOnce(): Promise<{ evaluated: number; observations: number; unhealthy: number }>;
}

export function createTelemetryRunner(o: {
  telemetry: Pick<TelemetryService, 'evaluateDue'>;
  allowList: readonly string[];
  timeoutMs: number;
  tickMs: number;
  log: Log;
  owner?: string;
  client?: PrometheusClient;
}): TelemetryRunner {
  const owner = o.owner ?? `telemetry-${randomUUID()}`;
  const client = o.client ?? prometheusClient({ allowList: o.allowList, timeoutMs: o.timeoutMs });
  const limit = 32;
  // The worst round: a connector's 20 queries one after another, each to its deadline.
  const leaseMs = 20 * o.timeoutMs + 30_000;
  const runOnce = () => o.telemetry.evaluateDue(owner, client.query, { limit, leaseMs });
  const rounds = periodicRound(runOnce, { everyMs: o.tickMs, onError: (err) => o.log.warn({ err }, 'telemetry: a round failed; retrying on the next tick') });
  return {
    start: () => rounds.start(),
    async stop() {
      await rounds.stop();
      await client.close();
    },
    runOnce,
  };
}
