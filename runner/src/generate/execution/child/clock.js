'use strict';
// Moves the clock the code under test sees. The second run of every scenario sees a clock more
// than a year later, so anything derived from the current time (timestamps, today's date, an
// age) differs between the runs and is asserted only by type, never by a value that would stop
// being true tomorrow. Only readings of "now" move: `new Date(0)` and date arithmetic do not.
// Code run with fake timers reads the fake clock instead (started from the shifted time).

const RealDate = Date;

// The shifted clock also runs fast: each reading is DRIFT_MS later than real time says, so an
// outcome that hangs on a few milliseconds passing between two readings (an entry with a
// maxAge of 1 ms read back in the next step) differs between the runs, instead of passing
// here and failing in a slower test run.
const DRIFT_MS = 50;

function shiftedDateConstructor(offsetMs) {
  let readings = 0;
  const now = () => RealDate.now() + offsetMs + DRIFT_MS * readings++;
  function ShiftedDate(...args) {
    if (!new.target) return new RealDate(now()).toString();
    const target = new.target === ShiftedDate ? RealDate : new.target;
    return Reflect.construct(RealDate, args.length ? args : [now()], target);
  }
  // Shared prototype: dates made before, during and after the shift are all `instanceof Date`.
  ShiftedDate.prototype = RealDate.prototype;
  Object.setPrototypeOf(ShiftedDate, RealDate);
  ShiftedDate.now = now;
  return ShiftedDate;
}

// Runs `fn` (which may return a promise) with the clock moved by offsetMs, then restores it.
async function withClockShift(offsetMs, fn) {
  if (!offsetMs) return fn();
  globalThis.Date = shiftedDateConstructor(offsetMs);
  try {
    return await fn();
  } finally {
    globalThis.Date = RealDate;
  }
}

module.exports = { withClockShift };
