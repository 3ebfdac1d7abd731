'use strict';
// Parses a JavaScript file with acorn. A file is tried as an ES module first and then as a
// classic script, because CommonJS code may use sloppy-mode syntax (`with`, legacy octals) that
// modules reject.

const acorn = require('acorn');

const BASE_OPTIONS = { ecmaVersion: 'latest', locations: true, allowHashBang: true };

class SourceSyntaxError extends Error {
  constructor(message, line, column) {
    super(message);
    this.line = line;
    this.column = column;
  }
}

// Returns { ast, comments, sourceType, esm } or throws SourceSyntaxError (column is 1-based).
function parseSource(source) {
  const attempts = [];
  for (const sourceType of ['module', 'script']) {
    const comments = [];
    try {
      const ast = acorn.parse(source, { ...BASE_OPTIONS, sourceType, onComment: comments });
      return { ast, comments, sourceType, esm: sourceType === 'module' && usesModuleSyntax(ast) };
    } catch (error) {
      if (!(error instanceof SyntaxError) || !error.loc) throw error;
      attempts.push(error);
    }
  }
  // Both failed: the error found further into the file is the one that explains the problem.
  const error = attempts.reduce((a, b) => (b.pos > a.pos ? b : a));
  const message = error.message.replace(/\s*\(\d+:\d+\)$/, '');
  throw new SourceSyntaxError(message, error.loc.line, error.loc.column + 1);
}

function usesModuleSyntax(ast) {
  return ast.body.some((node) => node.type.startsWith('Import') || node.type.startsWith('Export'));
}

module.exports = { parseSource, SourceSyntaxError };
