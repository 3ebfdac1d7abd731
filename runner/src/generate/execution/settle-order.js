'use strict';
// `settleOrder(promises)`: waits until every promise has settled and resolves to how each did, in
// the order they did: [index, 'resolved', value] or [index, 'rejected', message]. Calls left in
// flight at once (`limit(slowJob)`, `limit(job)`) show their order of completion only this way.
// Once all have settled it lets the microtasks they started run (a queue's bookkeeping after its
// last task), so what a test reads next is the settled state. Scenarios call it in the child
// process (child/main.js makes it a global) and generated tests define it from this very source
// (test-writer.js), so a test waits exactly as the scenario waited.

async function settleOrder(promises) {
  const settled = [];
  await Promise.all(
    promises.map((promise, index) =>
      Promise.resolve(promise).then(
        (value) => settled.push([index, 'resolved', value]),
        (error) =>
          settled.push([index, 'rejected', error && typeof error.message === 'string' ? error.message : error]),
      ),
    ),
  );
  for (let tick = 0; tick < 10; tick++) await null;
  return settled;
}

module.exports = { settleOrder };
