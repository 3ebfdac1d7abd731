// Writes generated test files into a working tree without ever overwriting a file its user
// changed: `.vouch-tests.json` in the folder records the SHA-256 of each file as vouch wrote it.
// A file may be replaced only while it still has that hash (or when it already holds the new
// content); a file vouch never wrote, or one changed since, is kept unless `force` is set.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from './errors';

export const RECORD_FILE = '.vouch-tests.json';

/**
 * written: new; updated: replaced vouch's own unchanged file; unchanged: same content; kept: changed
 * locally, left alone; overwritten: changed locally, replaced by force.
 */
export type WriteStatus = 'written' | 'updated' | 'unchanged' | 'kept' | 'overwritten';

export interface WrittenFile {
  path: string;
  status: WriteStatus;
}

interface Record {
  files: { [path: string]: { sha256: string; testId: string } };
}

const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

function readRecord(file: string): Record {
  if (!fs.existsSync(file)) return { files: {} };
  try {
    const record = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (record && typeof record.files === 'object' && record.files !== null) return record as Record;
  } catch {
    // an unreadable record protects nothing: every existing file counts as changed
  }
  return { files: {} };
}

/** The files vouch wrote into `dir` (their paths in it), with the record itself. */
export function writtenPaths(dir: string): Set<string> {
  const recordPath = path.join(path.resolve(dir), RECORD_FILE);
  return new Set([RECORD_FILE, ...Object.keys(readRecord(recordPath).files)]);
}

/** UsageError when a path would leave `dir`. */
export function writeGeneratedFiles(
  dir: string,
  files: { path: string; content: string }[],
  options: { force?: boolean; testId: string },
): WrittenFile[] {
  const root = path.resolve(dir);
  fs.mkdirSync(root, { recursive: true });
  const recordPath = path.join(root, RECORD_FILE);
  const record = readRecord(recordPath);
  const results: WrittenFile[] = [];
  for (const file of files) {
    const target = path.resolve(root, file.path);
    if (!target.startsWith(root + path.sep)) throw new UsageError(`generated file ${file.path} would leave ${dir}`);
    const wanted = sha256(file.content);
    let status: WriteStatus;
    if (!fs.existsSync(target)) {
      status = 'written';
    } else {
      const current = sha256(fs.readFileSync(target));
      if (current === wanted) status = 'unchanged';
      else if (record.files[file.path]?.sha256 === current) status = 'updated';
      else status = options.force ? 'overwritten' : 'kept';
    }
    if (status === 'written' || status === 'updated' || status === 'overwritten') {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, file.content);
    }
    if (status !== 'kept') record.files[file.path] = { sha256: wanted, testId: options.testId };
    results.push({ path: file.path, status });
  }
  fs.writeFileSync(recordPath, `${JSON.stringify(record, null, 2)}\n`);
  return results;
}
