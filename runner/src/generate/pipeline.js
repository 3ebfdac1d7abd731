'use strict';
// One generation job from submitted files to verified tests:
//   0. read the package (package/package-model.js): its targets in order, its programs, what is
//      skipped and why, which files the suite's folder holds
//   1. classify and parse every target; report what is not JavaScript or does not parse
//   2. instrument the JavaScript and load each module in a child process; report load failures
//   3. list what each module exports and search for inputs that reach new code
//   4. keep the smallest set of scenarios that holds that coverage and write them as Jest tests
//   5. run Jest over sources and tests until every kept test passes twice; report its coverage

const { classifySource } = require('./analysis/source-kind');
const { SourceSyntaxError } = require('./analysis/parse');
const { isTypeScript, stripTypes } = require('../transform');
const { analyzeSource } = require('./analysis/analyze');
const { instrumentSource } = require('./execution/instrument');
const { Executor } = require('./execution/executor');
const { planBindings } = require('./analysis/bindings');
const { buildTargets } = require('./analysis/targets');
const { InputPool } = require('./search/input-pool');
const { ObservedValues } = require('./execution/observed-values');
const { ScenarioFactory, makerCalls } = require('./search/scenario-factory');
const { Search } = require('./search/search');
const { minimizeCorpus } = require('./selection/minimize');
const { Shrinker } = require('./selection/shrink');
const { Strengthener } = require('./selection/strengthen');
const { growingConstants } = require('./selection/mutant-inputs');
const { testFileFor, requestFrom, prepareTestCase, uniqueNames } = require('./writing/test-writer');
const { jestConfigFile, packageJsonWithJestConfig, CONFIG_PATH, CJS_CONFIG_PATH } = require('./writing/jest-config');
const { verifySuites, startLaneRunners, GROUP_TEST_FILES } = require('./verification/verify');
const { buildSummary } = require('./summary');
const { problem } = require('./problems');
const { Workspace } = require('./workspace');
const { Rng } = require('./search/rng');
const { planBudget, verificationWallMs, busyStretch, testedBudgetMs } = require('./budget');
const { clock } = require('./budget-clock');
const { PackageModel } = require('./package/package-model');
const { plainSource } = require('./execution/plain-source');
const { exploreProgram } = require('./program/cli-runner');
const { programCase, runsHere, testPathFor } = require('./program/cli-test-writer');
const { suiteText } = require('./verification/suite-text');
const { holdRunsTo } = require('./verification/run-suite');

const LIMITS = { syncMs: 250, asyncMs: 500, callbackMs: 50, loadMs: 2000 };
const CHILD_MEMORY_MB = 512;
const ROW_SWEEP_MS = 2500;
// The most time programs (package.json's bin) are run for, before the search: of budget time and
// of wall time both. On a busy machine budget time runs slow, and 4 s of it took the whole wall
// limit: the budget was cut to fit, and the search that followed ran no scenario (mkdirp@1.0.4 at
// a load of 25 on 2 cores kept only its program's tests).
const PROGRAM_PHASE_MS = 4000;

// TypeScript is analysed without its types (src/transform.js); a file babel cannot parse is a
// syntax error at babel's position.
function analyzableCode(file) {
  if (!isTypeScript(file.path)) return file.content;
  try {
    return stripTypes(file.path, file.content);
  } catch (error) {
    if (!error.loc) throw error;
    const message = String(error.message)
      .split('\n')[0]
      .replace(/^[^:]*: /, '')
      .replace(/\s*\(\d+:\d+\)$/, '');
    throw new SourceSyntaxError(message, error.loc.line, error.loc.column + 1);
  }
}

