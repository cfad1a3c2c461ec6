'use strict';

function toCamel(flag) {
  return flag.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
}

function parseFlags(argv) {
  const flags = {};
  const positional = [];
  for (const arg of argv) {
    if (arg.startsWith('--')) {
      const [name, value] = arg.slice(2).split('=');
      flags[toCamel(name)] = value === undefined ? true : value;
    } else {
      positional.push(arg);
    }
  }
  return { flags, positional };
}

function usage(name, commands) {
  const lines = Object.keys(commands).map((c) => `  ${c}`);
  return [`usage: ${name} <command> [--flags]`, ...lines].join('\n');
}

module.exports = { parseFlags, usage, toCamel };
