/**
 * The RealWorld suite on PGlite: an in-memory Postgres of this test file's own, so tests need
 * no server and never see another file's rows.
 */
import { conduitSuite } from './conduit-suite';

describe('RealWorld on PGlite (in memory)', () => {
  conduitSuite(async () => ({}));
});
