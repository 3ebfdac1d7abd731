'use strict';
// Decides what a submitted file is to generation:
//   'javascript' - a source file to analyse and write tests for (.js, .cjs, .mjs, and TypeScript:
//                  .ts, .tsx, .mts, .cts, whose types are removed by the shared transform);
//   'support'    - a file the code under test may read or require (JSON, package.json, .d.ts,
//                  text, data): written beside the sources, never a test target, never a problem;
//   'foreign'    - source in another language (JSX, CoffeeScript...) or binary content where
//                  JavaScript was expected: reported as `not_javascript`.

const { isTypeScript } = require('../../transform');

const JAVASCRIPT_EXTENSIONS = ['.js', '.cjs', '.mjs'];
// Sources generation cannot analyse.
const FOREIGN_SOURCE_EXTENSIONS = ['.jsx', '.coffee', '.vue', '.svelte'];

function extensionOf(path) {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

// Binary content reaches us as JSON text: NUL characters or many U+FFFD replacement characters
// (what invalid UTF-8 decodes to) mean the file is not source code.
function looksBinary(content) {
  if (content.includes('\u0000')) return true;
  const replacements = content.split('\ufffd').length - 1;
  return replacements > 0 && replacements >= content.length / 100;
}

// Returns { kind: 'javascript' | 'support' } or { kind: 'foreign', reason }.
function classifySource(path, content) {
  const extension = extensionOf(path);
  if (JAVASCRIPT_EXTENSIONS.includes(extension) || isTypeScript(path)) {
    return looksBinary(content)
      ? { kind: 'foreign', reason: 'the content is binary, not JavaScript source' }
      : { kind: 'javascript' };
  }
  if (FOREIGN_SOURCE_EXTENSIONS.includes(extension)) {
    return {
      kind: 'foreign',
      reason: `${extension} is not a JavaScript or TypeScript file (expected ${JAVASCRIPT_EXTENSIONS.join(', ')}, .ts, .tsx, .mts or .cts); JSX and other languages are not supported`,
    };
  }
  return { kind: 'support' };
}

module.exports = { classifySource };