// Step 1: which files are JavaScript (or TypeScript) that parses. Support files (JSON, text,
// .d.ts) are only written beside the sources.
function analyzeFiles(files, problems, log) {
  const analysed = [];
  for (const file of files) {
    const source = classifySource(file.path, file.content);
    if (source.kind === 'foreign') problems.push(problem(file.path, 'not_javascript', source.reason));
    if (source.kind !== 'javascript') continue;
    try {
      const code = analyzableCode(file);
      analysed.push({ path: file.path, content: file.content, code, analysis: analyzeSource(code) });
    } catch (error) {
      if (error instanceof SourceSyntaxError)
        problems.push(problem(file.path, 'syntax_error', error.message, { line: error.line, column: error.column }));
      else problems.push(internalProblem(file.path, 'analysing', error, log));
    }
  }
  return analysed;
}

// A fault of generation itself on one file stays that file's problem; the stack goes to the log.
function internalProblem(path, doing, error, log) {
  log(`internal error ${doing} ${path}: ${(error && error.stack) || error}`);
  return problem(path, 'internal_error', `generation failed ${doing} this file: ${(error && error.message) || error}`);
}

// Step 2: instrumented code for the child; the suite's other JavaScript files (not targets:
// programs, files over the cap, skipped files a target needs) as they run, without coverage;
// JSON files stay loadable by `require`.
function executionFiles(files, analysed, workspace, problems, log) {
  const childFiles = [];
  const coveragePaths = [];
  const instrumented = [];
  const targeted = new Set(analysed.map((file) => file.path));
  for (const file of files) {
    if (targeted.has(file.path) || classifySource(file.path, file.content).kind !== 'javascript') continue;
    try {
      childFiles.push({
        path: workspace.execPath(file.path),
        code: plainSource(workspace.execPath(file.path), file.content),
      });
    } catch (error) {
      // Only a target's own problems are reported; this file fails where a target requires it.
      log(`could not compile ${file.path}, which is not a target: ${String(error.message).split('\n')[0]}`);
    }
  }
  for (const file of analysed) {
    const absolute = workspace.execPath(file.path);
    try {
      const { code, fileCoverage, counter } = instrumentSource(absolute, file.content, { esm: file.analysis.esm });
      childFiles.push({ path: absolute, code });
      coveragePaths.push(absolute);
      instrumented.push({ ...file, absolute, fileCoverage, counter });
    } catch (error) {
      problems.push(
        problem(file.path, 'syntax_error', `babel could not compile the file: ${error.message.split('\n')[0]}`),
      );
    }
  }
  for (const file of files.filter((f) => f.path.toLowerCase().endsWith('.json'))) {
    childFiles.push({ path: workspace.execPath(file.path), json: file.content });
  }
  return { childFiles, coveragePaths, instrumented };
}

function coverageKeyCount(fileCoverage) {
  return (
    Object.keys(fileCoverage.s).length +
    Object.keys(fileCoverage.f).length +
    Object.values(fileCoverage.b).reduce((sum, paths) => sum + paths.length, 0)
  );
}

function staticExportNames(analysis) {
  return analysis.exports.map((info) => (info.name === null ? 'module.exports' : info.name));
}

// Tries for a file that fails to load on its own: loads with one of the files of its require
// cycle first, at most this many of them.
const MAX_CYCLE_ENTRIES_TRIED = 3;

// Loads a file; when that throws, loads it again after each of its cycle's entries (cycleEntries:
// package paths, most likely first) until one works. Returns { loaded, preload: [package path] }.
async function loadFile(file, executor, cycleEntries, execPath) {
  const loaded = await executor.load(file.absolute, LIMITS.loadMs + 2000);
  if (loaded.ok || !loaded.error || loaded.error.code !== 'load_error') return { loaded, preload: [] };
  for (const entry of cycleEntries(file.path).slice(0, MAX_CYCLE_ENTRIES_TRIED)) {
    const retried = await executor.load(file.absolute, LIMITS.loadMs + 2000, [execPath(entry)]);
    if (retried.ok) return { loaded: retried, preload: [entry] };
  }
  return { loaded, preload: [] };
}

