/**
 * The CLI's name and version come from one place, packages/cli/package.json: esbuild inlines it
 * into the bundle, and `npm run pack:cli` writes the published package.json from it.
 */
import cliPackage from '../package.json' with { type: 'json' };

export const CLI_NAME: string = cliPackage.name;
export const CLI_VERSION: string = cliPackage.version;
