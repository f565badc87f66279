import { TernError } from '../errors';

/**
 * Loads a package only the contract check needs (fast-check, ajv, ajv-formats): they are optional
 * peer dependencies of @tern/core, installed by projects that run the check, never loaded by a
 * server.
 */
export function loadOptional<T>(specifier: string, packageName: string): T {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(specifier) as T;
  } catch (err) {
    if ((err as { code?: string }).code !== 'MODULE_NOT_FOUND') throw err;
    throw new TernError(
      'TERN_CONTRACT_DEPENDENCY',
      `checkContract needs the package '${packageName}': npm install --save-dev fast-check ajv ajv-formats`,
    );
  }
}
