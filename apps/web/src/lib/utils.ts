import { type ClassValue, clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** Joins class names, letting later Tailwind utilities override earlier ones. */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

/** Initials for an avatar fallback: "Ada Lovelace" → "AL", "ada@lab.org" → "AD". */
export function initials(name: string | null | undefined): string {
  const clean = (name ?? '').trim();
  if (!clean) return '?';
  const words = clean.split(/[\s@._-]+/).filter(Boolean);
  if (words.length >= 2 && !clean.includes('@')) return `${words[0]![0]}${words[1]![0]}`.toUpperCase();
  return clean.slice(0, 2).toUpperCase();
}
