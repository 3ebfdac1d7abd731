'use strict';
// Writes the Jest test file of a program: each test runs it with `spawnSync` as a user would, in
// an empty temporary folder, and asserts its exit code, stdout and stderr as observed. The program
// is found relative to the test file, so the suite runs wherever the package is.

const { quoteString } = require('../writing/js-source');

function relativeFrom(fromDir, toPath) {
  const from = fromDir ? fromDir.split('/') : [];
  const to = toPath ? toPath.split('/') : [];
  let common = 0;
  while (common < from.length && common < to.length && from[common] === to[common]) common++;
  return [...from.slice(common).map(() => '..'), ...to.slice(common)];
}

function dirOf(path) {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

function describeArgs(scenario) {
  const args = scenario.args.length ? scenario.args.join(' ') : 'no arguments';
  return scenario.stdin ? `${args}, ${JSON.stringify(scenario.stdin.trim())} on stdin` : args;
}

function streamWords(text) {
  if (text === '') return 'nothing';
  const first = text.split('\n').find((line) => line.trim()) || '';
  const short = first.trim().slice(0, 40);
  return `${JSON.stringify(short)}${first.trim().length > 40 || text.trim().includes('\n') ? '…' : ''}`;
}

// One case: { describe, name, scenario, outcome, here }; `here`: run in the test's own process
// (runHere below), not spawned.
function programCase(program, scenario, outcome, here = false) {
  const stream = outcome.stdout
    ? `prints ${streamWords(outcome.stdout)}`
    : outcome.stderr
      ? `writes ${streamWords(outcome.stderr)} to stderr`
      : 'prints nothing';
  return {
    describe: `${program.name} (${program.path})`,
    name: `${describeArgs(scenario)}${here ? ', in this process' : ''}: ${stream}, exit code ${outcome.status}`,
    scenario,
    outcome,
    ...(here ? { here: true } : {}),
  };
}

// Whether a program's command lines can also run in the test's own process: a spawned program's
// code runs where Jest's coverage cannot see it, so a package whose program is a third of its
// code (uuid's `uuid-bin.js`, nanoid's `bin/nanoid.cjs`) measured a third less than its tests
// reach. Not a program that reads stdin (in the test's process it would wait on Jest's), nor an
// ES module (required, it would need Jest's ESM mode), and only command lines with no input. One
// that works after its top level returns (`Promise.all(dirs.map(mkdirp)).then(...)`, a callback
// of `fs`) is waited for until it has nothing left pending (runHere below).
function runsHere(program, source, scenario) {
  return !/\.mjs$/.test(program.path) && !/\bstdin\b/.test(source) && !scenario.stdin;
}

// The program's code run in the test's process: `require`d in a module registry of its own with
// its command line in process.argv, in an empty folder of its own as the spawned run (what it
// writes there is removed, never the package's), what it writes to stdout and stderr (directly
// or through the console) captured, and process.exit ending it with its code: thrown while its
// top level runs, as the end of what it does after that (a callback that exits is the last thing
// it does). What it does after its top level returns (file-system requests, timers) is waited for
// until none of its own is left for a few turns of the event loop, or it exits, for up to 3 s.
const RUN_HERE = [
  '// Runs the program in this process instead, as `node PROGRAM ...args` would run it (its own',
  '// modules, its command line, an empty folder, what it prints and its exit code), so that',
  '// coverage counts its code.',
  'class ProgramExit extends Error {}',
  '// How many of each kind of handle and request (`FSReqCallback`, `Timeout`) are active.',
  'function activeResources() {',
  '  const counts = new Map();',
  '  for (const name of process.getActiveResourcesInfo?.() ?? []) counts.set(name, (counts.get(name) ?? 0) + 1);',
  '  return counts;',
  '}',
  'async function runHere(args) {',
  "  const output = { stdout: '', stderr: '' };",
  '  const write = (stream) => (chunk) => {',
  '    output[stream] += String(chunk);',
  '    return true;',
  '  };',
  '  const print = (stream) => (...items) => {',
  '    output[stream] += `${util.format(...items)}\\n`;',
  '  };',
  '  let loaded = false;',
  '  let exitedWith;',
  '  const spies = [',
  "    jest.spyOn(process.stdout, 'write').mockImplementation(write('stdout')),",
  "    jest.spyOn(process.stderr, 'write').mockImplementation(write('stderr')),",
  "    jest.spyOn(console, 'log').mockImplementation(print('stdout')),",
  "    jest.spyOn(console, 'info').mockImplementation(print('stdout')),",
  "    jest.spyOn(console, 'error').mockImplementation(print('stderr')),",
  "    jest.spyOn(console, 'warn').mockImplementation(print('stderr')),",
  "    jest.spyOn(process, 'exit').mockImplementation((code) => {",
  '      if (loaded) exitedWith = Number(code ?? process.exitCode ?? 0);',
  "      else throw new ProgramExit(code === undefined ? '' : String(code));",
  '    }),',
  '  ];',
  '  const { argv, exitCode } = process;',
  '  const home = process.cwd();',
  "  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'program-'));",
  '  process.chdir(cwd);',
  '  process.argv = [process.execPath, PROGRAM, ...args];',
  '  process.exitCode = undefined;',
  '  const before = activeResources();',
  '  let status;',
  '  try {',
  '    try {',
  '      jest.isolateModules(() => require(PROGRAM));',
  '    } catch (error) {',
  '      if (!(error instanceof ProgramExit)) throw error;',
  '      status = Number(error.message || process.exitCode || 0);',
  '    }',
  '    loaded = true;',
  '    const until = Date.now() + 3000;',
  '    for (let idle = 0; status === undefined && exitedWith === undefined && idle < 3 && Date.now() < until; ) {',
  '      await new Promise((resolve) => setTimeout(resolve, 1));',
  '      const busy = [...activeResources()].some(([name, count]) => count > (before.get(name) ?? 0));',
  '      idle = busy ? 0 : idle + 1;',
  '    }',
  '    if (status === undefined) status = exitedWith ?? Number(process.exitCode || 0);',
  '  } finally {',
  '    process.argv = argv;',
  '    process.exitCode = exitCode;',
  '    spies.forEach((spy) => spy.mockRestore());',
  '    process.chdir(home);',
  '    fs.rmSync(cwd, { recursive: true, force: true });',
  '  }',
  '  return { status, ...output };',
  '}',
];

function testPathFor(program, extension) {
  const dir = dirOf(program.path);
  const file = program.path.slice(program.path.lastIndexOf('/') + 1).replace(/\.[cm]?[jt]s$/, '');
  return `${dir ? `${dir}/` : ''}__tests__/${file}.program${extension}`;
}

// spec: { program: { name, path }, testPath }.
function writeProgramTest(spec, cases) {
  const testDir = dirOf(spec.testPath);
  const segments = (target) => relativeFrom(testDir, target).map(quoteString).join(', ');
  const tests = cases.map((testCase) =>
    [
      `  test(${quoteString(testCase.name)}, ${testCase.here ? 'async ' : ''}() => {`,
      testCase.here
        ? `    const result = await runHere([${testCase.scenario.args.map(quoteString).join(', ')}]);`
        : `    const result = run([${testCase.scenario.args.map(quoteString).join(', ')}], ${quoteString(testCase.scenario.stdin)});`,
      `    expect(result.status).toBe(${testCase.outcome.status});`,
      `    expect(result.stdout).toBe(${quoteString(testCase.outcome.stdout)});`,
      `    expect(result.stderr).toBe(${quoteString(testCase.outcome.stderr)});`,
      '  });',
    ].join('\n'),
  );
  return [
    `// Tests generated by Vouch for the program ${spec.program.path} (package.json "bin": ${quoteString(spec.program.name)}).`,
    '// Each test runs it as its users do and expects what it printed and its exit code when Vouch ran it.',
    "const { spawnSync } = require('node:child_process');",
    "const fs = require('node:fs');",
    "const os = require('node:os');",
    "const path = require('node:path');",
    ...(cases.some((testCase) => testCase.here) ? ["const util = require('node:util');"] : []),
    '',
    `const PROGRAM = path.join(__dirname, ${segments(spec.program.path)});`,
    '',
    '// Runs the program in an empty folder of its own, removed afterwards.',
    'function run(args, input) {',
    "  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'program-'));",
    '  try {',
    "    return spawnSync(process.execPath, [PROGRAM, ...args], { cwd, input, encoding: 'utf8', timeout: 10000 });",
    '  } finally {',
    '    fs.rmSync(cwd, { recursive: true, force: true });',
    '  }',
    '}',
    '',
    ...(cases.some((testCase) => testCase.here) ? [...RUN_HERE, ''] : []),
    `describe(${quoteString(cases[0].describe)}, () => {`,
    tests.join('\n\n'),
    '});',
    '',
  ].join('\n');
}

module.exports = { programCase, runsHere, testPathFor, writeProgramTest };
