// The steps of `vouch`: import, generate, run, and ci (the three in one), on the client library.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Vouch } from '../client';
import { VouchError } from '../errors';
import type * as T from '../types';
import { EXIT_FAILED, EXIT_OK, UsageError } from './errors';
import { Output, table } from './output';
import { packDirectory } from './pack';
import { writeGeneratedFiles, writtenPaths, type WrittenFile } from './written';

export interface Context {
  vouch: Vouch;
  out: Output;
}

/** --project ID, or --create NAME (the account's project of that name, created when there is none). */
export interface ProjectChoice {
  project?: string;
  create?: string;
}

export async function resolveProject(ctx: Context, choice: ProjectChoice): Promise<T.Project> {
  if (choice.project && choice.create) throw new UsageError('give --project or --create, not both');
  if (choice.project) {
    const project = await ctx.vouch.projects.get(choice.project);
    ctx.out.line(`project ${project.id} (${project.name})`);
    ctx.out.set('project', { id: project.id, name: project.name, created: false });
    return project;
  }
  if (!choice.create) throw new UsageError('--project ID or --create NAME is required');
  for await (const existing of ctx.vouch.projects.iterate({ limit: 100 })) {
    if (existing.name === choice.create) {
      ctx.out.line(`project ${existing.id} (${existing.name}, existing)`);
      ctx.out.set('project', { id: existing.id, name: existing.name, created: false });
      return existing;
    }
  }
  const project = await ctx.vouch.projects.create({ name: choice.create });
  ctx.out.line(`project ${project.id} (${project.name}, created)`);
  ctx.out.set('project', { id: project.id, name: project.name, created: true });
  return project;
}

export async function importDirectory(
  ctx: Context,
  dir: string,
  choice: ProjectChoice,
): Promise<{ project: T.Project; snapshot: T.ImportedSnapshot }> {
  const packed = await packDirectory(dir, writtenPaths(dir));
  const project = await resolveProject(ctx, choice);
  ctx.out.progress(`packing ${dir}: ${packed.files.length} files, ${packed.tarball.length} bytes`);
  const snapshot = await ctx.vouch.projects.importSnapshot(project.id, packed.tarball);
  ctx.out.doneProgress();
  ctx.out.line(
    `snapshot ${snapshot.snapshotId}: ${snapshot.files} files, ${snapshot.bytes} bytes` +
      (snapshot.skipped.length ? `, ${snapshot.skipped.length} skipped` : ''),
  );
  ctx.out.set('snapshot', {
    id: snapshot.snapshotId,
    files: snapshot.files,
    bytes: snapshot.bytes,
    skipped: snapshot.skipped,
    packed: packed.files,
  });
  return { project, snapshot };
}

function describeProgress(testId: string, progress: T.GenerationProgress): string {
  const files = progress.filesTotal > 0 ? `, ${progress.filesDone}/${progress.filesTotal} files` : '';
  const kept = progress.testsKept > 0 ? `, ${progress.testsKept} tests kept` : '';
  return `generating ${testId}: ${progress.phase}${files}${kept}`;
}

const percent = (value: number | null | undefined) => (value == null ? '—' : `${Math.round(value * 10) / 10}%`);

/** The summary table: per source file its tests kept, line coverage and why it was skipped. */
function summaryRows(summary: T.GenerationSummary): string[][] {
  const problems = new Map<string, string[]>();
  for (const problem of summary.problems) {
    problems.set(problem.path, [...(problems.get(problem.path) ?? []), problem.code]);
  }
  const rows = summary.perFile.map((file) => [
    file.path,
    String(file.testsKept),
    percent(file.coverage?.lines),
    (problems.get(file.path) ?? []).join(', '),
  ]);
  const listed = new Set(summary.perFile.map((file) => file.path));
  for (const [file, codes] of problems) {
    if (!listed.has(file)) rows.push([file, '0', '—', codes.join(', ')]);
  }
  return rows;
}

export interface GenerateChoice {
  projectId: string;
  snapshotId?: string;
  paths?: string[];
  write?: string;
  force?: boolean;
}

export async function generate(
  ctx: Context,
  choice: GenerateChoice,
): Promise<{ test: T.GeneratedTest; written: WrittenFile[] }> {
  const body: T.GenerateTestsRequest = { projectId: choice.projectId };
  if (choice.snapshotId) body.snapshotId = choice.snapshotId;
  if (choice.paths && choice.paths.length) body.paths = choice.paths;
  let testId = '';
  const accepted = await ctx.vouch.tests.generate(body, { async: true });
  testId = accepted.testId;
  ctx.out.line(`test ${testId}`);
  ctx.out.progress(
    describeProgress(testId, accepted.progress ?? { phase: 'queued', filesDone: 0, filesTotal: 0, testsKept: 0 }),
  );
  let test: T.GeneratedTest;
  try {
    test = await ctx.vouch.tests.waitForGeneration(testId, {
      onProgress: (progress) => ctx.out.progress(describeProgress(testId, progress)),
    });
  } finally {
    ctx.out.doneProgress();
  }
  const summary = test.summary;
  for (const row of table(['File', 'Tests kept', 'Coverage', 'Skipped'], summaryRows(summary))) ctx.out.line(row);
  const skipped = new Set(summary.problems.map((problem) => problem.path)).size;
  ctx.out.line(
    `${summary.testsKept} tests kept of ${summary.testsGenerated}, lines covered ${percent(summary.coverage.lines)}, ${skipped} files with problems`,
  );
  let written: WrittenFile[] = [];
  if (choice.write !== undefined) {
    written = writeGeneratedFiles(choice.write, test.files, { force: choice.force, testId });
    for (const file of written) {
      ctx.out.line(`${file.status.padEnd(11)} ${path.join(choice.write, file.path)}`);
      if (file.status === 'kept')
        ctx.out.warn(`${path.join(choice.write, file.path)} was changed locally: kept (--force replaces it)`);
    }
  }
  ctx.out.set('test', { id: testId, status: test.status, summary, files: test.files.map((file) => file.path) });
  if (choice.write !== undefined) ctx.out.set('written', written);
  return { test, written };
}

