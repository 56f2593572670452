// A value that is often at hand and sometimes has to be waited for: an in-process cache
// answers now, a database or Redis later. Returning it without a promise when it is at hand
// lets the cache-hit path answer in the same turn as the request arrived, with no promise
// and no microtask per step (docs/access.md "Hot path for cache hits"). `await` takes both.

export type MaybePromise<T> = T | Promise<T>;

/** Runs `next` on the value now when it is at hand, or once the promise fulfils. */
export function andThen<T, R>(value: MaybePromise<T>, next: (v: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
