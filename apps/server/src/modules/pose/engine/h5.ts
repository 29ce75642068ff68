/**
 * Pose files in HDF5, read with h5wasm (the HDF5 C library compiled to WebAssembly; never a parser of our own):
 * DeepLabCut's pandas table and SLEAP's analysis file. Runs in the pose worker thread.
 */
import h5wasm, { type Dataset, type File, type Group } from 'h5wasm/node';
import { readDlcH5 } from './dlc-h5.js';
import { fileError, type ParsedPose, PoseFileError } from './pose-data.js';
import { readSleapH5 } from './sleap-h5.js';

/** HDF5's signature, at the start of the file or of a user block (512, 1024, … bytes in). */
const SIGNATURE = Buffer.from([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]);

export function isHdf5(head: Buffer): boolean {
  for (let at = 0; at + 8 <= head.length; at = at === 0 ? 512 : at * 2) {
    if (head.subarray(at, at + 8).equals(SIGNATURE)) return true;
  }
  return false;
}

export async function readPoseH5(path: string, videoFrames: number | null): Promise<ParsedPose> {
  const module = await h5wasm.ready;
  let file: File;
  try {
    file = new h5wasm.File(path, 'r');
  } catch {
    throw fileError('The file starts like HDF5 but the HDF5 library cannot open it.');
  }
  try {
    return readOpened(module, file, videoFrames);
  } catch (error) {
    if (error instanceof PoseFileError) throw error;
    // The library's own complaint (a damaged object header, a checksum): the file is broken, not the server.
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    throw fileError(`The HDF5 file could not be read: ${message.slice(0, 200)}`);
  } finally {
    file.close();
  }
}

function readOpened(module: Awaited<typeof h5wasm.ready>, file: File, videoFrames: number | null): ParsedPose {
  const keys = file.keys();
  if (keys.includes('tracks')) return readSleapH5(file, videoFrames);
  const table = pandasTable(file, keys);
  if (table) return readDlcH5(module, table.group, table.dataset);
  // SLEAP's own project and predictions files (.slp) are HDF5 too, and are often what a lab has at hand.
  if (['frames', 'instances', 'points'].every((name) => keys.includes(name))) {
    throw fileError(
      'A SLEAP labels or predictions file (.slp), not an analysis file: export one from SLEAP (File → Export Analysis HDF5, or `sleap-convert --format analysis`) and import that.',
    );
  }
  throw fileError(
    `An HDF5 file, but not a pose file: it has neither "tracks" (SLEAP's analysis file) nor a pandas table "df_with_missing/table" (DeepLabCut). Top-level names: ${keys.slice(0, 10).join(', ') || 'none'}.`,
  );
}

/** DeepLabCut's key is `df_with_missing`; any top-level group holding a pandas table is accepted after it. */
function pandasTable(file: File, keys: string[]): { group: Group; dataset: Dataset } | null {
  for (const key of ['df_with_missing', ...keys.filter((key) => key !== 'df_with_missing')]) {
    const group = keys.includes(key) ? file.get(key) : null;
    if (!(group instanceof h5wasm.Group)) continue;
    const dataset = group.keys().includes('table') ? group.get('table') : null;
    if (dataset instanceof h5wasm.Dataset) return { group, dataset };
  }
  return null;
}
