'use strict';
/**
 * safe-regex2 as find-my-way sees it inside Tern's bundle (scripts/bundle-core.mjs): the real
 * package, required on the first question it has to answer. find-my-way asks it about a route's
 * regular expression (Tern registers none: converters check parameters after the match) and, as
 * it loads, about three constant expressions of its own. Those were asked of the real
 * safe-regex2 when the bundle was built, against the exact find-my-way it holds, and are
 * answered from that list (`FIND_MY_WAY_LOAD_CHECKS`, a JSON text esbuild's `define` writes in), so
 * loading Tern does not load safe-regex2 and ret (~6 ms).
 */
const checkedAtBuild = new Set(JSON.parse(FIND_MY_WAY_LOAD_CHECKS));
let safeRegex;

function isRegexSafe(re, opts) {
  if (opts === undefined && re instanceof RegExp && checkedAtBuild.has(String(re))) return true;
  safeRegex ??= require('safe-regex2');
  return safeRegex(re, opts);
}

module.exports = isRegexSafe;
module.exports.default = isRegexSafe;
module.exports.safeRegex = isRegexSafe;
