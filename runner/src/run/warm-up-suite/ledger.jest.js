'use strict';

// Test half of run.js's warm-up suite (see ../prime.js), written into the
// warm-up folder as ledger.test.js: common matchers, test.each, async tests,
// mocks, and one failure.

const { Ledger } = require('./ledger');

describe('Ledger', () => {
  test('adds entries up', () => {
    const ledger = new Ledger().add({ amount: 5, label: 'tea' }).add({ amount: -2 });
    expect(ledger.balance).toBe(3);
    expect(ledger.find('tea')).toEqual(5);
    expect(ledger.find('cake')).toBeNull();
  });

  test.each([
    [[10], 'credit 10.00 EUR'],
    [[-4], 'debit 4.00 EUR'],
    [[], 'even'],
  ])('describes %j as %s', (amounts, text) => {
    const ledger = new Ledger();
    amounts.forEach((amount) => ledger.add({ amount }));
    expect(ledger.describe()).toMatch(text);
  });

  test('refuses bad input', () => {
    expect(() => new Ledger('euro')).toThrow(TypeError);
    expect(() => new Ledger().add({ amount: 'x' })).toThrow('amount must be a number');
  });

  test('settles', async () => {
    await expect(new Ledger().add({ amount: 1 }).settle(async (due) => `paid ${due}`)).resolves.toEqual({
      ok: true,
      receipt: 'paid 1',
    });
    const failing = jest.fn().mockRejectedValue(new Error('declined'));
    expect(await new Ledger().settle(failing)).toStrictEqual({ ok: false, reason: 'declined' });
    expect(failing).toHaveBeenCalledWith(0);
  });

  test('fails, so that failure reporting is warm too', () => {
    expect({ balance: 1 }).toEqual({ balance: 2 });
  });
});
