/** Zones and accounts as the real API returns them. */
import { PROVIDER_IPV4_CIDRS, PROVIDER_IPV6_CIDRS } from '../../../rules/dns/index.js';
import type { AccountRow, Plan, ZoneRow } from '../../store/core.js';
import { stableId } from '../../store/ids.js';

const PLAN_NAMES: Record<Plan, string> = {
  free: 'Free Website',
  pro: 'Pro Website',
  business: 'Business Website',
  enterprise: 'Enterprise Website',
};

export function planJson(plan: Plan): Record<string, unknown> {
  return {
    id: plan === 'free' ? '0feeeeeeeeeeeeeeeeeeeeeeeeeeeeee' : stableId('plan', plan),
    name: PLAN_NAMES[plan],
    price: 0,
    currency: 'USD',
    frequency: plan === 'free' ? '' : 'monthly',
    is_subscribed: true,
    can_subscribe: false,
    legacy_id: plan,
    legacy_discount: false,
    externally_managed: false,
  };
}

export function zoneJson(zone: ZoneRow, accountName: string): Record<string, unknown> {
  return {
    id: zone.id,
    name: zone.name,
    status: zone.status,
    paused: zone.paused === 1,
    type: zone.type,
    development_mode: 0,
    name_servers: JSON.parse(zone.name_servers) as string[],
    // only once set: zones without vanity name servers answer as they always have
    ...(zone.vanity_name_servers
      ? { vanity_name_servers: JSON.parse(zone.vanity_name_servers) as string[] }
      : {}),
    original_name_servers: null,
    original_registrar: null,
    original_dnshost: null,
    modified_on: zone.modified_on,
    created_on: zone.created_on,
    activated_on: zone.status === 'active' ? zone.created_on : null,
    meta: { step: 2, custom_certificate_quota: 0, page_rule_quota: 3, phishing_detected: false },
    // the published zone schema's owner: an id string (here the owning account), its type and name
    owner: { id: zone.account_id, type: 'organization', name: accountName },
    account: { id: zone.account_id, name: accountName },
    tenant: { id: null, name: null },
    tenant_unit: { id: null },
    permissions: ['#zone:read', '#zone:edit', '#dns_records:read', '#dns_records:edit'],
    plan: planJson(zone.plan),
  };
}

export function accountJson(a: AccountRow): Record<string, unknown> {
  return {
    id: a.id,
    name: a.name,
    type: 'standard',
    settings: {
      enforce_twofactor: false,
      api_access_enabled: null,
      access_approval_expiry: null,
      abuse_contact_email: null,
    },
    legacy_flags: { enterprise_zone_quota: { maximum: 0, current: 0, available: 0 } },
    created_on: a.created_on,
  };
}

export function ipsJson(): Record<string, unknown> {
  const etag = stableId('ips', [...PROVIDER_IPV4_CIDRS, ...PROVIDER_IPV6_CIDRS].join(','));
  return { ipv4_cidrs: [...PROVIDER_IPV4_CIDRS], ipv6_cidrs: [...PROVIDER_IPV6_CIDRS], etag };
}
