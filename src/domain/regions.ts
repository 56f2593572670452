// One vocabulary of cloud regions (docs/services.md "Regions"): the public regions of AWS,
// Google Cloud and Azure with their codes, display names and the places they are named by.
// A service's dependency names regions in it (stored as the code), and incident texts are
// read for them. Pure: no I/O.
//
// Codes are unique across the three clouds (AWS `us-east-1`, Google `us-east1`, Azure
// `eastus`), so a code alone is the normal form. Places ("Tokyo", "Oregon") may name several
// regions of different clouds; a place that names more than one is ambiguous on its own.

export const CLOUDS = ['aws', 'gcp', 'azure'] as const;
export type Cloud = (typeof CLOUDS)[number];

export interface Region {
  code: string;
  cloud: Cloud;
  /** The cloud's own display name, e.g. "US East (N. Virginia)", "East US". */
  name: string;
  /** Places the region is known by, e.g. "N. Virginia", "Iowa". */
  places: readonly string[];
}

type Row = readonly [code: string, name: string, places: readonly string[]];

const AWS: readonly Row[] = [
  ['us-east-1', 'US East (N. Virginia)', ['N. Virginia', 'North Virginia']],
  ['us-east-2', 'US East (Ohio)', ['Ohio']],
  ['us-west-1', 'US West (N. California)', ['N. California', 'Northern California']],
  ['us-west-2', 'US West (Oregon)', ['Oregon']],
  ['af-south-1', 'Africa (Cape Town)', ['Cape Town']],
  ['ap-east-1', 'Asia Pacific (Hong Kong)', ['Hong Kong']],
  ['ap-east-2', 'Asia Pacific (Taipei)', ['Taipei']],
  ['ap-south-1', 'Asia Pacific (Mumbai)', ['Mumbai']],
  ['ap-south-2', 'Asia Pacific (Hyderabad)', ['Hyderabad']],
  ['ap-southeast-1', 'Asia Pacific (Singapore)', ['Singapore']],
  ['ap-southeast-2', 'Asia Pacific (Sydney)', ['Sydney']],
  ['ap-southeast-3', 'Asia Pacific (Jakarta)', ['Jakarta']],
  ['ap-southeast-4', 'Asia Pacific (Melbourne)', ['Melbourne']],
  ['ap-southeast-5', 'Asia Pacific (Malaysia)', ['Malaysia']],
  ['ap-southeast-7', 'Asia Pacific (Thailand)', ['Thailand']],
  ['ap-northeast-1', 'Asia Pacific (Tokyo)', ['Tokyo']],
  ['ap-northeast-2', 'Asia Pacific (Seoul)', ['Seoul']],
  ['ap-northeast-3', 'Asia Pacific (Osaka)', ['Osaka']],
  ['ca-central-1', 'Canada (Central)', ['Montreal', 'Montréal']],
  ['ca-west-1', 'Canada West (Calgary)', ['Calgary']],
  ['eu-central-1', 'Europe (Frankfurt)', ['Frankfurt']],
  ['eu-central-2', 'Europe (Zurich)', ['Zurich']],
  ['eu-west-1', 'Europe (Ireland)', ['Ireland']],
  ['eu-west-2', 'Europe (London)', ['London']],
  ['eu-west-3', 'Europe (Paris)', ['Paris']],
  ['eu-south-1', 'Europe (Milan)', ['Milan']],
  ['eu-south-2', 'Europe (Spain)', ['Spain']],
  ['eu-north-1', 'Europe (Stockholm)', ['Stockholm']],
  ['il-central-1', 'Israel (Tel Aviv)', ['Tel Aviv']],
  ['me-south-1', 'Middle East (Bahrain)', ['Bahrain']],
  ['me-central-1', 'Middle East (UAE)', ['UAE']],
  ['mx-central-1', 'Mexico (Central)', ['Mexico']],
  ['sa-east-1', 'South America (São Paulo)', ['São Paulo', 'Sao Paulo']],
  ['us-gov-east-1', 'AWS GovCloud (US-East)', []],
  ['us-gov-west-1', 'AWS GovCloud (US-West)', []],
];

