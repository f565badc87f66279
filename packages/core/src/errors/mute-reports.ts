/**
 * The key of the app's method that stops and restarts reports of unexpected errors to its logger,
 * for `checkContract`: a 500 found while shrinking is the same failure again at every step, and
 * its stack is printed once, when first seen. Not a public name: a symbol, so user code and the
 * app's type do not see it.
 */
export const MUTE_ERROR_REPORTS = Symbol('tern.muteErrorReports');
