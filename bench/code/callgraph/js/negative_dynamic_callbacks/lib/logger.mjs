const LEVELS = new Set(['log', 'info', 'warn', 'error']);

/**
 * Writes to the console method matching `level`, falling back to console.log.
 * The method is picked dynamically: console[method](...).
 *
 * @param {string} level one of log/info/warn/error (anything else logs)
 * @param {...unknown} args values to print
 */
export function log(level, ...args) {
  const method = LEVELS.has(level) ? level : 'log';
  console[method](`[${level}]`, ...args);
}