const GCP: readonly Row[] = [
  ['us-central1', 'Iowa', ['Iowa', 'Council Bluffs']],
  ['us-east1', 'South Carolina', ['South Carolina', 'Moncks Corner']],
  ['us-east4', 'Northern Virginia', ['Northern Virginia', 'Ashburn']],
  ['us-east5', 'Columbus', ['Columbus']],
  ['us-south1', 'Dallas', ['Dallas']],
  ['us-west1', 'Oregon', ['Oregon', 'The Dalles']],
  ['us-west2', 'Los Angeles', ['Los Angeles']],
  ['us-west3', 'Salt Lake City', ['Salt Lake City']],
  ['us-west4', 'Las Vegas', ['Las Vegas']],
  ['northamerica-northeast1', 'Montréal', ['Montreal', 'Montréal']],
  ['northamerica-northeast2', 'Toronto', ['Toronto']],
  ['northamerica-south1', 'Querétaro', ['Querétaro', 'Queretaro']],
  ['southamerica-east1', 'São Paulo', ['São Paulo', 'Sao Paulo']],
  ['southamerica-west1', 'Santiago', ['Santiago']],
  ['europe-central2', 'Warsaw', ['Warsaw']],
  ['europe-north1', 'Finland', ['Finland', 'Hamina']],
  ['europe-north2', 'Stockholm', ['Stockholm']],
  ['europe-southwest1', 'Madrid', ['Madrid']],
  ['europe-west1', 'Belgium', ['Belgium', 'St. Ghislain']],
  ['europe-west2', 'London', ['London']],
  ['europe-west3', 'Frankfurt', ['Frankfurt']],
  ['europe-west4', 'Netherlands', ['Netherlands', 'Eemshaven']],
  ['europe-west6', 'Zurich', ['Zurich']],
  ['europe-west8', 'Milan', ['Milan']],
  ['europe-west9', 'Paris', ['Paris']],
  ['europe-west10', 'Berlin', ['Berlin']],
  ['europe-west12', 'Turin', ['Turin']],
  ['me-central1', 'Doha', ['Doha']],
  ['me-central2', 'Dammam', ['Dammam']],
  ['me-west1', 'Tel Aviv', ['Tel Aviv']],
  ['africa-south1', 'Johannesburg', ['Johannesburg']],
  ['asia-east1', 'Taiwan', ['Taiwan', 'Changhua County']],
  ['asia-east2', 'Hong Kong', ['Hong Kong']],
  ['asia-northeast1', 'Tokyo', ['Tokyo']],
  ['asia-northeast2', 'Osaka', ['Osaka']],
  ['asia-northeast3', 'Seoul', ['Seoul']],
  ['asia-south1', 'Mumbai', ['Mumbai']],
  ['asia-south2', 'Delhi', ['Delhi']],
  ['asia-southeast1', 'Singapore', ['Singapore']],
  ['asia-southeast2', 'Jakarta', ['Jakarta']],
  ['australia-southeast1', 'Sydney', ['Sydney']],
  ['australia-southeast2', 'Melbourne', ['Melbourne']],
];

