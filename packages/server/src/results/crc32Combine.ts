/**
 * CRC-32 of two texts one after the other, from each one's CRC-32 and the second's length
 * (zlib's crc32_combine, by multiplication modulo the CRC polynomial): a gzip answer built from
 * stored chunks (gzipJson.ts) gets its trailer without reading the texts again.
 */
const POLY = 0xedb88320;
const TOP = 0x80000000;

/** a × b modulo the polynomial (bit-reflected, as CRC-32 stores it). */
function multiplyModP(a: number, b: number): number {
  let m = TOP;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo the polynomial, k = 0…31. */
const X2N: number[] = (() => {
  const table: number[] = [];
  let p = TOP >>> 1; // x^1
  table.push(p);
  for (let k = 1; k < 32; k += 1) {
    p = multiplyModP(p, p);
    table.push(p);
  }
  return table;
})();

/** x^(n × 2^k) modulo the polynomial. */
function xPowerModP(n: number, k: number): number {
  let p = TOP; // x^0
  while (n > 0) {
    if (n % 2 === 1) p = multiplyModP(X2N[k & 31]!, p);
    n = Math.floor(n / 2);
    k += 1;
  }
  return p;
}

/** The CRC-32 of A then B, from crc(A), crc(B) and B's length in bytes. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multiplyModP(xPowerModP(lengthB, 3), crcA) ^ crcB) >>> 0;
}
