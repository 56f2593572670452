// The probe runner (docs/early-warning.md "Probes"): what the composition root starts.
export { createProbeRunner, type ProbeRunner, type ProbeRunnerOptions } from './runner.ts';
export { runCheck, BODY_LIMIT } from './checks.ts';
export { createTelemetryRunner, type TelemetryRunner } from './telemetry-runner.ts';
