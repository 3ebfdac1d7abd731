/** The exit codes of `vouch` (README: "The vouch command"). */
export const EXIT_OK = 0;
/** Tests failed, the run ended in error, or coverage is under the bar. */
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
/** The service answered an error or could not be reached. */
export const EXIT_SERVICE = 3;

/** A wrong command line or a local file that cannot be used: exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