// Azure's places are only those that are not also another Azure region's (Virginia holds
// East US and East US 2), so a place of Azure names one Azure region.
const AZURE: readonly Row[] = [
  ['eastus', 'East US', []],
  ['eastus2', 'East US 2', []],
  ['centralus', 'Central US', []],
  ['northcentralus', 'North Central US', []],
  ['southcentralus', 'South Central US', []],
  ['westcentralus', 'West Central US', []],
  ['westus', 'West US', []],
  ['westus2', 'West US 2', []],
  ['westus3', 'West US 3', []],
  ['canadacentral', 'Canada Central', ['Toronto']],
  ['canadaeast', 'Canada East', ['Quebec City']],
  ['brazilsouth', 'Brazil South', ['São Paulo', 'Sao Paulo']],
  ['brazilsoutheast', 'Brazil Southeast', ['Rio de Janeiro']],
  ['mexicocentral', 'Mexico Central', ['Querétaro', 'Queretaro']],
  ['chilecentral', 'Chile Central', ['Santiago']],
  ['northeurope', 'North Europe', ['Ireland']],
  ['westeurope', 'West Europe', ['Netherlands']],
  ['uksouth', 'UK South', ['London']],
  ['ukwest', 'UK West', ['Cardiff']],
  ['francecentral', 'France Central', ['Paris']],
  ['francesouth', 'France South', ['Marseille']],
  ['germanywestcentral', 'Germany West Central', ['Frankfurt']],
  ['germanynorth', 'Germany North', ['Berlin']],
  ['switzerlandnorth', 'Switzerland North', ['Zurich']],
  ['switzerlandwest', 'Switzerland West', ['Geneva']],
  ['norwayeast', 'Norway East', ['Oslo']],
  ['norwaywest', 'Norway West', ['Stavanger']],
  ['swedencentral', 'Sweden Central', ['Gävle', 'Gavle']],
  ['polandcentral', 'Poland Central', ['Warsaw']],
  ['italynorth', 'Italy North', ['Milan']],
  ['spaincentral', 'Spain Central', ['Madrid']],
  ['uaenorth', 'UAE North', ['Dubai']],
  ['uaecentral', 'UAE Central', ['Abu Dhabi']],
  ['qatarcentral', 'Qatar Central', ['Doha']],
  ['israelcentral', 'Israel Central', []],
  ['southafricanorth', 'South Africa North', ['Johannesburg']],
  ['southafricawest', 'South Africa West', ['Cape Town']],
  ['centralindia', 'Central India', ['Pune']],
  ['southindia', 'South India', ['Chennai']],
  ['westindia', 'West India', ['Mumbai']],
  ['eastasia', 'East Asia', ['Hong Kong']],
  ['southeastasia', 'Southeast Asia', ['Singapore']],
  ['japaneast', 'Japan East', ['Tokyo']],
  ['japanwest', 'Japan West', ['Osaka']],
  ['koreacentral', 'Korea Central', ['Seoul']],
  ['koreasouth', 'Korea South', ['Busan']],
  ['australiaeast', 'Australia East', []],
  ['australiasoutheast', 'Australia Southeast', []],
  ['australiacentral', 'Australia Central', ['Canberra']],
  ['australiacentral2', 'Australia Central 2', []],
  ['newzealandnorth', 'New Zealand North', ['Auckland']],
  ['indonesiacentral', 'Indonesia Central', []],
  ['malaysiawest', 'Malaysia West', ['Kuala Lumpur']],
];

const build = (cloud: Cloud, rows: readonly Row[]): Region[] => rows.map(([code, name, places]) => ({ code, cloud, name, places }));

export const REGIONS: readonly Region[] = [...build('aws', AWS), ...build('gcp', GCP), ...build('azure', AZURE)];

const BY_CODE = new Map(REGIONS.map((r) => [r.code, r]));

export const regionByCode = (code: string): Region | null => BY_CODE.get(code) ?? null;

/** Folds case, accents and spacing so "sao  paulo" reads as "São Paulo". */
const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

// Every name and place, folded, to the regions it names.
const BY_WORDS = new Map<string, Region[]>();
for (const r of REGIONS) {
  for (const w of new Set([r.name, ...r.places].map(fold))) {
    const list = BY_WORDS.get(w) ?? [];
    list.push(r);
    BY_WORDS.set(w, list);
  }
}

/** An availability zone or zone names its region: `us-east-1a`, `us-central1-b`. */
function codeOfZone(token: string): Region | null {
  const aws = /^([a-z]+(?:-[a-z]+)+-\d+)[a-z]$/.exec(token);
  if (aws) return BY_CODE.get(aws[1]!) ?? null;
  const gcp = /^([a-z]+-[a-z]+\d+)-[a-z]$/.exec(token);
  if (gcp) return BY_CODE.get(gcp[1]!) ?? null;
  return null;
}

/** Longest accepted input of normaliseRegion; longer text is no region. */
export const MAX_REGION_TEXT = 64;

/**
 * The regions `text` may name on its own: a code (`us-east-1`, `US-EAST-1`, `eastus`),
 * optionally prefixed by its cloud (`aws:us-east-1`), a display name ("US East (N. Virginia)",
 * "East US") or a place ("Iowa", "Tokyo"); case, accents and spacing do not matter.
 * `cloud` keeps only that cloud's regions.
 */
