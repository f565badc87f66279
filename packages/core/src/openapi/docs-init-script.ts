import { nodeCrypto } from '../http/node-crypto';

/**
 * The script that starts Swagger UI on the docs page. It is served as a file of its own rather
 * than inline so that the page's Content-Security-Policy needs no `'unsafe-inline'` and no hash
 * to keep in step with the page's bytes: `script-src 'self'` covers it, and a team replacing the
 * policy (`docsContentSecurityPolicy`) does not have to know anything about it.
 *
 * It is the same for every app: what differs (the document's URL, the redirect page) is read
 * from the page's JSON data block, which a browser never executes, so CSP does not apply to it.
 */

/** The element that carries the page's settings as JSON. */
export const DOCS_CONFIG_ELEMENT_ID = 'tern-swagger-ui-config';

/** The name the script is served under, beside swagger-ui-dist's files. */
export const DOCS_INIT_FILE = 'tern-swagger-ui-init.js';

const source = `"use strict";
(function () {
  var config = JSON.parse(document.getElementById(${JSON.stringify(DOCS_CONFIG_ELEMENT_ID)}).textContent);
  var hideTopbar = function () { return { components: { Topbar: function () { return null; } } }; };
  config.oauth2RedirectUrl = window.location.origin + config.oauth2RedirectPath;
  delete config.oauth2RedirectPath;
  config.presets = [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset];
  config.plugins = [SwaggerUIBundle.plugins.DownloadUrl, hideTopbar];
  config.layout = 'StandaloneLayout';
  window.ui = SwaggerUIBundle(config);
  window.ui.initOAuth({ usePkceWithAuthorizationCodeGrant: true });
})();
`;

/** The script's bytes, made once. */
export const DOCS_INIT_SCRIPT = Buffer.from(source, 'utf8');

let digest: string | undefined;

/**
 * A digest of the script, for its ETag and for its URL: the script changes with Tern, not with
 * swagger-ui-dist, so its URL must change when its bytes do. Made on first use (the first docs
 * page or script served), so node:crypto is not loaded by every start.
 */
export function docsInitDigest(): string {
  return (digest ??= nodeCrypto().createHash('sha256').update(DOCS_INIT_SCRIPT).digest('base64url').slice(0, 27));
}
