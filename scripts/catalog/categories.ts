// Category rule for generated catalog entries (docs/catalog.md "Categories of generated
// entries"): PROBO's category when it maps to one of ours, else the hand table of vendor
// slugs, else the first keyword rule that matches the vendor's name, slug or status host,
// else `business-apps`.

export const CATEGORY_PHRASES: Record<string, string> = {
  cloud: 'cloud infrastructure and storage',
  'cdn-edge': 'CDN, DNS and edge network services',
  hosting: 'application hosting and deployment',
  devtools: 'developer tools and infrastructure',
  'ai-ml': 'AI model APIs and machine-learning platforms',
  database: 'managed data, database and streaming services',
  observability: 'monitoring, logging and error tracking',
  security: 'security, identity and network-security services',
  communications: 'messaging, voice, video and email services',
  productivity: 'work-management, document and collaboration tools',
  'business-apps': 'business software such as CRM, marketing, analytics and commerce',
  payments: 'payments, banking-data and crypto services',
  consumer: 'consumer platforms and services',
};

/** PROBO `category` → ours; OTHER (and anything unknown) falls through to the keywords. */
export const PROBO_CATEGORIES: Record<string, string> = {
  PASSWORD_MANAGEMENT: 'security',
  IDENTITY_PROVIDER: 'security',
  SECURITY: 'security',
  MARKETING: 'business-apps',
  SALES: 'business-apps',
  ANALYTICS: 'business-apps',
  CUSTOMER_SUPPORT: 'business-apps',
  EMPLOYEE_MANAGEMENT: 'business-apps',
  RECRUITING: 'business-apps',
  DATA_STORAGE_AND_PROCESSING: 'database',
  ENGINEERING: 'devtools',
  VERSION_CONTROL: 'devtools',
  CLOUD_PROVIDER: 'cloud',
  CLOUD_MONITORING: 'observability',
  FINANCE: 'payments',
  COLLABORATION: 'productivity',
  PRODUCT_AND_DESIGN: 'productivity',
  DOCUMENT_MANAGEMENT: 'productivity',
  IT: 'productivity',
};

/**
 * Vendors whose name says nothing to the keyword rules, classified by hand from what the
 * vendor is widely known for. A judgement, not a source: docs/catalog.md says so.
 */
