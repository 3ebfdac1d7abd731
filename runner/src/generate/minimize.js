'use strict';
// Chooses the smallest set of scenarios that keeps all the coverage the search reached (greedy
// set cover): take the scenario covering the most keys not yet covered, prefer shorter scenarios
// on ties, repeat until nothing new is covered. The chosen scenarios keep discovery order.

function scenarioSize(entry) {
  return entry.rendered.steps.length * 1000 + entry.rendered.steps.reduce((sum, step) => sum + step.expression.length, 0);
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
      if (gain > bestGain || (gain === bestGain && gain > 0 && scenarioSize(entry) < scenarioSize(best))) {
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
