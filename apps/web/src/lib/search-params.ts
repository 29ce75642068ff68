/**
 * A copy of `params` with `patch` applied: a non-empty value sets its key, null, undefined or '' removes it. Pages keep
 * their selection and filters in the URL and change them through this, e.g.
 * `setParams((prev) => patchSearchParams(prev, { page: null }), { replace: true })`.
 */
export function patchSearchParams(
  params: URLSearchParams,
  patch: Record<string, string | null | undefined>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(patch)) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  return next;
}
