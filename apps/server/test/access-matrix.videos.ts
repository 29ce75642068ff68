import type { Endpoint } from './access-matrix.types.js';

/** Video endpoints of the access matrix (filled in with the videos feature). */
export const accessMatrixVideoEndpoints: Endpoint[] = [];
