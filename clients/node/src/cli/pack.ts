// A directory packed as `npm pack` would pack it: npm's own file list (npm-packlist: package.json
// `files`, .npmignore, .gitignore, npm's defaults), as a gzipped tarball under `package/`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { create } from 'tar';
import { UsageError } from './errors';

// npm-packlist ships no types: a list of the paths to pack, relative, with "/".
// eslint-disable-next-line @typescript-eslint/no-require-imports
const packlist: (tree: PackTree, options?: { path: string }) => Promise<string[]> = require('npm-packlist');

/**
 * The root node of the package, as npm-packlist reads an Arborist tree: its folder, its
 * package.json and no dependency edges. With no edges, bundled dependencies are never packed, so
 * nothing of node_modules goes up (generation installs dependencies itself, from package.json).
 */
interface PackTree {
  path: string;
  package: Record<string, unknown>;
  isProjectRoot: boolean;
  edgesOut: Map<string, unknown>;
}

export interface PackedDirectory {
  files: string[];
  tarball: Buffer;
}

/**
 * UsageError when `dir` is not a folder or its package.json is not JSON. Paths in `leaveOut`
 * are not packed (the tests vouch wrote there: outputs, not sources).
 */
export async function packDirectory(dir: string, leaveOut: Set<string> = new Set()): Promise<PackedDirectory> {
  const root = path.resolve(dir);
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new UsageError(`${dir} is not a directory`);
  let manifest: Record<string, unknown> = {};
  const manifestPath = path.join(root, 'package.json');
  if (fs.existsSync(manifestPath)) {
    try {
      manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
    } catch (error) {
      throw new UsageError(`${manifestPath} is not valid JSON: ${(error as Error).message}`);
    }
  }
  const listed = await packlist(
    { path: root, package: manifest, isProjectRoot: true, edgesOut: new Map() },
    { path: root },
  );
  const files = listed.filter((file) => !file.split('/').includes('node_modules') && !leaveOut.has(file)).sort();
  if (files.length === 0) throw new UsageError(`${dir} holds no file to pack`);
  const chunks: Buffer[] = [];
  const stream = create({ gzip: true, cwd: root, portable: true, prefix: 'package' }, files);
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return { files, tarball: Buffer.concat(chunks) };
}
