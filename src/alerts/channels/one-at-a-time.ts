// Sends about one tool-side record (a Grafana annotation, a Rootly alert) one at a time in
// this process: the worker may send two events of one incident in one batch, and both would
// find no kept id and create two records. The second waits for the first and then finds its id.

export function oneAtATime() {
  const tails = new Map<string, Promise<unknown>>();
  return async function run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = tails.get(key) ?? Promise.resolve();
    const mine = before.then(fn, fn);
    const tail = mine.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await mine;
    } finally {
      // The last one in line forgets the key, so the map holds only records being sent.
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}
