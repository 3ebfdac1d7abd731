'use strict';

// An error that ends a run with {"ok":false,"error":{code,detail}}.
// `code` is a stable machine word the server maps to a run outcome;
// `results` carries whatever test results exist when the error is reported.
class RunError extends Error {
  constructor(code, detail, results) {
    super(detail);
    this.code = code;
    this.results = results;
  }
}

module.exports = { RunError };
