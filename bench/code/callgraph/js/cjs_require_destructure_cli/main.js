#!/usr/bin/env node
'use strict';

const { parseFlags, usage: printUsage } = require('./lib/args');
const { bold } = require('./lib/colors');
const commands = require('./lib/commands');

function run(argv) {
  const [command, ...rest] = argv;
  const args = parseFlags(rest);
  switch (command) {
    case 'greet':
      return `${bold(command)}: ${commands.greet(args)}`;
    case 'fail':
      return `${bold(command)}: ${commands.fail(args)}`;
    default:
      return printUsage('bench-cli', commands);
  }
}

console.log(run(['greet', 'ada', '--loud-voice']));
console.log(run(['fail']));
console.log(run(['help']));