const NAMED: Record<string, string[]> = {
  security: [
    'guardrails',
    'alert-logic',
    'aqua',
    'authentic8',
    'bugcrowd',
    'castle',
    'check-point',
    'cisco-umbrella',
    'cybersmart',
    'datagrail',
    'dnsfilter',
    'forcepoint-one',
    'frontegg',
    'greynoise',
    'hackerone',
    'hcaptcha',
    'hennge-one',
    'hornetsecurity',
    'inky',
    'ipvanish',
    'knowbe4',
    'mnemonic',
    'openvpn',
    'panther-labs',
    'perimeterx',
    'permit-io',
    'red-canary',
    'sailpoint',
    'secureframe',
    'secureworks',
    'securityscorecard',
    'securly',
    'seon',
    'sift',
    'specops',
    'threatx',
    'transcend',
    'wallarm',
    'watchguard',
    'cisco-systems',
    'securid',
    'onelogin-eu',
    'onelogin-us',
  ],
  'cdn-edge': ['ngenix', 'dnsimple', 'easyredir', 'f5', 'fasterize', 'i-want-my-name', 'infoblox', 'internetx', 'opensrs', 'cloudinary'],
  devtools: [
    'cloudsmith',
    'kong',
    'retool',
    'scraperapi',
    'scrapfly',
    'alchemy',
    'apify',
    'apigee',
    'apollo',
    'apwide',
    'balena',
    'blazemeter',
    'cloudbees',
    'cloudrepo',
    'cumulocity',
    'datacake',
    'exalate',
    'filepicker',
    'flatfile',
    'font-awesome',
    'frigade',
    'gemfury',
    'ghost-inspector',
    'gitlabhost',
    'herocoders',
    'infura',
    'ipdata',
    'jama-software',
    'jexo',
    'judoscale',
    'launchnotes',
    'licensespring',
    'ngrok',
    'opencage',
    'packagecloud',
    'particle',
    'phantombuster',
    'playfab',
    'popsql',
    'progress-telerik',
    'quicknode',
    'shakebugs',
    'smarty',
    'testmo',
    'testrail',
    'the-linux-foundation',
    'tyk',
    'ubidots',
    'uploadcare',
    'webscrapingapi',
    'zyte',
    'formspree',
    'arista-cloudvision',
    'cisco-iot',
    'cisco-meraki',
    'buildkite',
    'codecov',
    'coderpad',
    'cypress',
  ],
  hosting: [
    'aptible',
    'binary-lane',
    'cloudfanatic',
    'digital-pacific',
    'dongee',
    'endless-group',
    'gearhost',
    'heart-internet',
    'hyonix',
    'kinghost',
    'lumaserv',
    'one',
    'otava',
    'plusserver',
    'sashido',
    'teraswitch',
    'uk2',
    'umbrellar',
    'bigleaf',
    'wodby',
    'fleek',
  ],
  cloud: ['platform9', 'cdc-service', 'red-hat', 'internet-computer'],
  database: [
    'airbyte',
    'prisma',
    'tinybird',
    'aiven',
    'cloudera',
    'flying-sphinx',
    'juicefs',
    'maxmind',
    'opencorporates',
    'mode',
    'databox',
    'geckoboard',
    'redislabs',
    'bonsai',
    'websolr',
  ],
  observability: ['incident-io', 'mxtoolbox', 'pdq', 'papertrail', 'victorops', 'checkly', 'pingdom', 'kentik'],
  payments: [
    'blend',
    'blockchain',
    'cex-io',
    'coinapi-io',
    'coinbase-commerce',
    'coinbase-prime',
    'coingate',
    'coinjar',
    'coinlist',
    'coinmarketcap',
    'freshbooks',
    'lunar',
    'magensa',
    'multiverse',
    'opennode',
    'osl-singapore',
    'purse-io',
    'recharge',
    'shakepay',
    'authorize-net',
    'cybersource',
    'dwolla',
    'robinhood',
    'klarna',
    'lob',
  ],
  communications: ['mux', 'loops', 'voximplant', 'hiver', 'nowsta', 'dialpad', 'messagebird', 'onesignal', 'stream', 'emailable', 'proton'],
  productivity: [
    'airtable',
    'harvest',
    'sertifi',
    'bluebeam',
    'dakboard',
    'bettercloud',
    'degreed',
    'docaposte',
    'docevent',
    'dracoon',
    'formassembly',
    'gathercontent',
    'goodtime',
    'hivebrite',
    'inline-manual',
    'maze',
    'ninety',
    'nitro',
    'officernd',
    'pipefy',
    'savvycal',
    'simplyq',
    'smartpass',
    'stacker',
    'walkme',
    'webdam',
    'workiva',
    'xporter',
    'yasoon',
    'zenqms',
    'helpjuice',
    'ada',
  ],
  'ai-ml': ['groq', 'deepseek', 'cursor'],
  consumer: [
    'nabu-casa',
    'amsoil-inc',
    'booksy',
    'hunter-douglas-inc',
    'irobot',
    'seek',
    'uc-santa-barbara',
    'hashnode',
    'zwift',
    'vimeo',
    'medium',
    'unsplash',
  ],
};

/** Vendors whose PROBO category misleads (SendGrid delivers e-mail); checked before PROBO. */
const OVERRIDES: Record<string, string> = { sendgrid: 'communications', groq: 'ai-ml' };

const NAMED_CATEGORY = new Map(Object.entries(NAMED).flatMap(([category, slugs]) => slugs.map((slug) => [slug, category] as const)));

