import { accessSync, chmodSync, constants, copyFileSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` on PATH, or null. */
export function findOnPath(name: string, pathVariable: string | undefined): string | null {
  const exe = process.platform === 'win32' ? `${name}.exe` : name;
  for (const dir of (pathVariable ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, exe);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/**
 * npm may install a package's binary without its execute bit (install scripts off, or a non-root user:
 * @ffprobe-installer's postinstall is what chmods it). Then a copy in `binDir` with mode 0755 is used.
 */
export function ensureExecutable(file: string, binDir: string): string {
  if (isExecutable(file)) return file;
  const target = path.join(binDir, path.basename(file));
  if (isExecutable(target) && statSync(target).size === statSync(file).size) return target;
  mkdirSync(binDir, { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  copyFileSync(file, partial);
  chmodSync(partial, 0o755);
  renameSync(partial, target);
  return target;
}

/** The binary shipped by an installer package (@ffmpeg-installer/linux-x64/ffmpeg…), or null. */
function packagedBinary(scope: '@ffmpeg-installer' | '@ffprobe-installer', name: string): string | null {
  const exe = process.platform === 'win32' ? `${name}.exe` : name;
  // Resolve the platform package directly: the wrappers' index.js may throw on a missing execute bit.
  try {
    const file = require.resolve(`${scope}/${process.platform}-${process.arch}/${exe}`);
    return existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/**
 * ffmpeg and ffprobe from PATH, else from the npm packages (made executable in DATA_DIR/bin when needed).
 * Throws with a clear message when neither has them.
 */
export function resolveMediaBinaries(
  dataDir: string,
  pathVariable: string | undefined = process.env.PATH,
): { ffmpeg: string; ffprobe: string } {
  const binDir = path.join(dataDir, 'bin');
  const pick = (scope: '@ffmpeg-installer' | '@ffprobe-installer', name: string) => {
    const onPath = findOnPath(name, pathVariable);
    if (onPath) return onPath;
    const packaged = packagedBinary(scope, name);
    if (packaged) return ensureExecutable(packaged, binDir);
    throw new Error(`${name} not found: install ffmpeg (e.g. apt-get install ffmpeg) or run npm ci to get ${scope}`);
  };
  return { ffmpeg: pick('@ffmpeg-installer', 'ffmpeg'), ffprobe: pick('@ffprobe-installer', 'ffprobe') };
}
