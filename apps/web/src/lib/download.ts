/**
 * The file name a Content-Disposition gives: the UTF-8 `filename*` (RFC 6266) when there is one, which keeps
 * "Käfig" as it is, else the ASCII `filename`.
 */
export function dispositionFileName(disposition: string): string | null {
  const encoded = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A malformed escape: fall back to the ASCII name.
    }
  }
  return /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
}

/** Hands a downloaded file to the browser under the server's file name (else `fallback`). */
export async function saveResponse(response: Response, fallback: string): Promise<void> {
  const name = dispositionFileName(response.headers.get('content-disposition') ?? '') ?? fallback;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Hands `data` to the browser as a JSON file named `name` (e.g. edits kept in this browser). */
export function saveJson(data: unknown, name: string): void {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
