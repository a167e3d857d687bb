import { buildProgram } from './program.js';

// Not awaited: the release bundle is CommonJS (start.ts), where a failure is an unhandled rejection all the same.
void buildProgram().parseAsync(process.argv);
