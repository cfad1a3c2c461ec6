import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { log } from './lib/logger.mjs';
import { invoke, mapValues, runLater } from './lib/invoke.mjs';
import * as strings from './lib/strings.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));

async function loadOptional(name) {
  try {
    return (await import(name)).default;
  } catch {
    return null;
  }
}

async function run() {
  const chalk = await loadOptional('chalk');
  const max = invoke(Math, 'max', 3, 9, 4);
  const shout = invoke('bench', 'toUpperCase');
  const doubled = mapValues({ a: 1, b: 2 }, (v) => v * 2);
  const later = await runLater(() => max + 1, 5);
  const source = await readFile(join(here, 'main.mjs'), 'utf8');
  const label = chalk ? chalk.green('ok') : strings.green('ok');
  log('info', label, { max, shout, doubled, later, lines: source.split('\n').length });
  log('verbose', 'unknown levels fall back to console.log');
}

run().catch((err) => log('error', err));
