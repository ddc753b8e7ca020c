/**
 * jest's module runtime (jest.config.js `runtime`), with V8's code cache for CommonJS modules.
 *
 * jest loads every module afresh for each test file (its module registry is the file's own), and compiles
 * each CommonJS module (most packages: koa, knex, pg, ajv, ioredis, bullmq…) with a new vm.Script. V8's own
 * compilation cache never answers those: a script with an importModuleDynamically callback is unique to it.
 * A profile of the whole suite found 43 s of its CPU in that compilation, the same few megabytes of packages
 * parsed again by every file. Here each jest worker keeps the code cache of what its files compiled, taken
 * when a file is done (so it holds the functions the file ran too), and later files of the worker start from
 * it. Only the compilation changes: every file still gets fresh module instances.
 *
 * A source that contains `import(` is compiled as before: a script made from a code cache loses its dynamic
 * import callback (Node 20 then throws "A dynamic import callback was not specified").
 */
const vm = require('node:vm');
const { default: Runtime } = require('jest-runtime');
const { handlePotentialSyntaxError } = require('@jest/transform');

/** Per jest worker: file name → the wrapped source and its code cache. */
const codeCache = new Map();

class CodeCachingRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    /** Scripts this file compiled without a cache: their code cache is taken at teardown. */
    this.uncached = [];
  }

  // jest-runtime's own, but for the code cache.
  createScriptFromCode(scriptSource, filename) {
    try {
      const scriptFilename = this._resolver.isCoreModule(filename) ? `jest-nodejs-core-${filename}` : filename;
      const source = this.wrapCodeInModuleWrapper(scriptSource);
      const cacheable = !source.includes('import(');
      const known = cacheable ? codeCache.get(scriptFilename) : undefined;
      const cachedData = known !== undefined && known.source === source ? known.data : undefined;
      const script = new vm.Script(source, {
        columnOffset: this._fileTransforms.get(filename)?.wrapperLength,
        displayErrors: true,
        filename: scriptFilename,
        cachedData,
        importModuleDynamically: async (specifier) => {
          const context = this._environment.getVmContext?.();
          if (!context) throw new Error('Test environment has been torn down');
          return this.linkAndEvaluateModule(await this.resolveModule(specifier, scriptFilename, context));
        },
      });
      if (cacheable && (cachedData === undefined || script.cachedDataRejected)) this.uncached.push({ filename: scriptFilename, source, script });
      return script;
    } catch (error) {
      throw handlePotentialSyntaxError(error);
    }
  }

  teardown() {
    for (const { filename, source, script } of this.uncached) codeCache.set(filename, { source, data: script.createCachedData() });
    this.uncached = [];
    return super.teardown();
  }
}

module.exports = CodeCachingRuntime;
