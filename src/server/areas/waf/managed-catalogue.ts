/**
 * The managed rulesets every zone can execute, in their first version (version "1"): the
 * Cloudflare Managed Ruleset, the Cloudflare OWASP Core Ruleset and the Cloudflare Exposed
 * Credentials Check Ruleset, with the real API's fixed ids (the same for every zone). The rules
 * are generated from fixed seeds, so every run, every machine and every Node version serves the
 * same catalogue, and a test may name any rule id it reads once. Later versions (rules added,
 * removed or changed by the provider) come from fixtures or the test route
 * (./managed-versions.ts); docs/local-api.md "Managed rulesets" lists the fixed rules.
 */
import { seededRandom } from '../../../seeded-random.js';

export const MANAGED_PHASE_NAME = 'http_request_firewall_managed';

/** The managed rulesets' ids: the real API's, the same for every zone. */
export const MANAGED_RULESET_IDS = {
  cloudflare: 'efb7b8c949ac4650a09736fc376e9aee',
  owasp: '4814384a9e5d4991b9815dcfc25d2f1f',
  exposedCredentials: 'c2e184081120413c86c3ab7e14069605',
} as const;

/**
 * Rules with fixed ids: the ones docs, examples and tests name. The first two are rules of the
 * Cloudflare Managed Ruleset (5de7... is the equivalent of the previous WAF's "Block robots"); the
 * third is the OWASP ruleset's last rule, which acts on the anomaly score.
 */
export const FIXED_RULE_IDS = {
  badRobots: '5de7edfa648c4d6891dc3e7f84534ffa',
  wordpressXss: 'e3a567afc347477d9702d9047e97d760',
  owaspAnomalyScore: '6179ae15870a4bb7b2d480d4843b323c',
} as const;

/** The default actions a managed rule may have (what runs when no override changes it). */
export const MANAGED_RULE_ACTIONS = [
  'block',
  'log',
  'managed_challenge',
  'js_challenge',
  'challenge',
] as const;

/** A managed rule as the API returns it: `action` is its default action, `categories` its tags. */
export interface ManagedRule {
  id: string;
  version: string;
  action: string;
  categories: string[];
  description: string;
  last_updated: string;
  ref: string;
  enabled: boolean;
}

export interface ManagedRuleset {
  id: string;
  name: string;
  description: string;
  kind: 'managed';
  phase: typeof MANAGED_PHASE_NAME;
  version: string;
  last_updated: string;
  rules: ManagedRule[];
}

/** When version 1 of every managed ruleset was published: fixed, so answers are the same in every run. */
export const FIRST_VERSION_DATE = '2026-01-05T00:00:00.000000Z';

function rule(id: string, action: string, categories: string[], description: string, enabled = true) {
  return {
    id,
    version: '1',
    action,
    categories,
    description,
    last_updated: FIRST_VERSION_DATE,
    ref: id,
    enabled,
  };
}

