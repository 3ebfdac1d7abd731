'use strict';
// Chooses the smallest set of scenarios that keeps all the coverage the search reached (greedy
// set cover): take the scenario covering the most keys not yet covered; on ties prefer one that
// ends in a value over one that throws, then the shorter one; repeat until nothing new is
// covered; then every target without a chosen scenario that ends in a value gets its best one.
// The chosen scenarios keep discovery order.

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
  // Every target keeps a direct test of its main behaviour, a call that ends in a value, even
  // when other tests already cover its code: those may reach it only through error paths.
  for (const target of new Set(corpus.map((entry) => entry.target))) {
    const entries = corpus.filter((entry) => entry.target === target);
    if (entries.some((entry) => chosen.has(entry) && entry.happy)) continue;
    const happy = entries.filter((entry) => entry.happy).sort((a, b) => b.keys.size - a.keys.size || scenarioSize(a) - scenarioSize(b))[0];
    if (happy) chosen.add(happy);
  }
  return corpus.filter((entry) => chosen.has(entry));
}

module.exports = { minimizeCorpus };