export function regionCandidates(text: string, cloud?: Cloud): Region[] {
  if (typeof text !== 'string' || text.length > MAX_REGION_TEXT) return [];
  let t = fold(text);
  let hint: Cloud | undefined = cloud;
  const prefixed = /^(aws|gcp|azure)\s*[:/]\s*(.+)$/.exec(t);
  if (prefixed) {
    if (hint && hint !== prefixed[1]) return [];
    hint = prefixed[1] as Cloud;
    t = prefixed[2]!;
  }
  const code = BY_CODE.get(t.replace(/ /g, ''));
  const found = code && /^[a-z0-9-]+$/.test(t) ? [code] : (BY_WORDS.get(t) ?? []);
  return hint ? found.filter((r) => r.cloud === hint) : [...found];
}

/** The one region `text` names, or null when it names none or several ("Tokyo" without a cloud). */
export function normaliseRegion(text: string, cloud?: Cloud): Region | null {
  const found = regionCandidates(text, cloud);
  return found.length === 1 ? found[0]! : null;
}

export interface RegionMention {
  region: Region;
  /** The text as written, e.g. "us-east-1a" or "US East (N. Virginia)". */
  text: string;
  index: number;
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Names and places are matched as written (their capitals), as whole words: "Ohio" but not
// "ohio" inside a path, "East US" but not inside "East US 2" (the longer name wins).
// Country names ("Spain", "Mexico") are places of a region but too common in prose to read
// as one; a text names those regions by code or display name ("Europe (Spain)").
const NOT_IN_TEXT = new Set(['Spain', 'Malaysia', 'Thailand', 'UAE', 'Mexico', 'Bahrain', 'Ireland', 'Finland', 'Belgium', 'Netherlands', 'Taiwan']);
const WORD_ALIASES = [...new Set(REGIONS.flatMap((r) => [r.name, ...r.places]))].filter((w) => !NOT_IN_TEXT.has(w)).sort((a, b) => b.length - a.length);
const WORD_PATTERN = new RegExp(`(?<![\\p{L}\\p{N}-])(?:${WORD_ALIASES.map(literal).join('|')})(?![\\p{L}\\p{N}-]|\\s\\d)`, 'gu');
// Codes are read from tokens of letters, digits and dashes, so `us-east-10` is one token and
// never `us-east-1`, and `s3.us-east-1.amazonaws.com` holds the token `us-east-1`.
const TOKEN = /[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*/g;

/** Longest text scanned; incident texts are far shorter. */
export const MAX_SCAN_TEXT = 200_000;

/**
 * Where `text` names regions: codes and zones (case-insensitive, whole tokens), display
 * names and places (as capitalised, whole words). A place of several regions ("Tokyo")
 * yields each of them. Mentions are in text order; one span names its regions once.
 */
export function regionsNamedIn(text: string): RegionMention[] {
  if (typeof text !== 'string' || !text) return [];
  const s = text.length > MAX_SCAN_TEXT ? text.slice(0, MAX_SCAN_TEXT) : text;
  const out: RegionMention[] = [];
  for (const m of s.matchAll(TOKEN)) {
    const token = m[0].toLowerCase();
    const region = BY_CODE.get(token) ?? codeOfZone(token);
    if (region) out.push({ region, text: m[0], index: m.index });
  }
  for (const m of s.matchAll(WORD_PATTERN)) {
    for (const region of BY_WORDS.get(fold(m[0])) ?? []) out.push({ region, text: m[0], index: m.index });
  }
  return out.sort((a, b) => a.index - b.index || a.region.code.localeCompare(b.region.code));
}

/** The codes of the regions `text` names, each once. */
export const regionCodesNamedIn = (text: string): Set<string> => new Set(regionsNamedIn(text).map((m) => m.region.code));

/**
 * A component's region tag (docs/mappings.md "Cloud depth"): a component named for one service
 * in one region ends with that region's code in parentheses, "Amazon Elastic Compute Cloud
 * (us-east-1)", "Cloud Spanner (asia-east1)", "App Service (westus)". Null when the name ends
 * otherwise (a global service, a multi-region location, any other vendor's component).
 */
export function regionTagOf(name: string): Region | null {
  if (typeof name !== 'string' || name.length > 1000) return null;
  const m = /\(([a-z0-9-]{2,40})\)\s*$/.exec(name);
  return m ? (BY_CODE.get(m[1]!) ?? null) : null;
}
