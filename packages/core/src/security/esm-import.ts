/**
 * `import()` of an ES module from a real CommonJS file that Node's own `require` compiled.
 *
 * Why a file of its own: the built package runs its bundle through a `vm.Script` (V8's code
 * cache, src/compile-cache/load-bundle.ts), and an `import()` compiled there has no loader
 * (`ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING`; Node's `USE_MAIN_CONTEXT_DEFAULT_LOADER` is
 * experimental and lost with cached code). So scripts/bundle-core.mjs builds this file beside
 * the bundle (`dist/bundle/esm-import.js`) and the bundle `require`s it when an ES module is
 * first needed. From the sources (ts-jest, ts-node) it is an ordinary module.
 *
 * @example
 * const jose = await importEsm<JoseModule>('jose');   // JoseModule: jose.ts's type of it
 */
export function importEsm<T>(specifier: string): Promise<T> {
  return import(specifier) as Promise<T>;
}