// Step 2b/3: load each module, plan its bindings and targets.
async function loadModules(instrumented, executor, problems, observed, rng, log, { cycleEntries, execPath }) {
  const modules = [];
  for (const file of instrumented) {
    const { loaded, preload } = await loadFile(file, executor, cycleEntries, execPath);
    const module = {
      path: file.path,
      file,
      exportNames: staticExportNames(file.analysis),
      functionsFound: 0,
      targets: [],
      preload,
    };
    modules.push(module);
    if (preload.length) log(`load: ${file.path} loads after ${preload.join(', ')}, as its require cycle does`);
    if (!loaded.ok) {
      const error = loaded.error || { code: 'timeout', message: 'loading the module did not finish' };
      problems.push(problem(file.path, error.code, error.message, { module: error.module }));
      continue;
    }
    try {
      planModule(module, file, loaded, observed, rng);
    } catch (error) {
      problems.push(internalProblem(file.path, 'planning tests for', error, log));
      delete module.entry;
      module.targets = [];
    }
  }
  return modules;
}

function planModule(module, file, loaded, observed, rng) {
  const bindings = planBindings(file.path, file.analysis.esm, loaded.shape);
  const pool = new InputPool(file.analysis.literals, observed, rng, loaded.regexes || []);
  loaded.samples.forEach((sample) => observed.addSample(sample));
  module.entry = file.absolute;
  module.fakeTimers = file.analysis.schedulesTimers;
  module.bindings = bindings.map(({ name, from, key }) => ({ name, from, key }));
  module.bindingNames = bindings.map((binding) => binding.name);
  module.pool = pool;
  module.targets = buildTargets(file, file.analysis, bindings);
  module.exportNames = module.targets.map((target) => target.label);
  module.functionsFound = module.targets
    .filter((target) => target.kind !== 'value')
    .reduce((sum, target) => sum + 1 + (target.members ? target.members.length : 0), 0);
  module.classRefs = new Map(
    module.targets
      .filter((target) => target.kind === 'class' && target.className)
      .map((target) => [target.className, target.callee]),
  );
}

// A function or class that a module only re-exports (an index, `module.exports = { compare }`)
// is searched where it is defined, when that module is a target too: the search's time is not
// split between copies of the same code (semver's index.js and preload.js re-export 40 functions
// each of its other files). A module left with none keeps its first target, so that a test still
// loads it. Returns how many targets were dropped.
function dropReexports(modules) {
  const definedBy = new Map(); // function identity -> the module defining it, a target there
  for (const module of modules) {
    for (const target of module.targets) {
      if (target.identity && target.identity.split('#')[0] === module.file.counter)
        definedBy.set(target.identity, module);
    }
  }
  let dropped = 0;
  for (const module of modules) {
    const kept = module.targets.filter((target) => {
      const owner = target.identity ? definedBy.get(target.identity) : undefined;
      return owner === undefined || owner === module;
    });
    if (!kept.length && module.targets.length) kept.push(module.targets[0]);
    dropped += module.targets.length - kept.length;
    module.targets = kept;
    module.exportNames = kept.map((target) => target.label);
  }
  return dropped;
}

// Step 4: test files from the kept scenarios, grouped by the file of their target.
function prepareSuites(modules, corpus, model, problems, log) {
  const takenPaths = new Set();
  const suites = [];
  for (const module of modules) {
    try {
      const suite = prepareSuite(module, corpus, model, takenPaths);
      if (suite) suites.push(suite);
    } catch (error) {
      problems.push(internalProblem(module.path, 'writing tests for', error, log));
    }
  }
  return suites;
}

// The test file of one module, or null without kept scenarios. Under "type": "module" a test
// file that requires its module is a `.cjs` file, as Node would read it.
// The steps of the entries' scenarios that `test` holds, one of each expression.
function stepsOf(entries, test) {
  const steps = new Map();
  for (const entry of entries)
    for (const step of entry.scenario.steps) if (test(step)) steps.set(step.callee + (step.event || ''), step);
  return [...steps.values()];
}

