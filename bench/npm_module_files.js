'use strict';
// The files a benchmark submits for an installed npm package: its main
// module (or the module at `modulePath` in the package) and every file that
// requires by relative path (JSON included), named "<package>/<path in the
// package>".
const fs = require('fs');
const path = require('path');

function moduleFiles(packagesDir, name, modulePath) {
  const root = path.join(packagesDir, name);
  const main = require.resolve(modulePath ? path.join(root, modulePath) : root);
  const files = new Map();
  const visit = (file) => {
    if (files.has(file)) return;
    const content = fs.readFileSync(file, 'utf8');
    files.set(file, content);
    if (!file.endsWith('.js') && !file.endsWith('.cjs')) return;
    for (const [, request] of content.matchAll(/require\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) {
      try { visit(require.resolve(path.resolve(path.dirname(file), request))); } catch { /* optional require */ }
    }
  };
  visit(main);
  return [...files].map(([file, content]) => ({ path: `${name}/${path.relative(root, file)}`, content }));
}

module.exports = { moduleFiles };
