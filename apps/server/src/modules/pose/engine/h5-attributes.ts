import type { Dataset, Group } from 'h5wasm/node';

/** An attribute's text (a fixed or variable string; a byte array read as Latin-1), or null. */
export function attributeText(owner: Group | Dataset, name: string): string | null {
  const attrs = owner.attrs;
  if (!(name in attrs)) return null;
  const value = attrs[name]!.value;
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') return value[0];
  if (value instanceof Uint8Array || value instanceof Int8Array) return Buffer.from(value).toString('latin1');
  return null;
}