/** 32 lowercase hexadecimal digits from the generator: four 32-bit draws. */
function hexId(next: () => number, taken: Set<string>): string {
  for (;;) {
    let id = '';
    for (let i = 0; i < 4; i++)
      id += Math.floor(next() * 0x1_0000_0000)
        .toString(16)
        .padStart(8, '0');
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

const PRODUCTS = [
  ['WordPress', 'wordpress'],
  ['Joomla', 'joomla'],
  ['Drupal', 'drupal'],
  ['Magento', 'magento'],
  ['PHP', 'php'],
  ['Apache Struts', 'apache-struts'],
  ['Atlassian Confluence', 'atlassian'],
  ['Microsoft Exchange', 'microsoft-exchange'],
  ['Citrix', 'citrix'],
  ['Fortinet', 'fortinet'],
  ['Laravel', 'laravel'],
  ['vBulletin', 'vbulletin'],
  ['Oracle WebLogic', 'oracle'],
  ['Adobe ColdFusion', 'coldfusion'],
  ['Apache Log4j', 'log4j'],
  ['Spring', 'spring'],
  ['Generic', 'generic'],
] as const;

const ATTACKS = [
  ['SQLi', 'sqli'],
  ['XSS', 'xss'],
  ['RCE', 'rce'],
  ['LFI', 'lfi'],
  ['RFI', 'rfi'],
  ['SSRF', 'ssrf'],
  ['XXE', 'xxe'],
  ['Code Injection', 'code-injection'],
  ['Command Injection', 'command-injection'],
  ['Auth Bypass', 'broken-authentication'],
  ['Directory Traversal', 'directory-traversal'],
  ['File Upload', 'file-upload'],
] as const;

const WHERE = ['URI', 'Body', 'Header', 'Cookie', 'Query String', 'Argument'] as const;

/** How many rules the Cloudflare Managed Ruleset has in version 1 (the fixed ones included). */
export const CLOUDFLARE_RULE_COUNT = 400;

function cloudflareRules(): ManagedRule[] {
  const next = seededRandom(0x26_01);
  const taken = new Set<string>(Object.values(FIXED_RULE_IDS));
  const rules: ManagedRule[] = [
    rule(
      FIXED_RULE_IDS.badRobots,
      'block',
      ['bad-robots', 'user-agent'],
      'Bad Robots - Known Malicious User Agent',
    ),
    rule(
      FIXED_RULE_IDS.wordpressXss,
      'block',
      ['wordpress', 'xss'],
      'WordPress - XSS - Comment Author Field',
    ),
  ];
  while (rules.length < CLOUDFLARE_RULE_COUNT) {
    const [product, productTag] = pick(next, PRODUCTS);
    const [attack, attackTag] = pick(next, ATTACKS);
    const categories: string[] = [productTag, attackTag];
    let description: string;
    if (next() < 0.7) {
      const year = 2014 + Math.floor(next() * 12);
      const number = 1000 + Math.floor(next() * 49_000);
      description = `${product} - ${attack} - CVE-${year}-${number}`;
      categories.push(`cve-${year}-${number}`);
    } else {
      description = `${product} - ${attack} - ${pick(next, WHERE)}`;
    }
    const roll = next();
    const action = roll < 0.75 ? 'block' : roll < 0.9 ? 'log' : 'managed_challenge';
    rules.push(rule(hexId(next, taken), action, categories, description, next() < 0.88));
  }
  return rules;
}

/** The OWASP Core Rule Set's families: rule number range, title, category. */
const OWASP_FAMILIES = [
  [920, 'Protocol Enforcement', 'protocol-enforcement'],
  [921, 'HTTP Protocol Attack', 'protocol-attack'],
  [930, 'Local File Inclusion Attack', 'lfi'],
  [931, 'Remote File Inclusion Attack', 'rfi'],
  [932, 'Remote Command Execution', 'rce'],
  [933, 'PHP Injection Attack', 'php'],
  [941, 'XSS Attack Detected', 'xss'],
  [942, 'SQL Injection Attack Detected', 'sqli'],
  [943, 'Session Fixation Attack', 'session-fixation'],
  [944, 'Java Attack Detected', 'java'],
] as const;

/** Paranoia levels 1 to 4, in the proportions of the real rule set (most rules at level 1). */
function paranoiaLevel(roll: number): number {
  return roll < 0.45 ? 1 : roll < 0.7 ? 2 : roll < 0.9 ? 3 : 4;
}

function owaspRules(): ManagedRule[] {
  const next = seededRandom(0x26_02);
  const taken = new Set<string>(Object.values(FIXED_RULE_IDS));
  const rules: ManagedRule[] = [];
  for (const [family, title, tag] of OWASP_FAMILIES) {
    const count = 8 + Math.floor(next() * 10);
    for (let i = 0; i < count; i++) {
      const number = family * 1000 + 100 + i * 10;
      const level = paranoiaLevel(next());
      rules.push(
        rule(
          hexId(next, taken),
          'block',
          [`paranoia-level-${level}`, tag],
          `${number}: ${title} - ${pick(next, WHERE)}`,
        ),
      );
    }
  }
  // the last rule acts when the score reaches its threshold (score_threshold override)
  rules.push(
    rule(
      FIXED_RULE_IDS.owaspAnomalyScore,
      'block',
      ['anomaly-score'],
      '949110: Inbound Anomaly Score Exceeded',
    ),
  );
  return rules;
}

const CREDENTIAL_PRODUCTS = [
  ['WordPress', 'wordpress'],
  ['Joomla', 'joomla'],
  ['Drupal', 'drupal'],
  ['Ghost', 'ghost'],
  ['Plone', 'plone'],
  ['Magento', 'magento'],
  ['Microsoft Exchange OWA', 'microsoft-exchange'],
  ['Generic', 'generic'],
] as const;

function exposedCredentialRules(): ManagedRule[] {
  const next = seededRandom(0x26_03);
  const taken = new Set<string>(Object.values(FIXED_RULE_IDS));
  return CREDENTIAL_PRODUCTS.map(([product, tag]) =>
    rule(
      hexId(next, taken),
      'log',
      [tag, 'exposed-credentials'],
      `${product} - Check for exposed credentials`,
    ),
  );
}

function ruleset(id: string, name: string, description: string, rules: ManagedRule[]): ManagedRuleset {
  return {
    id,
    name,
    description,
    kind: 'managed',
    phase: MANAGED_PHASE_NAME,
    version: '1',
    last_updated: FIRST_VERSION_DATE,
    rules,
  };
}

let firstVersions: readonly ManagedRuleset[] | undefined;

/** Version 1 of each managed ruleset, built once per process (callers copy before changing). */
export function firstManagedVersions(): readonly ManagedRuleset[] {
  return (firstVersions ??= [
    ruleset(
      MANAGED_RULESET_IDS.cloudflare,
      'Cloudflare Managed Ruleset',
      'Created by the Cloudflare security team, this ruleset is designed to provide fast and effective protection for all your applications.',
      cloudflareRules(),
    ),
    ruleset(
      MANAGED_RULESET_IDS.owasp,
      'Cloudflare OWASP Core Ruleset',
      "Cloudflare's implementation of the Open Web Application Security Project (OWASP) ModSecurity Core Rule Set.",
      owaspRules(),
    ),
    ruleset(
      MANAGED_RULESET_IDS.exposedCredentials,
      'Cloudflare Exposed Credentials Check Ruleset',
      'Checks login requests against a database of credentials known to have leaked.',
      exposedCredentialRules(),
    ),
  ]);
}

export function isManagedRulesetId(id: string): boolean {
  return (Object.values(MANAGED_RULESET_IDS) as string[]).includes(id);
}
