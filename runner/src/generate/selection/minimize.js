'use strict';
// Chooses the smallest set of scenarios that keeps all the coverage the search reached (greedy
// set cover): take the scenario covering the most keys not yet covered; on ties prefer one that
// ends in a value over one that throws, then the shorter one; repeat until nothing new is
// covered; then every target without a chosen scenario that ends in a value gets its best one,
// and every member (of a class, or of an object a call returned) that completed in some scenario
// completes in a chosen one too.
// The chosen scenarios keep discovery order.

function scenarioSize(entry) {
  return (
    entry.rendered.steps.length * 1000 + entry.rendered.steps.reduce((sum, step) => sum + step.expression.length, 0)
  );
}

// Negative when `a` is the better pick among scenarios of equal gain.
function preference(a, b) {
  if (a.happy !== b.happy) return a.happy ? -1 : 1;
  return scenarioSize(a) - scenarioSize(b);
}

// `target.member` for each method, getter or setter step of the entry that returned or resolved:
// the members it shows at work, not only throwing (`pop()` on an empty stack).
function completedMembers(entry) {
  const members = new Set();
  (entry.scenario ? entry.scenario.steps : []).forEach((step, index) => {
    const outcome = entry.outcomes[index];
    if (step.receiver && step.name && outcome && (outcome.kind === 'return' || outcome.kind === 'resolve'))
      members.add(`${entry.target.id}.${step.name}`);
  });
  return members;
}

// Adds to `chosen` entries so that every member completing somewhere in the corpus completes in a
// chosen entry: coverage alone can be held by a test where the member throws, or by the member's
// shared code run through another one, and set cover then never calls `push` before `pop`.
// Greedy: the entry completing the most missing members, then the smaller one.
function chooseMemberUses(corpus, chosen) {
  const completed = new Map(corpus.map((entry) => [entry, completedMembers(entry)]));
  const used = new Set([...chosen].flatMap((entry) => [...completed.get(entry)]));
  for (;;) {
    let best = null;
    let bestGain = 0;
    for (const entry of corpus) {
      if (chosen.has(entry)) continue;
      const gain = [...completed.get(entry)].filter((member) => !used.has(member)).length;
      if (gain > bestGain || (gain === bestGain && gain > 0 && scenarioSize(entry) < scenarioSize(best))) {
        best = entry;
        bestGain = gain;
      }
    }
    if (!best) return;
    chosen.add(best);
    completed.get(best).forEach((member) => used.add(member));
  }
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
    const happy = entries
      .filter((entry) => entry.happy)
      .sort((a, b) => b.keys.size - a.keys.size || scenarioSize(a) - scenarioSize(b))[0];
    if (happy) chosen.add(happy);
  }
  chooseMemberUses(corpus, chosen);
  return corpus.filter((entry) => chosen.has(entry));
}

module.exports = { minimizeCorpus };
