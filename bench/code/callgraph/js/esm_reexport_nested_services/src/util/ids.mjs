/**
 * Small, stable, non-cryptographic id derived from the input (31-multiplier string hash,
 * printed in base 36). Good enough for fixtures and log correlation.
 *
 * @param {unknown} input
 * @returns {string}
 */
export function hashId(input) {
  let h = 0;
  for (const ch of String(input)) {
    h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  }
  return h.toString(36);
}
