/**
 * True when a query failed on a unique index (PostgreSQL code 23505). Drizzle wraps driver errors, so the
 * code may sit on the error itself (PGlite, node-postgres) or on its `cause`.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
}
