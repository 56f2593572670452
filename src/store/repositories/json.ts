// JSON columns are text on both dialects.
export const toJson = (v: unknown): string => JSON.stringify(v);
export function fromJson<T>(text: string | null | undefined, fallback: T): T {
  if (text == null || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
