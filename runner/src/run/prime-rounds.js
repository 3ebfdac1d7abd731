'use strict';

// How many rounds of the warm-up suite run.js runs before it says it is ready
// (src/run/prime.js). Kept apart from prime.js, which loads Jest: bin/run.js
// reads it before anything else is loaded (src/run/tiering.js).

// The first round loads Jest; the next ones let V8 optimise what the first
// only loaded. Four rounds of this suite made the job fastest; more rounds
// gained nothing.
const ROUNDS = 4;

// `--prime-rounds N` among the arguments, or ROUNDS.
function primeRoundsOf(argv) {
  const at = argv.indexOf('--prime-rounds');
  if (at < 0) return ROUNDS;
  const rounds = Number(argv[at + 1]);
  if (!Number.isInteger(rounds) || rounds < 0 || rounds > ROUNDS) {
    throw new Error(`--prime-rounds must be an integer from 0 to ${ROUNDS}`);
  }
  return rounds;
}

module.exports = { primeRoundsOf, ROUNDS };
