// The supported runtime (docs/deployment.md, "Runtime"): Node.js 24, the current LTS.
// `npm ci` installs it on Linux (the `node-linux-*` optional dependencies) and npm
// scripts run it; whoever starts the service another way gets this message instead of
// a failure deep inside a dependency. Imported first by the process entries.

export const MIN_NODE_MAJOR = 24;

export function runtimeProblem(version: string = process.versions.node): string | null {
  const major = Number(version.split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return null;
  return (
    `This service needs Node.js ${MIN_NODE_MAJOR} or later; it was started with Node.js ${version} (${process.execPath}). ` +
    'Start it through npm (`npm start`, `npm run cli`), which runs the Node.js that `npm ci` installed, ' +
    `or put Node.js ${MIN_NODE_MAJOR} first on PATH (docs/deployment.md, "Runtime").`
  );
}

const problem = runtimeProblem();
if (problem) {
  console.error(problem);
  process.exit(1);
}
