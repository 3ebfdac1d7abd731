'use strict';

// Turns Jest's aggregated results into the result shape of run.js.

const path = require('node:path');
const { stripVTControlCharacters } = require('node:util');

const COVERAGE_KEYS = ['statements', 'branches', 'functions', 'lines'];
const MAX_MESSAGE_LINES = 20;
const MAX_MESSAGE_CHARS = 2000;

// Jest's statuses "pending", "skipped", "todo" and "disabled" all mean the
// test did not run.
const STATUS = { passed: 'passed', failed: 'failed' };

function summarize(aggregated, root) {
  return {
    total: aggregated.numTotalTests,
    passed: aggregated.numPassedTests,
    failed: aggregated.numFailedTests,
    coverage: coverageTotals(aggregated.coverageMap),
    files: coverageByFile(aggregated.coverageMap, root),
    tests: aggregated.testResults.flatMap((suite) =>
      suite.testResults.map((test) => ({
        name: [...test.ancestorTitles, test.title].join(' › '),
        file: relativePath(root, suite.testFilePath),
        status: STATUS[test.status] ?? 'skipped',
        ...(test.status === 'failed' && { message: firstLines(test.failureMessages.join('\n')) }),
        // For JUnit reports: the describe blocks and the test's own title, its time, the stack.
        suite: test.ancestorTitles.join(' › '),
        title: test.title,
        durationMs: Math.max(0, Math.round(test.duration ?? 0)),
        ...(test.status === 'failed' && { stack: stackLines(test.failureMessages.join('\n'), root) }),
      })),
    ),
  };
}

// Suites that could not run at all: a syntax error, a throwing import, a
// missing module. The error's own message (with a code frame) says more than
// Jest's formatted failure, which buries it under generic advice.
function suiteLoadErrors(aggregated, root) {
  return aggregated.testResults
    .filter((suite) => suite.testExecError)
    .map((suite) => `${relativePath(root, suite.testFilePath)}: ${firstLines(suite.testExecError.message)}`);
}

// Istanbul's percentages. Where there is nothing to cover (no statements,
// or no source file loaded at all) istanbul says "Unknown"; that counts as 100.
function coverageTotals(coverageMap) {
  return percentages(coverageMap ? coverageMap.getCoverageSummary() : null);
}

// Istanbul's percentages for each source file, by its path in the work folder.
function coverageByFile(coverageMap, root) {
  if (!coverageMap) return [];
  return coverageMap.files().map((file) => ({
    path: relativePath(root, file),
    coverage: percentages(coverageMap.fileCoverageFor(file).toSummary()),
  }));
}

// { statements, branches, functions, lines } in percent of an istanbul coverage summary.
function percentages(summary) {
  return Object.fromEntries(
    COVERAGE_KEYS.map((key) => {
      const totals = summary?.[key];
      return [key, totals && totals.total > 0 ? totals.pct : 100];
    }),
  );
}

// The failure's message without its stack trace, trimmed to a readable size.
function firstLines(message) {
  const lines = stripVTControlCharacters(message).split('\n');
  const stackStart = lines.findIndex((line) => /^\s+at /.test(line));
  const kept = lines.slice(0, stackStart === -1 ? lines.length : stackStart).slice(0, MAX_MESSAGE_LINES);
  return kept.join('\n').trim().slice(0, MAX_MESSAGE_CHARS);
}

// The failure's stack trace (its "at …" lines) within the run's own files, with paths relative
// to the run folder: frames of Jest, of node_modules and of Node.js itself say nothing about the
// tested code, and absolute paths would tell where the sandbox keeps its folders. Trimmed like the
// message.
function stackLines(message, root) {
  const prefix = `${root}${path.sep}`;
  return stripVTControlCharacters(message)
    .split('\n')
    .filter(
      (line) => /^\s+at /.test(line) && line.includes(prefix) && !line.includes(`${path.sep}node_modules${path.sep}`),
    )
    .slice(0, MAX_MESSAGE_LINES)
    .map((line) => line.trim().split(prefix).join(''))
    .join('\n')
    .slice(0, MAX_MESSAGE_CHARS);
}

function relativePath(root, file) {
  return path.relative(root, file).split(path.sep).join('/');
}

module.exports = { summarize, suiteLoadErrors, percentages };
