import ipaddr from 'ipaddr.js';

/**
 * Addresses the gateway never calls for a tenant: loopback, private, link-local (cloud metadata),
 * CGNAT, unspecified, multicast, broadcast and reserved ranges, IPv4 and IPv6, including IPv4 inside
 * IPv6. Only ordinary public unicast passes.
 */
export function isForbiddenAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else if (['rfc6052', '6to4', 'teredo', 'rfc6145'].includes(v6.range())) return true; // IPv4 smuggled inside
  }
  return parsed.range() !== 'unicast';
}
