'use strict';
// Each scenario starts from the environment variables the child started with. Code under test
// may write them (debug's `enable(namespaces)` saves its namespaces in `process.env.DEBUG`), and
// the child runs every scenario in one process: a scenario that saved `{}` there left
// `'[object Object]'`, which every later load of the module read back and threw on, so no other
// scenario of that package ran at all. A Jest run gives each test file its own `process.env`.

// Takes note of the environment now; returns restore(), which puts it back as it was (the
// variables added since removed, the others set to their values of now).
function keepEnvironment() {
  const kept = { ...process.env };
  return function restore() {
    for (const key of Object.keys(process.env)) if (!Object.hasOwn(kept, key)) delete process.env[key];
    for (const [key, value] of Object.entries(kept)) if (process.env[key] !== value) process.env[key] = value;
  };
}

module.exports = { keepEnvironment };
