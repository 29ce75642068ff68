// The subject lookup lives below the modules (the project-scope hook needs it): this module's own name for it.
export { getSubjectOrThrow, type SubjectRow } from '../../lib/scope-lookups.js';
