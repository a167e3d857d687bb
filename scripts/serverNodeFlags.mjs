// The Node flags the server process runs with: `npm start` (scripts/start.mjs) and the benches
// take them from here, the image's CMD repeats them (a Dockerfile cannot import). A small young
// generation and a heap that grows 30 % instead of V8's default before it collects: under
// 20 customers × 5 conversions at once the main thread's heap stays near 80 MB instead of
// growing to 140–190 MB of garbage, and the RSS stays flat from round to round, for ~25 ms more
// CPU per conversion (bench/README.md, "Where the server's memory went"). The
// semi-space size is the whole process's: it caps the engine threads' young generations too.
// 2 MB instead of 4: peaks 251–281 MB instead of 276–304 MB over nine rounds each, the CPU per
// conversion the same (184–207 ms against 182–225 ms).
// `--heap-growing-percent` is not allowed in NODE_OPTIONS: these go on the command line.
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=2', '--heap-growing-percent=30'];

// glibc's allocator settings for the server process (environment: they must be set before it
// starts; the image's ENV repeats them). MALLOC_ARENA_MAX: every thread that allocates (engine
// threads, libuv's pool) otherwise gets an arena of its own, up to 8 per core, each keeping what
// it freed. MALLOC_MMAP_THRESHOLD_: allocations from 128 KiB up (the engine's file buffers, zlib's
// output) always get pages of their own, given back to the system when freed; by default glibc
// raises that threshold after each such free (up to 32 MiB), and from then on serves them from an
// arena that keeps the memory. 20 customers × 5 conversions at once peaked 279–292 MB instead of
// 292–330 MB, the CPU per conversion the same (bench/README.md). A value set by the operator wins.
export const SERVER_MALLOC_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };
