/**
 * A short, stable fingerprint of a string: cyrb53 (two 32-bit multiply-xor lanes) over its
 * UTF-16 code units, as base-36. The same name gives the same suffix in every run and on every
 * platform, which is what keeps a model's tool names stable; it is not a security measure.
 */
export function shortHash(text: string, length = 7): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2_654_435_761);
    h2 = Math.imul(h2 ^ code, 1_597_334_677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2_246_822_507) ^ Math.imul(h2 ^ (h2 >>> 13), 3_266_489_909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2_246_822_507) ^ Math.imul(h1 ^ (h1 >>> 13), 3_266_489_909);
  const value = 4_294_967_296 * (2_097_151 & h2) + (h1 >>> 0);
  return value.toString(36).padStart(11, "0").slice(-length);
}
