import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  analysisKeys,
  legacyVideoStoragePrefix,
  projectLogoKey,
  projectStoragePrefix,
  storageKeyOwner,
  userAvatarKey,
  videoKeys,
  videoStoragePrefix,
  videoStoragePrefixes,
} from './storage-keys.js';

const project = '11111111-1111-4111-8111-111111111111';
const video = '22222222-2222-4222-8222-222222222222';
const run = '33333333-3333-4333-8333-333333333333';
const subject = '44444444-4444-4444-8444-444444444444';

/** Texts of the string and template literals of a source file, with whether each follows an interpolation. */
function literals(source: string): { text: string; afterInterpolation: boolean; line: number }[] {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, true);
  const found: { text: string; afterInterpolation: boolean; line: number }[] = [];
  const lineOf = (node: ts.Node) => file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      found.push({ text: node.text, afterInterpolation: false, line: lineOf(node) });
    } else if (ts.isTemplateExpression(node)) {
      found.push({ text: node.head.text, afterInterpolation: false, line: lineOf(node) });
      for (const span of node.templateSpans) {
        found.push({ text: span.literal.text, afterInterpolation: true, line: lineOf(span) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * Pieces that build a storage key (or a DATA_DIR/tmp path): a literal starting at a key's root, a stored file's
 * name or folder appended to an interpolated prefix, or the `tmp` folder itself.
 */
function keyBuilding(source: string): string[] {
  return literals(source)
    .filter(
      ({ text, afterInterpolation }) =>
        /^(projects|users)\//.test(text) ||
        text === 'tmp' ||
        (afterInterpolation &&
          (/^\/?(original|thumbnail\.jpg|playback\.mp4|series\.f64|times\.f64|series\.csv|segments\/|logo\/|avatar-)/.test(
            text,
          ) ||
            /^(videos|subjects|analyses)\//.test(text))),
    )
    .map(({ text, line }) => `${line}: ${text}`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('storage keys', () => {
  it("name their owner, read back in one place: every project file is the project's, an avatar its user's", () => {
    const v = { projectUuid: project, videoUuid: video };
    const keys = [
      projectLogoKey(project, 'logo-1.png'),
      ...Object.values(videoKeys(v, '.avi')),
      analysisKeys({ ...v, analysisUuid: run }).seriesCsv,
      `${legacyVideoStoragePrefix(project, subject, video)}thumbnail.jpg`,
    ];
    for (const key of keys) expect(storageKeyOwner(key), key).toEqual({ project });
    expect(storageKeyOwner(userAvatarKey(12, 'a.png'))).toEqual({ user: 12 });
    for (const key of [
      `projects/${project}`,
      `projects/${project}/`,
      `projects/${project}/../x`,
      'projects/not-a-uuid/logo/x.png',
      'users/12/notes.txt',
      'users/0/avatar-a.png',
      'users/12/sub/avatar-a.png',
      'elsewhere/x',
      '',
    ]) {
      expect(storageKeyOwner(key), key).toBeNull();
    }
  });

  it('name the project and the video, never the subject, so a move changes no key', () => {
    expect(videoStoragePrefix({ projectUuid: project, videoUuid: video })).toBe(`projects/${project}/videos/${video}/`);
    expect(videoKeys({ projectUuid: project, videoUuid: video }, '.avi')).toEqual({
      original: `projects/${project}/videos/${video}/original.avi`,
      thumbnail: `projects/${project}/videos/${video}/thumbnail.jpg`,
      playback: `projects/${project}/videos/${video}/playback.mp4`,
    });
    const keys = analysisKeys({ projectUuid: project, videoUuid: video, analysisUuid: run });
    expect(keys.series).toBe(`projects/${project}/videos/${video}/analyses/${run}/series.f64`);
    expect(keys.segment(3)).toBe(`${keys.segmentsPrefix}3.f64`);
    expect(keys.segmentsPrefix.startsWith(keys.prefix)).toBe(true);
    expect(projectLogoKey(project, 'a.png').startsWith(projectStoragePrefix(project))).toBe(true);
    expect(userAvatarKey(7, 'a.png')).toBe('users/7/avatar-a.png');
  });

  it('delete a video stored before migration 0010 from both places', () => {
    const legacy = legacyVideoStoragePrefix(project, subject, video);
    expect(legacy).toBe(`projects/${project}/subjects/${subject}/videos/${video}/`);
    const row = { projectUuid: project, videoUuid: video };
    expect(videoStoragePrefixes({ ...row, legacyStoragePrefix: null })).toEqual([videoStoragePrefix(row)]);
    expect(videoStoragePrefixes({ ...row, legacyStoragePrefix: legacy })).toEqual([videoStoragePrefix(row), legacy]);
  });

  it('the check below notices keys built by hand', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source for the checker
    expect(keyBuilding('const k = `projects/${p}/videos/${v}/`;')).toEqual(['1: projects/']);
    expect(keyBuilding("const k = 'users/' + id;")).toEqual(['1: users/']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source for the checker
    expect(keyBuilding('const k = `${prefix}series.f64`;\nconst d = `${base}/thumbnail.jpg`;')).toEqual([
      '1: series.f64',
      '2: /thumbnail.jpg',
    ]);
    expect(keyBuilding("path.join(dataDir, 'tmp', 'x')")).toEqual(['1: tmp']);
    // API paths, comments and local file names are not keys.
    expect(
      keyBuilding(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source for the checker
        "// projects/{p}/videos\nconst u = `/api/projects/${p}/subjects/${s}/videos/${v}/`;\npath.join(dir, 'series.csv');",
      ),
    ).toEqual([]);
  });

  it('are built only in lib/storage-keys.ts', () => {
    const src = path.resolve(import.meta.dirname, '..');
    const offenders = sourceFiles(src)
      .filter((file) => path.relative(src, file) !== path.join('lib', 'storage-keys.ts'))
      .flatMap((file) => keyBuilding(readFileSync(file, 'utf8')).map((hit) => `${path.relative(src, file)}:${hit}`));
    expect(offenders).toEqual([]);
  });
});
