// AWS service keys as components (docs/mappings.md "Cloud depth"). Every generation of the
// AWS Health Dashboard keys a service in a region as `<service>-<region code>` (`ec2-us-east-1`,
// `ec2-me-central-1`) and a global service by its name alone (`route53`, `cloudfront`). The key
// is the component's id; the region comes from its suffix, read against the one region
// vocabulary; the name is the service's without the place AWS appends ("Amazon Elastic
// Compute Cloud (N. Virginia)" reads as "Amazon Elastic Compute Cloud").
import type { ComponentStatus } from '../../domain/records.ts';
import { regionByCode, type Region } from '../../domain/regions.ts';
import type { CloudComponent } from './cloud-components.ts';

/** Keys of the first AWS region, before it was named `us-east-1` (S3 "US Standard"). */
const LEGACY_SUFFIXES: Record<string, string> = { 'us-standard': 'us-east-1' };

/** The region a service key ends with, and the key's service part. */
export function splitAwsKey(key: string): { service: string; region: Region | null } {
  const m = /^(.+?)-((?:[a-z]{2}(?:-gov)?-[a-z]+-\d{1,2})|us-standard)$/.exec(key.trim().toLowerCase());
  if (m) {
    const region = regionByCode(LEGACY_SUFFIXES[m[2]!] ?? m[2]!);
    if (region?.cloud === 'aws') return { service: m[1]!, region };
  }
  return { service: key.trim(), region: null };
}

/** A key and AWS's name for it (null: the key is all there is) as a component. */
export function awsComponent(key: string, serviceName: string | null): CloudComponent {
  const { service, region } = splitAwsKey(key);
  // AWS appends the region's place to a regional service's name; the region tag replaces it.
  const name = serviceName && region ? serviceName.replace(/\s*\([^()]*\)\s*$/, '') : serviceName;
  return { id: key.trim(), service: name?.trim() || service, region, location: null };
}

/** AWS status codes as component states: 0 normal, 1 informational, 2 performance issues, 3 disruption. */
export function awsComponentStatus(code: string | number | null | undefined): ComponentStatus {
  switch (String(code ?? '').trim()) {
    case '0':
      return 'operational';
    case '1':
      return 'degraded_performance';
    case '2':
      return 'partial_outage';
    case '3':
      return 'major_outage';
    default:
      return 'unknown';
  }
}
