// The Node flags the server process runs with: `npm start` (scripts/start.mjs) and the benches
// take them from here, the image's CMD repeats them (a Dockerfile cannot import). A small young
// generation and a heap that grows 30 % instead of V8's default before it collects: under
// 20 customers × 5 conversions at once the main thread's heap stays near 80 MB instead of
// growing to 140–190 MB of garbage, and the RSS stays flat from round to round, for ~25 ms more
// CPU per conversion (bench/README.md, "Where the server's memory goes under load").
// `--heap-growing-percent` is not allowed in NODE_OPTIONS: these go on the command line.
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=30'];
