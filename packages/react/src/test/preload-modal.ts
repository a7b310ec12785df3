// The provider fetches the modal's chunk when the browser is idle
// (modal/lazy.tsx preloadModal). Loaded here first, so that no test file
// ends while that import is still on its way (the worker's modules are
// shared: `isolate: false`). Only for the `unit` project: a file that mocks
// modules (`unit-mocks`) must import them after its mocks are set.
await import('../modal/chunk.ts')

export {}