function prepareSuite(module, corpus, model, takenPaths) {
  // Tests follow the order of the module's exports, then the order they were found in.
  const order = (entry) => module.targets.indexOf(entry.target);
  const entries = corpus.filter((entry) => entry.target.file === module.path).sort((a, b) => order(a) - order(b));
  if (!entries.length) return null;
  const extension = model.testFormat(module.path) === 'module' && !module.file.analysis.esm ? '.test.cjs' : '.test.js';
  const { testPath, request } = testFileFor(module.path, takenPaths, extension);
  takenPaths.add(testPath);
  // A test that sets a switch of the module (`kleur.enabled = true`), or calls a function that
  // changes a variable of the module's (analysis/module-state.js), would leave it changed for the
  // next: each test then loads the module afresh, as each scenario ran.
  const isolated =
    module.file.analysis.keepsState ||
    entries.some((entry) => entry.scenario.steps.some((step) => step.op === 'assign' || step.op === 'listen'));
  const spec = {
    sourcePath: module.path,
    request,
    preloadRequests: module.preload.map((path) => requestFrom(testPath, path)),
    esm: module.file.analysis.esm,
    bindings: module.bindings,
    fakeTimers: module.fakeTimers,
    isolated,
    // Code that writes files gets a temporary folder per test, never the package's.
    freshFolder: model.reachesFileSystem(module.path),
    // Switches of the process the tests set (`process.stderr.isTTY = true`) and events they listen
    // for on it (`process.on('deprecation', listener)`), put back after each.
    processSwitches: stepsOf(entries, (step) => step.op === 'assign' && step.callee.startsWith('process.')).map(
      (step) => step.callee,
    ),
    processEvents: stepsOf(entries, (step) => step.op === 'listen').map((step) => step.event),
  };
  const cases = uniqueNames(entries.map((entry) => prepareTestCase(entry, module.bindingNames, module.classRefs)));
  return { testPath, spec, cases };
}

// Step 3b: programs (package.json's bin) run with generated command lines; one test file each.
function programSuites(model, workspace, { nodePath, deadline, wallDeadline, log, problems }) {
  const suites = [];
  for (const program of model.programs) {
    try {
      const source = model.contents.get(program.path);
      const found = exploreProgram(program, {
        execPath: (path) => workspace.execPath(path),
        source,
        nodePath,
        expired: () => clock.now() >= deadline || Date.now() >= wallDeadline,
        inProcess: runsHere(program, source, { stdin: '' }),
      });
      log(`program ${program.name} (${program.path}): ${found.length} command line(s) with stable outcomes`);
      if (!found.length) {
        problems.push(
          problem(program.path, 'no_tests', 'no command line tried ran to completion twice with the same output'),
        );
        continue;
      }
      const extension = model.testFormat(program.path) === 'module' ? '.cjs' : '.js';
      const testPath = testPathFor(program, `.test${extension}`);
      suites.push({
        testPath,
        spec: { program, testPath, sourcePath: program.path },
        // Each command line spawned, as users run it, and where it can, run in the test's process
        // too, so that the run's coverage sees the program's code.
        cases: uniqueNames([
          ...found
            .filter(({ spawned }) => spawned)
            .map(({ scenario, outcome }) => programCase(program, scenario, outcome)),
          ...found
            .filter(({ scenario }) => runsHere(program, source, scenario))
            .map(({ scenario, outcome }) => programCase(program, scenario, outcome, true)),
        ]),
      });
    } catch (error) {
      problems.push(internalProblem(program.path, 'running the program', error, log));
    }
  }
  return suites;
}