export interface RunChoice {
  testId: string;
  wait: boolean;
  lcov?: string;
  junit?: string;
  failUnder?: number;
}

function writeFile(file: string, content: string): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, content);
}

/** Starts a run; with `wait`, waits for its end, writes its reports and answers the exit code. */
export async function run(ctx: Context, choice: RunChoice): Promise<number> {
  const started = await ctx.vouch.tests.run({ testId: choice.testId });
  ctx.out.line(`run ${started.runId}`);
  ctx.out.set('run', { id: started.runId, status: started.status });
  if (!choice.wait) return EXIT_OK;
  const begun = Date.now();
  const tick = () => ctx.out.progress(`running ${started.runId}: ${Math.round((Date.now() - begun) / 1000)} s`);
  tick();
  const timer = setInterval(tick, 1000);
  let done: T.Run;
  try {
    done = await ctx.vouch.tests.waitForResults(started.runId, { timeoutMs: 30 * 60_000 });
  } finally {
    clearInterval(timer);
    ctx.out.doneProgress();
  }
  const results = done.results;
  if (results) {
    const c = results.coverage;
    ctx.out.line(
      `${results.passed} passed, ${results.failed} failed of ${results.total}; coverage: ` +
        `statements ${percent(c.statements)}, branches ${percent(c.branches)}, functions ${percent(c.functions)}, lines ${percent(c.lines)}`,
    );
  }
  for (const failure of done.failures) ctx.out.line(`  failed: ${failure}`);
  if (done.error) ctx.out.line(`error ${done.error.code}: ${done.error.detail}`);
  ctx.out.line(`outcome ${done.outcome}`);
  ctx.out.set('run', {
    id: done.runId,
    status: done.status,
    outcome: done.outcome,
    results,
    failures: done.failures,
    error: done.error,
  });

  const reports: Record<string, string> = {};
  if (results && (choice.lcov || choice.junit)) {
    if (choice.lcov) {
      writeFile(choice.lcov, await ctx.vouch.tests.coverageLcov(done.runId));
      reports.lcov = choice.lcov;
      ctx.out.line(`lcov ${choice.lcov}`);
    }
    if (choice.junit) {
      writeFile(choice.junit, await ctx.vouch.tests.junitXml(done.runId));
      reports.junit = choice.junit;
      ctx.out.line(`junit ${choice.junit}`);
    }
  } else if (choice.lcov || choice.junit) {
    ctx.out.warn(`run ${done.runId} has no reports: its tests did not run`);
  }
  ctx.out.set('reports', reports);

  let code = done.outcome === 'success' ? EXIT_OK : EXIT_FAILED;
  if (choice.failUnder !== undefined) {
    const lines = results?.coverage.lines;
    const met = lines !== undefined && lines >= choice.failUnder;
    ctx.out.line(`coverage bar ${choice.failUnder}%: lines ${percent(lines)} ${met ? 'meets it' : 'is under it'}`);
    ctx.out.set('failUnder', { bar: choice.failUnder, lines: lines ?? null, met });
    if (!met) code = EXIT_FAILED;
  }
  return code;
}

export interface CiChoice extends ProjectChoice {
  dir: string;
  paths?: string[];
  write: string;
  force?: boolean;
  lcov: string;
  junit: string;
  failUnder?: number;
}

/** import → generate (tests written) → run → lcov and JUnit files → exit by the outcome and the bar. */
export async function ci(ctx: Context, choice: CiChoice): Promise<number> {
  const { project, snapshot } = await importDirectory(ctx, choice.dir, choice);
  const { test } = await generate(ctx, {
    projectId: project.id,
    snapshotId: snapshot.snapshotId,
    paths: choice.paths,
    write: choice.write,
    force: choice.force,
  });
  if (test.files.length === 0) {
    ctx.out.warn('no test could be kept: nothing to run');
    return EXIT_FAILED;
  }
  return run(ctx, {
    testId: test.testId,
    wait: true,
    lcov: choice.lcov,
    junit: choice.junit,
    failUnder: choice.failUnder,
  });
}

export function isServiceError(error: unknown): error is VouchError {
  return error instanceof VouchError;
}
