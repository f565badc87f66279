import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, isTernErrorCode, type ErrorCodeEntry, type ErrorCodeKind } from '../src/errors/codes';

/**
 * The code table (src/errors/codes.ts) and docs/errors.md checked against each other in both
 * directions, and against every `TERN_*` string the packages' sources use.
 */

const root = join(__dirname, '..', '..', '..');
const CODE = /TERN_[A-Z_]+[A-Z]/g;

/** Which docs/errors.md section documents each kind of code. */
const SECTION: Record<ErrorCodeKind, string> = {
  request: 'Errors answered to requests',
  startup: 'Errors thrown at startup',
  serving: 'Errors while serving a request',
  usage: 'Errors thrown by a call given a wrong argument',
};

interface DocumentedRow {
  code: string;
  section: string;
  /** The second column: a status (requests), a class (startup, usage) or the meaning (render). */
  second: string;
}

function documentedRows(markdown: string): DocumentedRow[] {
  const rows: DocumentedRow[] = [];
  let section = '';
  for (const line of markdown.split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) section = heading[1].trim();
    const row = /^\| `(TERN_[A-Z_]+)` \| ([^|]+) \|/.exec(line);
    if (row) rows.push({ code: row[1], section, second: row[2].trim() });
  }
  return rows;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** The second column the docs must show for a code: its status, its class, or anything. */
function expectedSecond(entry: ErrorCodeEntry): string | undefined {
  if (entry.kind === 'request') return String(entry.status);
  if (entry.kind === 'usage') return entry.error === 'TypeError' ? '`TernTypeError`' : '`TernRangeError`';
  return undefined;
}

const docs = readFileSync(join(root, 'docs', 'errors.md'), 'utf8');
const rows = documentedRows(docs);
const table = Object.entries(ERROR_CODES) as Array<[string, ErrorCodeEntry]>;

describe('the error code table and docs/errors.md', () => {
  it('documents every code of the table once, in its kind’s section, with its status or class', () => {
    const wrong: string[] = [];
    for (const [code, entry] of table) {
      const found = rows.filter((row) => row.code === code);
      if (found.length !== 1) {
        wrong.push(`${code}: documented ${found.length} times`);
        continue;
      }
      const [row] = found;
      if (row.section !== SECTION[entry.kind]) wrong.push(`${code}: under '${row.section}', expected '${SECTION[entry.kind]}'`);
      const second = expectedSecond(entry);
      if (second !== undefined && row.second !== second) wrong.push(`${code}: docs say ${row.second}, the table ${second}`);
    }
    expect(wrong).toEqual([]);
  });

  it('has in the table every code docs/errors.md documents, with the kind of its section', () => {
    const wrong = rows
      .filter((row) => !isTernErrorCode(row.code) || SECTION[ERROR_CODES[row.code].kind] !== row.section)
      .map((row) => `${row.code} (under '${row.section}')`);
    expect(wrong).toEqual([]);
  });

  /** A TERN_ name the code reads from process.env is a setting (TERN_COMPILE_CACHE), not a code. */
  function settings(): Set<string> {
    const names = new Set<string>();
    for (const dir of [...readdirSync(join(root, 'packages')).map((pkg) => join('packages', pkg, 'src')), join('bench', 'src')]) {
      for (const file of sourceFiles(join(root, dir))) {
        for (const [, name] of readFileSync(file, 'utf8').matchAll(/process\.env\.(TERN_[A-Z_]+)/g)) names.add(name);
      }
    }
    return names;
  }

  it('has in the table every code named anywhere in docs/ (environment variables aside)', () => {
    const settingNames = settings();
    const docsDir = join(root, 'docs');
    const unknown = readdirSync(docsDir)
      .filter((name) => name.endsWith('.md'))
      .flatMap((name) => [...readFileSync(join(docsDir, name), 'utf8').matchAll(CODE)].map(([code]) => ({ name, code })))
      .filter(({ code }) => !isTernErrorCode(code) && !settingNames.has(code))
      .map(({ name, code }) => `${name}: ${code}`);
    expect(unknown).toEqual([]);
  });

  it('has in the table every TERN_ string the packages’ sources use (settings aside)', () => {
    const settingNames = settings();
    const unknown = new Set<string>();
    for (const pkg of readdirSync(join(root, 'packages'))) {
      for (const file of sourceFiles(join(root, 'packages', pkg, 'src'))) {
        for (const [code] of readFileSync(file, 'utf8').matchAll(CODE)) {
          if (!isTernErrorCode(code) && !settingNames.has(code)) unknown.add(`${file.slice(root.length + 1)}: ${code}`);
        }
      }
    }
    expect([...unknown]).toEqual([]);
  });

  it('gives every request code an HTTP error status and every code a one-line meaning', () => {
    const wrong = table
      .filter(([, entry]) => (entry.kind === 'request' && !(entry.status >= 400 && entry.status <= 599)) || !/^[^\n]+$/.test(entry.meaning))
      .map(([code]) => code);
    expect(wrong).toEqual([]);
  });

  it('is frozen: the reference cannot be changed at run time', () => {
    expect(Object.isFrozen(ERROR_CODES)).toBe(true);
    expect(Object.isFrozen(ERROR_CODES.TERN_NOT_FOUND)).toBe(true);
  });
});