// A module that loaded yet ends without tests says why: the search found no scenario worth a
// test, or verification dropped every test written for it.
function untestedProblems(modules, suites, verified) {
  const kept = new Set(verified.suites.map((suite) => suite.spec.sourcePath));
  const written = new Map(suites.map((suite) => [suite.spec.sourcePath, suite.testPath]));
  return modules
    .filter((module) => !kept.has(module.path))
    .map((module) =>
      written.has(module.path)
        ? problem(
            module.path,
            'no_tests',
            `every test written for it failed verification: ${droppedReason(verified, written.get(module.path))}`,
          )
        : problem(
            module.path,
            'no_tests',
            module.targets.length
              ? 'no call of its exports ran to completion twice with the same outcome'
              : 'it exports nothing to call',
          ),
    );
}

// Verification ends this long before the job's deadline, for the answer to be written.
const ANSWER_MARGIN_MS = 2000;

// Without a wall limit in the job, the budget stretches to this many times its length.
const DEFAULT_STRETCH = 1.5;
const MIN_CUT_REPORTED_MS = 1000;

// The machine was too busy for the budget to stretch enough, and the search ran until its
// deadline: the job as a whole got less done. (A search that stopped on its own lost nothing.)
function busyMachineProblem(cutMs, budgetMs, wallLimitMs) {
  const seconds = (ms) => `${Math.round(ms / 100) / 10} s`;
  return problem(
    'files',
    'timeout',
    `the machine was busy: ${seconds(cutMs)} of the ${seconds(budgetMs)} budget did not fit in the ${seconds(wallLimitMs)} wall limit, so the search for inputs, shrinking and mutant runs did less than on an idle machine`,
  );
}

const MIN_STRETCH_SHARE = 0.25;

// The wall time the budget may stretch to, from now: the job's wall limit (1.5 times the budget
// without one), less what verifying the suite needs before the deadline, if the job has one
// (suite: { testFiles, sourceBytes }, see budget.js, stretched by the share of the machine the
// job gets at the start); never less than a quarter of the wall limit. elapsedMs: wall time the
// job has already taken.
function budgetWallMs(job, suite, elapsedMs, share = 1) {
  const wallLimitMs = (job.wallLimitMs ?? DEFAULT_STRETCH * job.timeBudgetMs) - elapsedMs;
  if (job.deadlineMs == null) return wallLimitMs;
  const verifying = verificationWallMs(suite.testFiles, GROUP_TEST_FILES, suite.sourceBytes) * busyStretch(share);
  const beforeVerification = job.deadlineMs - ANSWER_MARGIN_MS - elapsedMs - verifying;
  return Math.max(MIN_STRETCH_SHARE * wallLimitMs, Math.min(wallLimitMs, beforeVerification));
}

// The bytes of JavaScript and TypeScript in the suite's folder, which every verification run
// instruments for coverage.
function suiteSourceBytes(model) {
  const code = new Set(model.code);
  return model.runPaths
    .filter((path) => code.has(path))
    .reduce((sum, path) => sum + Buffer.byteLength(model.contents.get(path)), 0);
}

