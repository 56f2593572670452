/**
 * Something loaded when it is first asked for (an optional module, docs/architecture.md,
 * "Optional infrastructure"): later calls share the first load, and a failed load is not
 * remembered, so the next call tries again.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = null;
      throw err;
    }));
}
