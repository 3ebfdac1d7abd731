'use strict';

// Source half of run.js's warm-up suite (see ../prime.js): a little of the
// syntax that Babel and the coverage instrumenter must handle.

const CURRENCY = /^[A-Z]{3}$/;

class Ledger {
  #entries = [];

  constructor(currency = 'EUR') {
    if (!CURRENCY.test(currency)) throw new TypeError(`bad currency: ${currency}`);
    this.currency = currency;
  }

  add({ amount, label = 'entry', ...rest }) {
    if (typeof amount !== 'number' || Number.isNaN(amount)) throw new RangeError('amount must be a number');
    this.#entries.push({ amount, label, ...rest });
    return this;
  }

  get balance() {
    return this.#entries.reduce((sum, { amount }) => sum + amount, 0);
  }

  find(label) {
    return this.#entries.find((entry) => entry.label === label)?.amount ?? null;
  }

  describe() {
    switch (Math.sign(this.balance)) {
      case 1:
        return `credit ${this.balance.toFixed(2)} ${this.currency}`;
      case -1:
        return `debit ${(-this.balance).toFixed(2)} ${this.currency}`;
      default:
        return 'even';
    }
  }

  async settle(pay) {
    try {
      const receipt = await pay(this.balance);
      return { ok: true, receipt };
    } catch (error) {
      return { ok: false, reason: error.message };
    } finally {
      this.#entries = [];
    }
  }
}

module.exports = { Ledger };
