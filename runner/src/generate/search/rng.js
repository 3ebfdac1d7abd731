'use strict';
// A seeded pseudo-random generator (mulberry32): the same job explores the same inputs in the same
// order, so generated suites are reproducible apart from how far the time budget lets search go.

class Rng {
  constructor(seed = 0x5eed) {
    this.state = seed >>> 0;
  }

  next() {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(limit) {
    return Math.floor(this.next() * limit);
  }

  chance(probability) {
    return this.next() < probability;
  }

  pick(items) {
    return items[this.int(items.length)];
  }
}

module.exports = { Rng };
