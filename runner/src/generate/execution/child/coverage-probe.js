'use strict';
// Reads istanbul's global counters to learn what one scenario executed. Counters are zeroed before
// each scenario; afterwards every non-zero counter is reported as a key: `<file>:s<id>`,
// `<file>:f<id>` or `<file>:b<id>.<path>`, with files numbered as the parent listed them.

class CoverageProbe {
  constructor(coveragePaths) {
    this.paths = coveragePaths;
  }

  files() {
    const all = globalThis.__coverage__ || {};
    return this.paths
      .map((path) => all[path])
      .map((data, index) => ({ data, index }))
      .filter(({ data }) => data);
  }

  reset() {
    for (const { data } of this.files()) {
      for (const id of Object.keys(data.s)) data.s[id] = 0;
      for (const id of Object.keys(data.f)) data.f[id] = 0;
      for (const id of Object.keys(data.b)) data.b[id].fill(0);
    }
  }

  hits() {
    const keys = [];
    for (const { data, index } of this.files()) {
      for (const [id, count] of Object.entries(data.s)) if (count) keys.push(`${index}:s${id}`);
      for (const [id, count] of Object.entries(data.f)) if (count) keys.push(`${index}:f${id}`);
      for (const [id, counts] of Object.entries(data.b))
        counts.forEach((count, path) => count && keys.push(`${index}:b${id}.${path}`));
    }
    return keys;
  }
}

module.exports = { CoverageProbe };
