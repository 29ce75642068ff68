/**
 * DeepLabCut's `.h5`: pandas' PyTables "table" format. The dataset `df_with_missing/table` is a compound of `index`
 * (the frame number, or the labelled image's path) and `values_block_0` (float64 × columns). The column labels are a
 * pickle (protocol 0) in the attribute `values_block_0_kind`, or in the group's `non_index_axes`.
 */
import type { Dataset, Group } from 'h5wasm/node';
import { type DlcLabel, dlcColumns, frameOfImage } from './dlc-columns.js';
import { attributeText } from './h5-attributes.js';
import { PickleError, type PickleValue, readPickle } from './pickle.js';
import { denseOrSparse, emptyValues, fileError, type ParsedPose } from './pose-data.js';

/** h5wasm's module (its `ready` value): the raw read below uses it. */
interface H5Module {
  _malloc(size: number): number;
  _free(pointer: number): void;
  HEAPU8: Uint8Array;
  get_dataset_data(
    fileId: bigint,
    path: string,
    count: bigint[] | null,
    offset: bigint[] | null,
    strides: bigint[] | null,
    pointer: bigint,
  ): number;
}

interface Member {
  name: string;
  offset: number;
  size: number;
  type: number;
  signed?: boolean;
  array_type?: { type: number; size: number; shape: number[] };
}

/** HDF5 type classes as h5wasm's metadata numbers them. */
const INTEGER = 0;
const FLOAT = 1;
const STRING = 3;
const ARRAY = 10;
/** Rows read at a time: the compound rows are copied out of the WebAssembly heap in slices. */
const ROWS_PER_READ = 8192;

function labelsOf(pickle: string, where: string): DlcLabel[] {
  let value: PickleValue;
  try {
    value = readPickle(pickle);
  } catch (error) {
    throw fileError(
      `The column labels (${where}) cannot be read: ${error instanceof PickleError ? error.message : error}`,
    );
  }
  // non_index_axes is [(1, [labels…])]; values_block_0_kind is [labels…].
  if (Array.isArray(value) && value.length === 1 && Array.isArray(value[0]) && value[0][0] === 1) value = value[0][1]!;
  if (!Array.isArray(value)) throw fileError(`The column labels (${where}) are not a list.`);
  return value.map((label, i) => {
    if (
      !Array.isArray(label) ||
      (label.length !== 3 && label.length !== 4) ||
      !label.every((part) => typeof part === 'string')
    ) {
      throw fileError(
        `Column ${i + 1}'s label (${where}) is not (scorer, [individual,] body part, coord): ${JSON.stringify(label).slice(0, 80)}.`,
      );
    }
    const parts = label as string[];
    return parts.length === 4
      ? { scorer: parts[0]!, individual: parts[1]!, bodypart: parts[2]!, coord: parts[3]! }
      : { scorer: parts[0]!, individual: null, bodypart: parts[1]!, coord: parts[2]! };
  });
}

