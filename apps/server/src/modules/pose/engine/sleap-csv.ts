/**
 * SLEAP's analysis CSV: one row per instance — `track, frame_idx, instance.score, <node>.x, <node>.y, <node>.score, …`.
 * Frames without an instance have no row, so the file names frames rather than covering them all. An empty track
 * (an untracked single animal) is the individual "single".
 */
import { cellNumber, csvCells, emptyValues, fileError, KeypointIndex, type ParsedPose, SINGLE } from './pose-data.js';

export const looksLikeSleapCsv = (firstLine: string) => {
  const cells = csvCells(firstLine).map((cell) => cell.trim());
  return cells.includes('frame_idx') && cells.some((cell) => cell.endsWith('.x'));
};

export function parseSleapCsv(lines: string[]): ParsedPose {
  const header = csvCells(lines[0]!).map((cell) => cell.trim());
  const frameColumn = header.indexOf('frame_idx');
  const trackColumn = header.indexOf('track');
  const nodes: { name: string; x: number; y: number; score: number }[] = [];
  header.forEach((cell, column) => {
    if (!cell.endsWith('.x')) return;
    const name = cell.slice(0, -2);
    const y = header.indexOf(`${name}.y`);
    if (y < 0) throw fileError(`Column "${cell}" has no "${name}.y" beside it.`);
    nodes.push({ name, x: column, y, score: header.indexOf(`${name}.score`) });
  });
  for (const cell of header) {
    if (cell.endsWith('.y') && !header.includes(`${cell.slice(0, -2)}.x`)) {
      throw fileError(`Column "${cell}" has no "${cell.slice(0, -2)}.x" beside it.`);
    }
  }
  const hasLikelihood = nodes.every((node) => node.score >= 0);
  // First pass: which track each row is, and the frames; then one column per keypoint over the frames met.
  const rowTrack: string[] = [];
  const rowFrame: number[] = [];
  for (let line = 1; line < lines.length; line++) {
    const cells = csvCells(lines[line]!);
    if (cells.length !== header.length) {
      throw fileError(`Row ${line + 1} has ${cells.length} cells; the header has ${header.length}.`);
    }
    const frameText = cells[frameColumn]!.trim();
    if (!/^\d+$/.test(frameText))
      throw fileError(`Row ${line + 1}: frame_idx "${frameText.slice(0, 40)}" is not a frame number.`);
    rowFrame.push(Number(frameText));
    rowTrack.push(trackColumn >= 0 ? cells[trackColumn]!.trim() || SINGLE : SINGLE);
  }
  if (rowFrame.length === 0) throw fileError('The SLEAP CSV has a header but no instances.');
  const frames = [...new Set(rowFrame)].sort((a, b) => a - b);
  const rowOfFrame = new Map(frames.map((frame, row) => [frame, row]));
  const index = new KeypointIndex();
  const tracks = [...new Set(rowTrack)];
  const keypointOf = tracks.map((track) => nodes.map((node) => index.index(track, node.name)));
  const values = emptyValues(index.size, frames.length);
  const taken = new Set<string>();
  for (let line = 1; line < lines.length; line++) {
    const cells = csvCells(lines[line]!);
    const track = rowTrack[line - 1]!;
    const row = rowOfFrame.get(rowFrame[line - 1]!)!;
    const key = `${track}\u0000${row}`;
    if (taken.has(key)) {
      throw fileError(
        `Row ${line + 1}: frame ${rowFrame[line - 1]} has a second instance of ${track === SINGLE ? 'an untracked animal (no track names: one animal only)' : `track "${track}"`}.`,
      );
    }
    taken.add(key);
    const keypoints = keypointOf[tracks.indexOf(track)]!;
    nodes.forEach((node, n) => {
      const k = keypoints[n]!;
      const where = (column: number) => () => `Row ${line + 1}, column "${header[column]}"`;
      values[k * 3]![row] = cellNumber(cells[node.x]!, where(node.x));
      values[k * 3 + 1]![row] = cellNumber(cells[node.y]!, where(node.y));
      if (node.score >= 0) values[k * 3 + 2]![row] = cellNumber(cells[node.score]!, where(node.score));
    });
  }
  return {
    format: 'sleap_csv',
    scorer: null,
    individuals: index.individuals,
    bodyparts: index.bodyparts,
    keypoints: index.keypoints,
    edges: [],
    hasLikelihood,
    rows: frames.length,
    // Never "the whole video": a CSV leaves out frames without instances, so it says nothing of the frame count.
    rowFrames: Int32Array.from(frames),
    values,
  };
}
