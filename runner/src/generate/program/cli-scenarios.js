'use strict';
// The command lines a program (a package's `bin` entry) is tried with: no arguments, the usual
// `--help` and `--version`, a line on stdin, and the options its source spells out (string
// literals like '--force' or '-n'), alone and with a word after them.

const MAX_MINED_OPTIONS = 6;
const OPTION = /^--?[A-Za-z][\w-]*$/;

function minedOptions(source) {
  const options = new Set();
  for (const match of source.matchAll(/(['"`])(--?[A-Za-z][\w-]*)\1/g)) {
    if (OPTION.test(match[2]) && !['--help', '--version'].includes(match[2])) options.add(match[2]);
    if (options.size >= MAX_MINED_OPTIONS) break;
  }
  return [...options];
}

// [{ args: [...], stdin }]
function cliScenarios(source) {
  const scenarios = [
    { args: [], stdin: '' },
    { args: ['--help'], stdin: '' },
    { args: ['--version'], stdin: '' },
    { args: [], stdin: 'hello world\n' },
    { args: ['hello'], stdin: '' },
  ];
  for (const option of minedOptions(source)) {
    scenarios.push({ args: [option], stdin: '' }, { args: [option, 'hello'], stdin: '' });
  }
  return scenarios;
}

module.exports = { cliScenarios };
