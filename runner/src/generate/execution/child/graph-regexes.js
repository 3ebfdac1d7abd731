'use strict';
// The regular expressions a module's graph holds: those the loaded modules export, at module
// level or in exported tables (`re[t.FULL]`, built at load from strings, so no literal names
// them). A function that takes a version, a range or a date often checks it against a regex
// that another module of the package builds; strings sampled from these reach past such checks
// (search/input-pool.js).

const MAX_REGEXES = 80;
const MAX_DEPTH = 2;
const MAX_ENTRIES = 400;

// registry: Map of file -> module, in load order; isInstalled(file): a dependency's file.
// Returns [{ pattern, flags }], the submitted files' first, each once.
function graphRegexes(registry, isInstalled) {
  const found = new Map();
  const visited = new Set();
  const visit = (value, depth) => {
    if (found.size >= MAX_REGEXES || value === null) return;
    if (value instanceof RegExp) {
      const key = `/${value.source}/${value.flags}`;
      if (!found.has(key)) found.set(key, { pattern: value.source, flags: value.flags });
      return;
    }
    if ((typeof value !== 'object' && typeof value !== 'function') || depth > MAX_DEPTH || visited.has(value)) return;
    visited.add(value);
    let names;
    try {
      names = Object.keys(value).slice(0, MAX_ENTRIES);
    } catch {
      return;
    }
    for (const name of names) {
      const descriptor = Object.getOwnPropertyDescriptor(value, name);
      // Getters run code; only stored values are read.
      if (descriptor && 'value' in descriptor) visit(descriptor.value, depth + 1);
    }
  };
  const modules = [...registry];
  const ordered = [...modules.filter(([file]) => !isInstalled(file)), ...modules.filter(([file]) => isInstalled(file))];
  for (const [, module] of ordered) visit(module.exports, 0);
  return [...found.values()];
}

module.exports = { graphRegexes };
