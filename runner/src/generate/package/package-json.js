'use strict';
// Reads a package.json the way npm does: normalize-package-data fixes the legacy shapes npm
// accepts (dependencies as an array or a string, a `bin` string, missing fields) instead of
// refusing them. A package.json that is not a JSON object reads as an empty package.

const normalize = require('normalize-package-data');

// Returns { data, warnings }: data is the normalized object (never null).
function readPackageJson(text) {
  let raw;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { data: {}, warnings: [`package.json is not JSON: ${error.message}`] };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { data: {}, warnings: ['package.json is not a JSON object'] };
  const warnings = [];
  const data = structuredClone(raw);
  try {
    normalize(data, (message) => warnings.push(message));
  } catch (error) {
    // normalize-package-data throws on a name npm would not publish; npm still installs a folder
    // with one. Its other fixes are what matters here, so they run without the name.
    warnings.push(error.message);
    const { name, ...rest } = structuredClone(raw);
    try {
      normalize(rest, (message) => warnings.push(message));
      return { data: { ...rest, name: typeof name === 'string' ? name : '' }, warnings };
    } catch (again) {
      warnings.push(again.message);
      return { data: structuredClone(raw), warnings };
    }
  }
  return { data, warnings };
}

// The package names a package may require: its dependencies of every kind npm installs for it.
function declaredDependencies(data) {
  const names = new Set();
  for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
    const deps = data[field];
    if (deps && typeof deps === 'object' && !Array.isArray(deps)) Object.keys(deps).forEach((name) => names.add(name));
  }
  return names;
}

module.exports = { readPackageJson, declaredDependencies };
