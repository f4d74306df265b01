/**
 * The planner's fast path for IPv6 content (an address already in RFC 5952 form is returned as it
 * is, without parsing) must agree with the shared rules' parser on every address.
 */
import { expect, it } from 'vitest';
import { canonicalIpv6 } from '../../../src/kinds/dns/normalize.js';
import { canonicalIpv6 as parsed } from '../../../src/rules/dns/ip.js';

it('the fast path agrees with the rules parser', () => {
  const addresses = [
    '::',
    '::1',
    '1::',
    'a::b',
    '1:2:3:4:5:6::7',
    '1:2:3:4:5::6',
    '2001:db8::1:5',
    '1::2:3:4:5:6',
    '1::2:3:4:5:6:7',
    'fe80::',
    '::ffff:1:2',
    '2001:DB8:0:0:0:0:0:1',
  ];
  for (const a of addresses) expect(canonicalIpv6(a), a).toBe(parsed(a.toLowerCase()) ?? a);
});
