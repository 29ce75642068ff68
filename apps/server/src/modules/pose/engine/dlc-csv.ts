/**
 * DeepLabCut's CSV: header rows `scorer`, [`individuals`,] `bodyparts`, `coords`, then one row a frame. The first
 * column is the index — the frame number of a prediction, or the image path of a hand-labelled CollectedData file
 * (newer versions split that path over three index columns, left empty in the header rows).
 *
 * Short rows are read as pandas reads them (DeepLabCut and SLEAP both load these files with `pandas.read_csv`): the
 * cells a row leaves out at its end are empty — a data row's missing points, a scorer row's columns of the scorer
 * before them. Such files occur: SLEAP's own DeepLabCut test files have a scorer row and an unlabelled image's row
 * shorter than the coords row. The coords row says how many columns there are; a row longer than it is an error.
 */
import { type DlcLabel, dlcColumns, frameOfImage } from './dlc-columns.js';
import { cellNumber, csvCells, denseOrSparse, emptyValues, fileError, type ParsedPose } from './pose-data.js';

/** True when the text starts like a DeepLabCut CSV (decides the format, not the file's name). */
export const looksLikeDlcCsv = (firstLine: string) => csvCells(firstLine)[0]?.trim() === 'scorer';

export function parseDlcCsv(lines: string[]): ParsedPose {
  const multiAnimal = csvCells(lines[1] ?? '')[0]?.trim() === 'individuals';
  const names = multiAnimal ? ['scorer', 'individuals', 'bodyparts', 'coords'] : ['scorer', 'bodyparts', 'coords'];
  const width = csvCells(lines[names.length - 1] ?? '').length;
  const header = names.map((name, i) => {
    const cells = csvCells(lines[i] ?? '');
    if (cells[0]?.trim() !== name) {
      throw fileError(
        `Header row ${i + 1} must start with "${name}" (DeepLabCut's column index), not "${cells[0] ?? ''}".`,
      );
    }
    // Only the scorer row may stop early; its last scorer goes on over the columns it leaves out.
    if (cells.length > width || (cells.length < width && name !== 'scorer')) {
      throw fileError(`Header row ${i + 1} has ${cells.length} cells; the coords row has ${width}.`);
    }
    const last = cells.length > 1 ? cells[cells.length - 1]! : '';
    while (cells.length < width) cells.push(last);
    return cells;
  });
  const row0 = header[0]!;
  let indexColumns = 1;
  while (
    indexColumns < row0.length &&
    row0[indexColumns] === '' &&
    header.every((cells) => cells[indexColumns] === '')
  ) {
    indexColumns++;
  }
  const at = (cells: string[], column: number) => cells[column]!.trim();
  const labels: DlcLabel[] = [];
  for (let column = indexColumns; column < row0.length; column++) {
    const [scorer, individual, bodypart, coord] = multiAnimal
      ? header.map((cells) => at(cells, column))
      : [at(header[0]!, column), null, at(header[1]!, column), at(header[2]!, column)];
    labels.push({ scorer: scorer!, individual: individual ?? null, bodypart: bodypart!, coord: coord! });
  }
  const columns = dlcColumns(labels, (column) => `Column ${column + indexColumns + 1}`);
  const first = header.length;
  const rows = lines.length - first;
  const values = emptyValues(columns.index.size, rows);
  const frames = new Int32Array(rows);
  let kept = 0;
  let images = false;
  for (let line = first; line < lines.length; line++) {
    const cells = csvCells(lines[line]!);
    if (cells.length > width) {
      throw fileError(`Row ${line + 1} has ${cells.length} cells; the header has ${width}.`);
    }
    while (cells.length < width) cells.push('');
    const indexText = indexColumns === 1 ? cells[0]!.trim() : cells.slice(0, indexColumns).join('/');
    const numbered = /^\d+$/.test(indexText);
    images ||= !numbered;
    const frame = numbered ? Number(indexText) : frameOfImage(indexText);
    if (frame === null) {
      throw fileError(
        `Row ${line + 1}: the index "${indexText.slice(0, 80)}" is neither a frame number nor an image name ending in one.`,
      );
    }
    frames[kept] = frame;
    for (let column = indexColumns; column < width; column++) {
      values[columns.target[column - indexColumns]!]![kept] = cellNumber(
        cells[column]!,
        () => `Row ${line + 1}, column ${column + 1}`,
      );
    }
    kept++;
  }
  if (kept === 0) throw fileError('The file has the DeepLabCut header but no rows of points.');
  return {
    format: 'dlc_csv',
    scorer: columns.scorer,
    individuals: columns.index.individuals,
    bodyparts: columns.index.bodyparts,
    keypoints: columns.index.keypoints,
    edges: [],
    hasLikelihood: columns.hasLikelihood,
    rows: kept,
    // Labelled images are some frames of a video; numbered rows from 0 on are all of them.
    rowFrames: images ? frames.subarray(0, kept) : denseOrSparse(frames.subarray(0, kept)),
    values,
  };
}
