// Injectable clock so that time-dependent helpers (debounce) are testable.
let frozen = null;

/** Current time in ms, or the frozen value when set. */
export const now = () => (frozen === null ? Date.now() : frozen);

/** Freezes `now()` at `ms` (tests, reproducible runs). */
export function freezeAt(ms) {
  frozen = ms;
}
