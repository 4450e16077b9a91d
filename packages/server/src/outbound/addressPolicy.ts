import { BlockList, isIP } from "node:net";

/** Address ranges that never leave the server's own network unless an admin allows them. */
const IPV4_RULES: [string, number, string][] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "carrier-grade NAT"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"],
  ["198.51.100.0", 24, "reserved"],
  ["203.0.113.0", 24, "reserved"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

const IPV6_RULES: [string, number, string][] = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["::", 96, "reserved"],
  ["100::", 64, "reserved"],
  ["2001:db8::", 32, "reserved"],
  ["fc00::", 7, "unique-local"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "site-local"],
  ["ff00::", 8, "multicast"],
];

const rules = [
  ...IPV4_RULES.map(([net, prefix, label]) => ({ list: subnet(net, prefix, "ipv4"), label })),
  ...IPV6_RULES.map(([net, prefix, label]) => ({ list: subnet(net, prefix, "ipv6"), label })),
];

function subnet(network: string, prefix: number, family: "ipv4" | "ipv6"): BlockList {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return list;
}

/** Parses an admin's allowed ranges ("10.0.0.0/8", "127.0.0.1", "fd00::/8"). */
export function parseAllowedRanges(ranges: string[]): BlockList {
  const list = new BlockList();
  for (const raw of ranges) {
    const [address, prefixText] = raw.trim().split("/");
    const version = isIP(address);
    if (version === 0) throw new Error(`Invalid address range: ${raw}`);
    const family = version === 4 ? "ipv4" : "ipv6";
    const max = version === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) {
      throw new Error(`Invalid address range: ${raw}`);
    }
    list.addSubnet(address, prefix, family);
  }
  return list;
}

/** Expands an IPv6 address to its 8 groups. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const embedded = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (embedded) {
    const [a, b, c, d] = embedded[1].split(".").map(Number);
    text =
      text.slice(0, -embedded[1].length) +
      `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const headParts = head ? head.split(":") : [];
  const tailParts = tail !== undefined && tail !== "" ? tail.split(":") : [];
  const missing = 8 - headParts.length - tailParts.length;
  const parts =
    tail === undefined ? headParts : [...headParts, ...Array(missing).fill("0"), ...tailParts];
  return parts.map((part) => parseInt(part, 16));
}

/** The IPv4 address carried inside an IPv6 one (mapped, NAT64, 6to4), if any. */
function embeddedIPv4(address: string): string | null {
  const g = ipv6Groups(address);
  const fromGroups = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return fromGroups(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return fromGroups(g[6], g[7]);
  if (g[0] === 0x2002) return fromGroups(g[1], g[2]);
  return null;
}

/**
 * Why connecting to `address` is refused, or null when it is allowed.
 * `allowed` holds the ranges an admin opened explicitly.
 */
export function refusalReason(address: string, allowed: BlockList | null): string | null {
  const version = isIP(address);
  if (version === 0) return `Refusing to connect to ${address}: not an IP address`;
  const family = version === 4 ? "ipv4" : "ipv6";
  if (allowed?.check(address, family)) return null;
  if (version === 6) {
    const inner = embeddedIPv4(address);
    if (inner) {
      if (allowed?.check(inner, "ipv4")) return null;
      const innerReason = refusalReason(inner, allowed);
      if (innerReason) return `Refusing to connect to ${address}: ${innerReason.split(": ")[1]}`;
    }
  }
  const rule = rules.find((r) => r.list.check(address, family));
  if (!rule) return null;
  return `Refusing to connect to ${address}: ${rule.label} addresses are not allowed`;
}