// `progress({ phase, filesDone, filesTotal, testsKept })` is told when each phase starts: filesTotal
// counts the job's JavaScript and TypeScript sources, filesDone those the generator is through
// with (dropped with a problem, or tested once verification ended). startedAt: the Date.now() time
// the job's wall limit and deadline count from (bin/generate.js: its process's start, not later
// than the sandbox's wall limit starts; Node's start and reading a large job took seconds of it).
async function generateTests(job, { log = () => {}, progress = () => {}, startedAt = Date.now() } = {}) {
  const wallStarted = startedAt;
  const model = new PackageModel(job.files);
  // The budget for the sources tested, where vouchd scaled it by all the sources it sent.
  const budgetMs = testedBudgetMs(
    job,
    [...model.targets, ...model.programs.map((program) => program.path)].map((path) =>
      Buffer.byteLength(model.contents.get(path)),
    ),
  );
  // Budget time: on a busy machine it runs slower than the wall clock (budget-clock.js), up to the
  // wall limit, and never so far that verification is left less than it needs before the job's
  // deadline (a test file per target and program).
  const wallLimitMs = budgetWallMs(
    { ...job, timeBudgetMs: budgetMs },
    { testFiles: model.targets.length + model.programs.length, sourceBytes: suiteSourceBytes(model) },
    Date.now() - wallStarted,
    clock.sample(),
  );
  const started = clock.start(budgetMs, wallLimitMs);
  // When each phase ended, for the log line `phases: …` (where a job's time goes).
  const phases = [];
  let phaseStart = started;
  const phase = (name) => {
    const now = clock.now();
    phases.push(`${name} ${now - phaseStart}`);
    phaseStart = now;
  };
  const problems = [];
  const rng = new Rng();
  if (!model.code.length)
    problems.push(problem('files', 'no_tests', 'the files hold no JavaScript or TypeScript source to test'));
  log(
    `package: ${model.targets.length} target(s) of ${model.candidateCount} (cap ${model.cap}), ${model.programs.length} program(s), ${model.skipped.length} skipped, ${model.runPaths.length} of ${job.files.length} files in the suite's folder; budget ${budgetMs} ms of ${job.timeBudgetMs}`,
  );
  const byPath = new Map(job.files.map((file) => [file.path, file]));
  const suiteFiles = model.runPaths.map((path) => byPath.get(path));
  // Targets, and the files that should have been JavaScript but are not (to say so).
  const foreign = suiteFiles.filter((file) => classifySource(file.path, file.content).kind === 'foreign');
  const analysed = analyzeFiles([...model.targets.map((path) => byPath.get(path)), ...foreign], problems, log);
  // A module that reaches the file system through the package's other modules (an index wrapping
  // them: `mkdirp(path, opts)`) takes paths as they do: its parameters named as paths are paths.
  for (const file of analysed) if (model.reachesFileSystem(file.path)) file.analysis.paramContext.usesFileSystem = true;
  // Progress counts the files generation works on: the targets and the programs.
  const filesTotal = model.targets.length + model.programs.length;
  const report = (phase, filesDone, testsKept = 0) => progress({ phase, filesDone, filesTotal, testsKept });
  report('analysing', 0);
  const workspace = new Workspace();
  // Verification runs the suite as a run does, within a run's memory limit (run-suite.js).
  holdRunsTo(job.runLimits);
  let executor = null;
  let prestarted = [];
  try {
    workspace.writeExecFiles(suiteFiles);
    const { childFiles, coveragePaths, instrumented } = executionFiles(suiteFiles, analysed, workspace, problems, log);
    executor = new Executor(
      {
        files: childFiles,
        coveragePaths,
        limits: LIMITS,
        nodePath: job.nodePath,
        elsewhere: workspace.elsewhere,
        protectedFolders: workspace.protectedFolders(),
      },
      { memoryMb: CHILD_MEMORY_MB },
    );
    const observed = new ObservedValues();
    report('loading', filesTotal - instrumented.length - model.programs.length);
    const modules = await loadModules(instrumented, executor, problems, observed, rng, log, {
      cycleEntries: (path) => model.cycleEntries(path),
      execPath: (path) => workspace.execPath(path),
    });
    phase('load');
    const searched = modules.filter((module) => module.entry && module.targets.length).length + model.programs.length;
    report('searching', filesTotal - searched);

    const loadedModules = modules.filter((module) => module.entry);
    const reexports = dropReexports(loadedModules);
    if (reexports) log(`search: ${reexports} re-exported target(s) searched where they are defined`);
    const modulesByPath = new Map(loadedModules.map((module) => [module.path, module]));
    const targets = loadedModules.flatMap((module) => {
      const makers = makerCalls(module.targets);
      const { analysis } = module.file;
      const growing = analysis.keepsState ? growingConstants(analysis.literals) : [];
      return module.targets.map((target) => ({
        target,
        factory: new ScenarioFactory(target, module.pool, rng, makers, growing),
      }));
    });
    const totalKeys = instrumented.reduce((sum, file) => sum + coverageKeyCount(file.fileCoverage), 0);
    const search = new Search({
      modules: modulesByPath,
      targets,
      executor,
      totalKeys,
      limits: LIMITS,
      observed,
      rng,
      log,
    });
    // The search, shrinking and mutants share what loading left of the budget.
    const budget = planBudget(
      started,
      budgetMs,
      loadedModules.filter((module) => module.targets.length).length + model.programs.length,
      clock.now(),
    );
    // Programs first, for a bounded share of the search's time: each command line is two runs.
    const programs = programSuites(model, workspace, {
      nodePath: job.nodePath,
      deadline: Math.min(budget.searchDeadline, clock.now() + PROGRAM_PHASE_MS),
      wallDeadline: Date.now() + PROGRAM_PHASE_MS,
      log,
      problems,
    });
    const corpus = targets.length ? await search.run(budget.searchDeadline) : [];
    // Whether the search ran until its deadline, rather than stopping on its own (everything
    // covered, or no more progress): only then could a busy machine have taken work from it.
    const searchRanOut = targets.length > 0 && clock.now() >= budget.searchDeadline;
    phase('search');
    // Verification needs at least two Jest runs: their runners start now and prime Jest (about a
    // second each) while shrinking and mutants use the child, instead of loading Jest cold then.
    // The second runs the suite as another user on another machine (verify.js).
    prestarted = corpus.length || programs.length ? startLaneRunners(workspace.workDir, workspace.elsewhere) : [];
    report('shrinking', filesTotal - searched);
    const minimal = minimizeCorpus(corpus);
    const shrunk = await new Shrinker(search, modulesByPath).shrinkAll(minimal, budget.shrinkDeadline);
    phase('shrink');
    report('mutating', filesTotal - searched);
    const mutationFiles = instrumented.map((file) => ({ ...file, loaded: modulesByPath.has(file.path) }));
    // What the suite could still gain: entries set cover dropped, the unshrunk originals of shrunk
    // ones (a boundary value shrinking turned into 0), the search's alternates.
    const candidates = [...corpus.filter((entry) => !shrunk.includes(entry)), ...search.alternates()];
    // The mutant phase has what the search and shrinking left of the time before verification:
    // a search that stopped on its own (everything covered, or no more progress) leaves more, and
    // with 4 s fast-deep-equal's and mime-types' phases checked 38 and 27 of their sampled
    // mutants. Its deadline is checked before every run (code run with fake timers takes ~50 ms a
    // run). A module's data and rule tables get one lookup per entry first, for ROW_SWEEP_MS at most.
    const { entries: chosen, mutation } = await new Strengthener(search, mutationFiles, log).run(
      shrunk,
      candidates,
      budget.mutationDeadline,
      { rowMs: ROW_SWEEP_MS },
    );
    executor.close();
    phase('mutants');
    if (searchRanOut && clock.cutMs() >= MIN_CUT_REPORTED_MS)
      problems.push(busyMachineProblem(clock.cutMs(), budgetMs, wallLimitMs));

    const suites = [...prepareSuites(loadedModules, chosen, model, problems, log), ...programs];
    const testsGenerated = suites.reduce((sum, suite) => sum + suite.cases.length, 0);
    // A job that brings its own Jest configuration file keeps it. Under "type": "module" Node reads
    // a jest.config.js as an ES module: the configuration is then a .cjs file. Where the package.json
    // beside it has a "jest" key, the configuration replaces that key instead (jest-config.js).
    const configPath =
      model.testFormat(model.root === null || model.root === '' ? 'package.json' : `${model.root}/package.json`) ===
      'module'
        ? CJS_CONFIG_PATH
        : CONFIG_PATH;
    const ownConfig = job.files.some(
      (file) => [CONFIG_PATH, CJS_CONFIG_PATH].includes(file.path) && model.runPaths.includes(file.path),
    );
    const transformNeeds = {
      esm: instrumented.some((file) => file.analysis.esm),
      typescript: instrumented.some((file) => isTypeScript(file.path)),
    };
    const rootManifest = model.runPaths.includes('package.json') ? byPath.get('package.json') : null;
    const config = ownConfig
      ? null
      : (rootManifest && packageJsonWithJestConfig(rootManifest, transformNeeds)) || {
          ...jestConfigFile(transformNeeds),
          path: configPath,
        };
    // A returned package.json stands for the submitted one in the suite's folder.
    const runPaths = config ? model.runPaths.filter((path) => path !== config.path) : model.runPaths;
    const sources = runPaths.map((path) => byPath.get(path)).map(({ path, content }) => ({ path, content }));
    report('verifying', filesTotal - searched);
    const verified = suites.length
      ? await verifySuites({
          workDir: workspace.workDir,
          sources,
          config,
          suites,
          deadline: budget.deadline,
          nodePath: job.nodePath,
          log,
          prestarted,
          elsewhere: workspace.elsewhere,
          hardDeadline: job.deadlineMs != null ? wallStarted + job.deadlineMs - ANSWER_MARGIN_MS : Infinity,
        })
      : { suites: [], coverage: null, files: [], dropped: null, reasons: new Map(), cut: 0, groups: 0 };
    if (verified.cut)
      problems.push(
        problem(
          'files',
          'timeout',
          verified.groups > 1
            ? `verification reached the wall limit: the kept tests of ${verified.cut} of its ${verified.groups} groups of test files passed one run, not two`
            : 'verification reached the wall limit: the kept tests passed one run of the suite, not two',
        ),
      );
    phase('verify');
    problems.push(
      ...untestedProblems(
        loadedModules,
        suites.filter((suite) => !suite.spec.program),
        verified,
      ),
    );
    problems.push(...untestedPrograms(programs, verified));

    const files = verified.suites.length
      ? [
          ...verified.suites.map((suite) => ({ path: suite.testPath, content: suiteText(suite) })),
          ...(config ? [config] : []),
        ]
      : [];
    report(
      'writing',
      filesTotal,
      verified.suites.reduce((sum, suite) => sum + suite.cases.length, 0),
    );
    const summary = buildSummary({
      modules,
      testsGenerated,
      suites: verified.suites,
      coverage: verified.coverage,
      files: verified.files,
      problems,
      mutation,
      model,
    });
    log(
      `done in ${Date.now() - wallStarted} ms (${clock.now() - started} ms of budget time): ${summary.testsKept}/${testsGenerated} tests kept`,
    );
    log(`phases (ms of budget time): ${phases.join(', ')}`);
    // `sources`: the submitted files the suite runs with (skipped ones nothing needs are left out).
    return { files, sources: runPaths, summary };
  } finally {
    if (executor) executor.close();
    prestarted.forEach((runner) => runner.stop());
    workspace.remove();
    clock.stop();
  }
}

// Why verification kept no test of a test file: its group's reason, or the suite's.
function droppedReason(verified, testPath) {
  return (verified.reasons && verified.reasons.get(testPath)) || verified.dropped || 'the suite did not pass';
}

// A program whose tests verification dropped says so.
function untestedPrograms(programs, verified) {
  const kept = new Set(verified.suites.map((suite) => suite.testPath));
  return programs
    .filter((suite) => !kept.has(suite.testPath))
    .map((suite) =>
      problem(
        suite.spec.program.path,
        'no_tests',
        `every test written for the program failed verification: ${droppedReason(verified, suite.testPath)}`,
      ),
    );
}

module.exports = { generateTests, budgetWallMs, dropReexports };
