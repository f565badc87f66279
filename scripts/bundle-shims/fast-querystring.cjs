'use strict';
/**
 * fast-querystring as find-my-way sees it inside Tern's bundle (scripts/bundle-core.mjs): the
 * real package, required on first call. Tern gives find-my-way a query-string parser of its own
 * that parses nothing (the query is split off before matching), so this is never called and
 * loading Tern does not load it (~2.4 ms).
 */
let fastQuerystring;
const load = () => (fastQuerystring ??= require('fast-querystring'));

function parseOrStringify(input) {
  return load()(input);
}

module.exports = parseOrStringify;
module.exports.default = parseOrStringify;
module.exports.parse = (input) => load().parse(input);
module.exports.stringify = (input) => load().stringify(input);
