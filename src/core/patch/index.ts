export * from './types';
export { parsePatch, PatchParseError } from './parse';
export { touchedPaths, isPathSafe } from './paths';
export { applyFilePatch, HunkMismatchError, splitLines } from './apply';
export { changedLines, mapOldLineToNew, type ChangedLine } from './lines';
export { splitHunks, joinHunks, type PatchHunk } from './hunks';
