/** A readiness failure whose reason (a fixed word, no internals) is shown in the /readyz body. */
export class ReadinessProblem extends Error {
  override name = 'ReadinessProblem';
}
