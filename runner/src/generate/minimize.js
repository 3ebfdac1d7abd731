'use strict';
// Chooses the smallest set of scenarios that keeps all the coverage the search reached (greedy
// set cover): take the scenario covering the most keys not yet covered; on ties prefer one that
// ends in a value over one that throws, then the shorter one; repeat until nothing new is
// covered. The chosen scenarios keep discovery order.

function scenarioSize(entry) {
  return entry.rendered.steps.length * 1000 + entry.rendered.steps.reduce((sum, step) => sum + step.expression.length, 0);
}

// Negative when `a` is the better pick among scenarios of equal gain.
function preference(a, b) {
  if (a.happy !== b.happy) return a.happy ? -1 : 1;
  return scenarioSize(a) - scenarioSize(b);
}

function minimizeCorpus(corpus) {
  const covered = new Set();
  const chosen = new Set();
  for (;;) {
    let best = null;
    let bestGain = 0;
    for (const entry of corpus) {
      if (chosen.has(entry)) continue;
      let gain = 0;
      for (const key of entry.keys) if (!covered.has(key)) gain++;
      if (gain > bestGain || (gain === bestGain && gain > 0 && preference(entry, best) < 0)) {
        best = entry;
        bestGain = gain;
      }
    }
    if (!best) break;
    chosen.add(best);
    best.keys.forEach((key) => covered.add(key));
  }
  return corpus.filter((entry) => chosen.has(entry));
}

module.exports = { minimizeCorpus };