/** Ordered: the first match wins. Matched against words of the name, slug and host. */
export const KEYWORD_RULES: [string, RegExp][] = [
  ['ai-ml', /\b(ai|ml|gpt|llm|openai|anthropic|cohere|replicate|huggingface|datarobot|scale)\b/],
  ['cdn-edge', /\b(cdn|dns|edge|akamai|fastly|cloudflare|imgix|imagekit|bunny|cdnjs|ultradns|noip|gandi|registrar)\b/],
  [
    'observability',
    /\b(log|logs|logz|loggly|monitor|monitoring|metrics|apm|trace|tracing|observability|sentry|bugsnag|rollbar|airbrake|uptime|signalfx|sumologic|grafana|lightstep|mezmo|datadog|thousandeyes|graphite|victoriametrics|snitch|pager|xmatters|zenduty|incident)\b/,
  ],
  [
    'security',
    /\b(security|secure|sec|guard|shield|auth|identity|sso|vpn|phish|threat|firewall|waf|vault|password|keeper|passwords|cert|certs|encrypt|sectigo|digicert|duo|okta|zero|trust|cyber|antivirus|malware|siem|soc|ironscales|huntress|expel|wiz|snyk|veracode|rapid7|tenable|qualys|imperva|fortinet|forti|eset|webroot|barracuda|mimecast|sucuri|twingate|tailscale|teleport|nordlayer|perimeter|kisi|brivo|verkada|latch|1password|dashlane|lastpass|bitwarden|foxpass|jumpcloud)\b/,
  ],
  [
    'payments',
    /\b(pay|payment|payments|bank|banking|coin|crypto|bitcoin|bit|btc|exchange|wallet|ledger|finance|fintech|invoice|billing|stripe|plaid|brex|kraken|gemini|bitso|bitgo|bitmex|bitpanda|bitfinex|luno|uphold|tide|wealthsimple|payoneer|usaepay|bluefin|transbank|chainalysis|fireblocks|solana|hedera|opensea|optimism|filecoin|paribu|etoro|primexbt|lmax|b2c2|zerohash|hash|circle)\b/,
  ],
  [
    'database',
    /\b(db|database|data|sql|mongo|mongodb|redis|postgres|mysql|cockroach|neo4j|influx|influxdata|elastic|search|kafka|stream|warehouse|snowflake|databricks|vector|pinecone|zilliz|upstash|instaclustr|datastax|astra|stitch|hevo|matillion|dbt|etl|cloudamqp|objectrocket|graphenedb)\b/,
  ],
  [
    'hosting',
    /\b(host|hosting|hoster|server|servers|vps|deploy|heroku|vercel|netlify|render|fly|railway|pantheon|kinsta|wpengine|cloudways|nexcess|hostinger|dreamhost|liquidweb|siteground|platform|paas|northflank|qovery|nhost|appwrite|supabase|firebase|cloud66|engineyard|divio|section|presslabs|servebolt|seravo|hypernode|magemojo|wix|squarespace|webflow|umbraco)\b/,
  ],
  [
    'cloud',
    /\b(cloud|aws|azure|gcp|ovh|ovhcloud|scaleway|linode|vultr|hetzner|upcloud|digitalocean|packet|equinix|wasabi|storj|backblaze|cloudsigma|ionos|coreweave|paperspace|macstadium|latitude|catalyst|layerstack|alphavps|iron|nutanix|netapp|vmware|datacenter|colo)\b/,
  ],
  [
    'devtools',
    /\b(dev|developer|developers|git|github|gitlab|bitbucket|ci|cd|build|builds|test|testing|qa|code|coding|api|apis|sdk|package|packages|registry|npm|pypi|rubygems|crates|cocoapods|clojars|gradle|docker|quay|container|terraform|pulumi|spacelift|circle|travis|semaphore|codefresh|bitrise|harness|octopus|sauce|percy|cypress|chromatic|postman|swagger|stoplight|readme|docs|flag|flags|launchdarkly|flagsmith|expo|ionic|meteor|jenkins|sonar|coveralls|fossa|semgrep|cycode|gitbook|linear|jira|atlassian|confluence|loom|shortcut|sleuth|pipedream|make|workato|zapier|tray|integration|integrations|automation|jitterbit|boomi|mulesoft|mendix|outsystems|liferay|contentful|sanity|prismic|hygraph|cms)\b/,
  ],
  [
    'communications',
    /\b(mail|email|smtp|sms|voice|chat|message|messaging|call|calls|phone|video|meet|meeting|meetings|telecom|voip|twilio|sinch|vonage|bandwidth|pusher|pubnub|ably|courier|resend|mailgun|sendgrid|postmark|matrix|discord|slack|zoom|lifesize|loopup|avaya|genesys|ringcentral|dixa|intercom|helpscout|helpshift|tidio|gladly|groove|sip|fax|documo|iristel|clearlyip|tpx|emnify|cradlepoint|ubiquiti)\b/,
  ],
  [
    'consumer',
    /\b(game|games|gaming|play|player|music|social|reddit|twitch|roblox|epic|hypixel|minecraft|steam|nba|calm|udemy|wikimedia|brave|opensea|geforce|nvidia|shockbyte|gportal|fragnet|ggnetwork|enjin|smugmug|whatnot|tv|streaming)\b/,
  ],
  [
    'productivity',
    /\b(doc|docs|document|documents|note|notes|notion|task|tasks|project|projects|calendar|calendly|form|forms|file|files|drive|box|dropbox|design|figma|miro|mural|whiteboard|wiki|collab|collaboration|workspace|office|sheet|smartsheet|monday|asana|trello|clickup|todoist|workflowy|milanote|slab|tettra|guru|podio|wrike|teamwork|hive|roam|doodle|prezi|lucidchart|canva|frontify|egnyte|tresorit|sugarsync|wetransfer|files|sharepoint|sharegate|lokalise|grammarly|wordtune|textexpander|rescuetime|noko|timeclock|time|scheduling|esa|height|liquidplanner|mavenlink|roadmunk|teamretro|geekbot|tuple|slido|speakap|jostle|teamviewer|splashtop|realvnc|gotomypc|workspot|teradici|jamf|addigy|atera|auvik|kaseya|datto|pax8|spiceworks|sysaid|samanage|freshservice|it|itglue|helpdesk|deskpro|desk)\b/,
  ],
];

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

export interface CategoryChoice {
  category: string;
  /** `probo` (PROBO's category), `keyword` (a keyword rule), `named` (the hand table) or `default`. */
  by: 'probo' | 'keyword' | 'named' | 'default';
}

export function chooseCategory(o: { proboCategory?: string | null; name: string; slug: string; host: string }): CategoryChoice {
  const override = OVERRIDES[o.slug];
  if (override) return { category: override, by: 'named' };
  const fromProbo = o.proboCategory ? PROBO_CATEGORIES[o.proboCategory] : undefined;
  if (fromProbo) return { category: fromProbo, by: 'probo' };
  const named = NAMED_CATEGORY.get(o.slug);
  if (named) return { category: named, by: 'named' };
  const text = ` ${words(o.name)} ${words(o.slug)} ${words(o.host.replace(/^(www|status|statuspage)\./, ''))} `;
  for (const [category, rule] of KEYWORD_RULES) if (rule.test(text)) return { category, by: 'keyword' };
  return { category: 'business-apps', by: 'default' };
}

/** The neutral sentence of a generated entry (docs/catalog.md says these are generated). */
export function categorySentence(name: string, category: string): string {
  return `${name} provides ${CATEGORY_PHRASES[category] ?? 'online services'}.`;
}