export function readDlcH5(module: H5Module, group: Group, table: Dataset): ParsedPose {
  const metadata = table.metadata as unknown as {
    size: number;
    shape: number[];
    compound_type?: { members: Member[] };
  };
  const members = metadata.compound_type?.members ?? [];
  const index = members.find((member) => member.name === 'index');
  const blocks = members
    .filter((member) => /^values_block_\d+$/.test(member.name))
    .sort((a, b) => Number(a.name.slice(13)) - Number(b.name.slice(13)));
  if (!index || blocks.length === 0) {
    throw fileError('The pandas table has no "index" and "values_block_0" fields: not a DeepLabCut table.');
  }
  const labels: DlcLabel[] = [];
  const blockWidths: number[] = [];
  for (const block of blocks) {
    const kind = attributeText(table, `${block.name}_kind`);
    const width = block.type === ARRAY ? block.array_type!.shape.reduce((a, b) => a * b, 1) : 1;
    const elementType = block.type === ARRAY ? block.array_type!.type : block.type;
    const elementSize = block.type === ARRAY ? block.array_type!.size : block.size;
    if (elementType !== FLOAT || (elementSize !== 8 && elementSize !== 4)) {
      throw fileError(`The table's ${block.name} does not hold floating-point numbers.`);
    }
    const blockLabels = kind !== null ? labelsOf(kind, `${block.name}_kind`) : null;
    if (blockLabels && blockLabels.length !== width) {
      throw fileError(`${block.name} has ${width} columns but ${blockLabels.length} labels.`);
    }
    if (blockLabels) labels.push(...blockLabels);
    blockWidths.push(width);
  }
  if (labels.length === 0) {
    const axes = attributeText(group, 'non_index_axes');
    if (axes === null)
      throw fileError('The table has no column labels (neither values_block_0_kind nor non_index_axes).');
    labels.push(...labelsOf(axes, 'non_index_axes'));
  }
  const totalWidth = blockWidths.reduce((a, b) => a + b, 0);
  if (labels.length !== totalWidth) {
    throw fileError(`The table has ${totalWidth} value columns but ${labels.length} column labels.`);
  }
  const columns = dlcColumns(
    labels,
    (column) => `Column ${column + 1} (${labels[column]!.bodypart}, ${labels[column]!.coord})`,
  );
  const rows = metadata.shape[0] ?? 0;
  if (rows === 0) throw fileError('The DeepLabCut table has no rows.');
  const values = emptyValues(columns.index.size, rows);
  const frames = new Int32Array(rows);
  let images = false;
  const text = new TextDecoder();
  for (let start = 0; start < rows; start += ROWS_PER_READ) {
    const count = Math.min(ROWS_PER_READ, rows - start);
    const bytes = readRows(module, table, metadata.size, start, count);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let r = 0; r < count; r++) {
      const base = r * metadata.size;
      let frame: number | null;
      if (index.type === INTEGER) {
        frame =
          index.size === 8
            ? Number(view.getBigInt64(base + index.offset, true))
            : view.getInt32(base + index.offset, true);
      } else if (index.type === STRING) {
        images = true;
        const raw = bytes.subarray(base + index.offset, base + index.offset + index.size);
        const end = raw.indexOf(0);
        const name = text.decode(end < 0 ? raw : raw.subarray(0, end));
        frame = frameOfImage(name);
        if (frame === null)
          throw fileError(
            `Row ${start + r + 1}: the index "${name.slice(0, 80)}" is not an image name ending in a frame number.`,
          );
      } else {
        throw fileError("The table's index is neither numbers nor image names.");
      }
      frames[start + r] = frame;
      let column = 0;
      for (let b = 0; b < blocks.length; b++) {
        const block = blocks[b]!;
        const size = block.type === ARRAY ? block.array_type!.size : block.size;
        for (let c = 0; c < blockWidths[b]!; c++, column++) {
          const at = base + block.offset + c * size;
          values[columns.target[column]!]![start + r] =
            size === 8 ? view.getFloat64(at, true) : view.getFloat32(at, true);
        }
      }
    }
  }
  return {
    format: 'dlc_h5',
    scorer: columns.scorer,
    individuals: columns.index.individuals,
    bodyparts: columns.index.bodyparts,
    keypoints: columns.index.keypoints,
    edges: [],
    hasLikelihood: columns.hasLikelihood,
    rows,
    rowFrames: images ? frames : denseOrSparse(frames),
    values,
  };
}

/** Rows [start, start + count) of a compound dataset as the bytes of their C structs (h5wasm's own hyperslab read). */
function readRows(module: H5Module, table: Dataset, rowSize: number, start: number, count: number): Uint8Array {
  const bytes = rowSize * count;
  const pointer = module._malloc(bytes);
  try {
    module.get_dataset_data(table.file_id, table.path, [BigInt(count)], [BigInt(start)], [1n], BigInt(pointer));
    return module.HEAPU8.slice(pointer, pointer + bytes);
  } finally {
    module._free(pointer);
  }
}
