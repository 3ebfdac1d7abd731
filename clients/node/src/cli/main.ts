#!/usr/bin/env node
// `vouch`: the Vouch API from a shell or a CI pipeline (README: "The vouch command").
import * as path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { Vouch } from '../client';
import { VouchError } from '../errors';
import { ci, generate, importDirectory, run, type Context } from './commands';
import { EXIT_SERVICE, EXIT_USAGE, UsageError } from './errors';
import { Output } from './output';

const USAGE = `usage: vouch <command> [options]

  vouch import [DIR] (--project ID | --create NAME)
  vouch generate --project ID [--snapshot ID] [--paths P,...] [--write DIR [--force]]
  vouch run --test ID [--wait] [--lcov FILE] [--junit FILE] [--fail-under N]
  vouch ci [DIR] (--project ID | --create NAME) [--fail-under N] [--lcov FILE] [--junit FILE]
           [--write DIR] [--paths P,...] [--force]

Every command: --url URL (or VOUCH_URL), --api-key KEY (or VOUCH_API_KEY), --json.
ci defaults: DIR ".", tests written into DIR, lcov to DIR/coverage/lcov.info, JUnit to DIR/junit.xml.
Exit codes: 0 ok, 1 tests failed or coverage under the bar, 2 usage, 3 service error.`;

const COMMON = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const OPTIONS = {
  import: { ...COMMON, project: { type: 'string' }, create: { type: 'string' } },
  generate: {
    ...COMMON,
    project: { type: 'string' },
    snapshot: { type: 'string' },
    paths: { type: 'string', multiple: true },
    write: { type: 'string' },
    force: { type: 'boolean' },
  },
  run: {
    ...COMMON,
    test: { type: 'string' },
    wait: { type: 'boolean' },
    lcov: { type: 'string' },
    junit: { type: 'string' },
    'fail-under': { type: 'string' },
  },
  ci: {
    ...COMMON,
    project: { type: 'string' },
    create: { type: 'string' },
    'fail-under': { type: 'string' },
    lcov: { type: 'string' },
    junit: { type: 'string' },
    write: { type: 'string' },
    paths: { type: 'string', multiple: true },
    force: { type: 'boolean' },
  },
} as const satisfies Record<string, ParseArgsConfig['options']>;

type Command = keyof typeof OPTIONS;
type Values = Record<string, string | boolean | string[] | undefined>;

function failUnder(values: Values): number | undefined {
  const text = values['fail-under'];
  if (text === undefined) return undefined;
  const bar = Number(text);
  if (typeof text !== 'string' || text.trim() === '' || !Number.isFinite(bar) || bar < 0 || bar > 100) {
    throw new UsageError(`--fail-under must be a percentage from 0 to 100, not ${JSON.stringify(text)}`);
  }
  return bar;
}

/** --paths a,b --paths c → [a, b, c]. */
function paths(values: Values): string[] | undefined {
  const given = values.paths as string[] | undefined;
  return given
    ?.flatMap((entry) => entry.split(','))
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function oneDirectory(positionals: string[]): string {
  if (positionals.length > 1) throw new UsageError(`one DIR at most, not ${positionals.join(' ')}`);
  return positionals[0] ?? '.';
}

async function execute(command: Command, values: Values, positionals: string[], ctx: Context): Promise<number> {
  switch (command) {
    case 'import':
      await importDirectory(ctx, oneDirectory(positionals), {
        project: values.project as string,
        create: values.create as string,
      });
      return 0;
    case 'generate': {
      if (positionals.length) throw new UsageError(`generate takes no DIR (use --write DIR): ${positionals.join(' ')}`);
      if (!values.project) throw new UsageError('--project ID is required');
      if (values.force && values.write === undefined) throw new UsageError('--force applies to --write');
      ctx.out.line(`project ${values.project as string}`);
      ctx.out.set('project', { id: values.project });
      await generate(ctx, {
        projectId: values.project as string,
        snapshotId: values.snapshot as string | undefined,
        paths: paths(values),
        write: values.write as string | undefined,
        force: Boolean(values.force),
      });
      return 0;
    }
    case 'run': {
      if (positionals.length) throw new UsageError(`run takes no argument: ${positionals.join(' ')}`);
      if (!values.test) throw new UsageError('--test ID is required');
      const bar = failUnder(values);
      ctx.out.line(`test ${values.test as string}`);
      ctx.out.set('test', { id: values.test });
      const wantsResults = values.lcov !== undefined || values.junit !== undefined || bar !== undefined;
      return run(ctx, {
        testId: values.test as string,
        // Reports and a bar need the end of the run.
        wait: Boolean(values.wait) || wantsResults,
        lcov: values.lcov as string | undefined,
        junit: values.junit as string | undefined,
        failUnder: bar,
      });
    }
    case 'ci': {
      const dir = oneDirectory(positionals);
      return ci(ctx, {
        dir,
        project: values.project as string | undefined,
        create: values.create as string | undefined,
        paths: paths(values),
        write: (values.write as string | undefined) ?? dir,
        force: Boolean(values.force),
        lcov: (values.lcov as string | undefined) ?? path.join(dir, 'coverage', 'lcov.info'),
        junit: (values.junit as string | undefined) ?? path.join(dir, 'junit.xml'),
        failUnder: failUnder(values),
      });
    }
  }
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? EXIT_USAGE : 0;
  }
  if (!(command in OPTIONS)) {
    process.stderr.write(`vouch: unknown command ${JSON.stringify(command)}\n${USAGE}\n`);
    return EXIT_USAGE;
  }
  let values: Values;
  let positionals: string[];
  try {
    const options: ParseArgsConfig['options'] = OPTIONS[command as Command];
    const parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
    values = parsed.values as Values;
    positionals = parsed.positionals;
  } catch (error) {
    process.stderr.write(`vouch ${command}: ${(error as Error).message}\n${USAGE}\n`);
    return EXIT_USAGE;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const out = new Output({ json: Boolean(values.json), ci: Boolean(env.CI) });
  try {
    const baseUrl = (values.url as string | undefined) ?? env.VOUCH_URL;
    if (!baseUrl) throw new UsageError('the service URL is missing: set VOUCH_URL or give --url');
    const apiKey = (values['api-key'] as string | undefined) ?? env.VOUCH_API_KEY;
    if (!apiKey) throw new UsageError('the API key is missing: set VOUCH_API_KEY or give --api-key');
    const vouch = new Vouch({ baseUrl, apiKey, timeoutMs: 120_000 });
    const code = await execute(command as Command, values, positionals, { vouch, out });
    out.set('exitCode', code);
    out.finish();
    return code;
  } catch (error) {
    const code = error instanceof UsageError ? EXIT_USAGE : error instanceof VouchError ? EXIT_SERVICE : EXIT_SERVICE;
    if (error instanceof VouchError) {
      out.warn(`${error.message}${error.requestId ? ` (request ${error.requestId})` : ''}`);
      for (const field of error.errors) out.warn(`  ${field.field}: ${field.message}`);
      out.set('error', {
        status: error.status,
        code: error.code,
        detail: error.detail,
        errors: error.errors,
        requestId: error.requestId,
      });
    } else if (error instanceof UsageError) {
      out.warn(error.message);
      out.set('error', { code: 'usage', detail: error.message });
    } else {
      out.warn(`unexpected failure: ${(error as Error).stack ?? String(error)}`);
      out.set('error', { code: 'unexpected', detail: String(error) });
    }
    out.set('exitCode', code);
    out.finish();
    return code;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
