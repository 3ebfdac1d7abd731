'use strict';
// `recordEvents(emitter)`: from then on, every event the emitter emits is appended to the
// returned array as [name, ...args]. Scenarios call it in the child process (child/main.js makes
// it a global) and generated tests define it from this very source (test-writer.js), so a test
// records exactly what the scenario recorded. The emitter's observed state (its own enumerable
// properties) stays what it was: the wrapper is enumerable only where `emit` was an own
// enumerable property already (an object a mixin gave the emitter methods to).

function recordEvents(emitter) {
  const events = [];
  const emit = emitter.emit;
  const own = Object.getOwnPropertyDescriptor(emitter, 'emit');
  Object.defineProperty(emitter, 'emit', {
    configurable: true,
    writable: true,
    enumerable: Boolean(own && own.enumerable),
    value: function (...args) {
      events.push(args);
      return emit.apply(this, args);
    },
  });
  return events;
}

module.exports = { recordEvents };
