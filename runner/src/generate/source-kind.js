'use strict';
// Decides whether a submitted file is JavaScript that generation should analyse.

const JAVASCRIPT_EXTENSIONS = ['.js', '.cjs', '.mjs'];

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

// Returns null for JavaScript, or the reason it is not.
function notJavaScriptReason(path, content) {
  const extension = extensionOf(path);
  if (!JAVASCRIPT_EXTENSIONS.includes(extension)) {
    return `${extension || 'a file without extension'} is not a JavaScript file (expected ${JAVASCRIPT_EXTENSIONS.join(', ')})`;
  }
  if (looksBinary(content)) return 'the content is binary, not JavaScript source';
  return null;
}

module.exports = { notJavaScriptReason };
