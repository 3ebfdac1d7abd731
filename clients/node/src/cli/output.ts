// What `vouch` prints. Results go to stdout: lines for people, or one JSON document with --json.
// Progress goes to stderr: one line rewritten in place on a terminal, plain lines when CI is set
// or stderr is not a terminal, nothing with --json.

export interface OutputOptions {
  json: boolean;
  stdout?: NodeJS.WritableStream & { isTTY?: boolean };
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  ci?: boolean;
}

export class Output {
  readonly json: boolean;
  private readonly stdout: NodeJS.WritableStream;
  private readonly stderr: NodeJS.WritableStream;
  private readonly live: boolean;
  private lastProgress = '';
  private showing = false;
  /** What --json prints at the end. */
  readonly document: Record<string, unknown> = {};

  constructor(options: OutputOptions) {
    this.json = options.json;
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    const ci = options.ci ?? Boolean(process.env.CI);
    this.live = !ci && Boolean((options.stderr ?? process.stderr).isTTY);
  }

  /** A result line (not with --json, where `set` fills the document instead). */
  line(text = ''): void {
    if (this.json) return;
    this.clearProgress();
    this.stdout.write(`${text}\n`);
  }

  set(key: string, value: unknown): void {
    this.document[key] = value;
  }

  /** A warning or an error, on stderr in every mode. */
  warn(text: string): void {
    this.clearProgress();
    this.stderr.write(`vouch: ${text}\n`);
  }

  progress(text: string): void {
    if (this.json || text === this.lastProgress) return;
    this.lastProgress = text;
    if (this.live) {
      this.stderr.write(`\r\x1b[K${text}`);
      this.showing = true;
    } else {
      this.stderr.write(`${text}\n`);
    }
  }

  /** Ends the live progress line (the next progress is printed again even if the same). */
  doneProgress(): void {
    this.clearProgress();
    this.lastProgress = '';
  }

  finish(): void {
    this.clearProgress();
    if (this.json) this.stdout.write(`${JSON.stringify(this.document, null, 2)}\n`);
  }

  private clearProgress(): void {
    if (!this.showing) return;
    this.stderr.write('\r\x1b[K');
    this.showing = false;
  }
}

/** Columns padded to their widest cell; numbers right-aligned. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((row) => /^[\d.%—-]*$/.test(row[i])));
  const format = (row: string[]) =>
    row
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [format(header), format(widths.map((w) => '-'.repeat(w))), ...rows.map(format)];
}
