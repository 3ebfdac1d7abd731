'use strict';
// How the search shares its time among targets. Every target runs once first (its first seed:
// the ordinary call a reader wants to see). Afterwards a target is drawn in proportion to what
// its file has left to cover (the uncovered coverage keys per target of the file, under a square
// root: a big, little-covered file gets the most time without starving the others, and a
// function whose file is covered through another module, as a re-export, gets the least) times
// how much it found lately (a target that gains keeps being tried, one that stalls fades).

// files: [{ path, keys }] in the order of the coverage keys' file numbers (`<n>:s1`).
class Allocation {
  constructor(files, targetPaths) {
    this.index = new Map(files.map((file, index) => [file.path, index]));
    this.total = files.map((file) => file.keys);
    this.covered = files.map(() => 0);
    this.targetsOf = files.map(() => 0);
    for (const path of targetPaths) if (this.index.has(path)) this.targetsOf[this.index.get(path)]++;
  }

  // A coverage key (`3:b7.1`) covered for the first time.
  cover(key) {
    const file = Number.parseInt(key, 10);
    if (file >= 0 && file < this.covered.length) this.covered[file]++;
  }

  uncoveredPerTarget(path) {
    const file = this.index.get(path);
    if (file === undefined) return 0;
    return Math.max(0, this.total[file] - this.covered[file]) / Math.max(1, this.targetsOf[file]);
  }

  // slot: { target: { file }, gains, tries }.
  weight(slot) {
    const recent = 1 + (4 * slot.gains) / (1 + slot.tries / 50);
    return recent * (1 + Math.sqrt(this.uncoveredPerTarget(slot.target.file)));
  }

  // The slot to try next: the first never tried, else one drawn by weight (roll in [0, 1)).
  pick(slots, roll) {
    const untried = slots.find((slot) => slot.tries === 0);
    if (untried) return untried;
    const weights = slots.map((slot) => this.weight(slot));
    let left = roll * weights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < slots.length; i++) {
      left -= weights[i];
      if (left <= 0) return slots[i];
    }
    return slots[slots.length - 1];
  }
}

module.exports = { Allocation };
