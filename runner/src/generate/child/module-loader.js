'use strict';
// A small CommonJS loader for the submitted files. Each load starts from an empty module
// registry, so every scenario sees the module as a freshly required one, the way a Jest test file
// does. Only the submitted files and Node's built-in modules resolve: a bare package name is a
// missing module, whatever happens to be installed next to the runner.

const vm = require('node:vm');
const path = require('node:path');
const { isBuiltin } = require('node:module');

const WRAPPER_PARAMS = ['exports', 'require', 'module', '__filename', '__dirname'];
const EXTENSIONS = ['', '.js', '.cjs', '.mjs', '.json', '/index.js', '/index.cjs', '/index.json'];

class MissingModuleError extends Error {
  constructor(request, fromFile) {
    super(`Cannot find module '${request}' from '${fromFile}'`);
    this.code = 'MODULE_NOT_FOUND';
    this.request = request;
  }
}

class ModuleLoader {
  // files: Map of absolute path -> { code } (instrumented JavaScript) or { json } (raw JSON text).
  constructor(files) {
    this.files = files;
    this.compiled = new Map();
  }

  resolve(request, fromFile) {
    if (isBuiltin(request)) return { builtin: request };
    if (request.startsWith('./') || request.startsWith('../') || request.startsWith('/') || request === '.' || request === '..') {
      const base = path.resolve(path.dirname(fromFile), request);
      for (const extension of EXTENSIONS) {
        if (this.files.has(base + extension)) return { file: base + extension };
      }
    }
    throw new MissingModuleError(request, fromFile);
  }

  wrapperFor(file) {
    if (!this.compiled.has(file)) {
      this.compiled.set(file, vm.compileFunction(this.files.get(file).code, WRAPPER_PARAMS, { filename: file }));
    }
    return this.compiled.get(file);
  }

  // Loads `entry` with a new, empty registry and returns its exports.
  loadFresh(entry) {
    const registry = new Map();
    const load = (file) => {
      if (registry.has(file)) return registry.get(file).exports;
      const source = this.files.get(file);
      const module = { id: file, filename: file, exports: {}, loaded: false, children: [], paths: [] };
      registry.set(file, module);
      if (source.json !== undefined) {
        module.exports = JSON.parse(source.json);
      } else {
        const requireFrom = makeRequire(file);
        module.require = requireFrom;
        this.wrapperFor(file).call(module.exports, module.exports, requireFrom, module, file, path.dirname(file));
      }
      module.loaded = true;
      return module.exports;
    };
    const makeRequire = (fromFile) => {
      const requireFrom = (request) => {
        const resolved = this.resolve(String(request), fromFile);
        return resolved.builtin ? require(resolved.builtin) : load(resolved.file);
      };
      requireFrom.resolve = (request) => {
        const resolved = this.resolve(String(request), fromFile);
        return resolved.builtin || resolved.file;
      };
      requireFrom.cache = Object.create(null);
      return requireFrom;
    };
    return load(entry);
  }
}

module.exports = { ModuleLoader };
