'use strict';
// Each scenario starts from the environment variables the child started with. Code under test
// may write them (debug's `enable(namespaces)` saves its namespaces in `process.env.DEBUG`), and
// the child runs every scenario in one process: a scenario that saved `{}` there left
// `'[object Object]'`, which every later load of the module read back and threw on, so no other
// scenario of that package ran at all. A Jest run gives each test file its own `process.env`.
// So too the process's settings: a scenario may switch `process.noDeprecation` or
// `process.stderr.isTTY` on first (analysis/process-switches.js), which no later one must see.

// Not stdin: reading `process.stdin` opens it.
const STREAMS = ['stdout', 'stderr'];

// The process's own data properties holding primitives (its settings), by name.
function primitiveSettings(owner) {
  const settings = new Map();
  for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(owner))) {
    if ('value' in descriptor && (descriptor.value === null || typeof descriptor.value !== 'object')) {
      if (typeof descriptor.value !== 'function') settings.set(key, descriptor);
    }
  }
  return settings;
}

// Takes note of the settings of `owner` now; returns restore(), which puts them back: those
// added since removed, the others given their descriptors of now.
function keepSettings(owner, only = null) {
  const kept = primitiveSettings(owner);
  return function restore() {
    for (const [key, descriptor] of primitiveSettings(owner)) {
      if (only && !only.includes(key)) continue;
      if (!kept.has(key)) {
        if (descriptor.configurable) delete owner[key];
      } else if (kept.get(key).value !== descriptor.value && descriptor.configurable) {
        Object.defineProperty(owner, key, kept.get(key));
      }
    }
  };
}

// Takes note of the listeners of `emitter` now; returns restore(), which removes those added since
// (a scenario's `process.on('deprecation', listener)`).
function keepListeners(emitter) {
  const kept = new Map(emitter.eventNames().map((event) => [event, emitter.listeners(event)]));
  return function restore() {
    for (const event of emitter.eventNames()) {
      const before = kept.get(event) || [];
      for (const listener of emitter.listeners(event))
        if (!before.includes(listener)) emitter.removeListener(event, listener);
    }
  };
}

// Takes note of the environment now; returns restore(), which puts it back as it was (the
// variables added since removed, the others set to their values of now), and the process's
// settings, its streams' `isTTY` and its listeners with it.
function keepEnvironment() {
  const kept = { ...process.env };
  const restoreSettings = [
    keepSettings(process),
    ...STREAMS.map((name) => keepSettings(process[name], ['isTTY'])),
    keepListeners(process),
  ];
  return function restore() {
    for (const key of Object.keys(process.env)) if (!Object.hasOwn(kept, key)) delete process.env[key];
    for (const [key, value] of Object.entries(kept)) if (process.env[key] !== value) process.env[key] = value;
    restoreSettings.forEach((restoreOne) => restoreOne());
  };
}

module.exports = { keepEnvironment };
