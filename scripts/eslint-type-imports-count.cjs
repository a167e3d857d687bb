/**
 * import-x/no-cycle, with type-only imports counted as edges of the module graph.
 *
 * The rule skips `import type` (and imports whose specifiers are all `type`) because they vanish
 * at run time. We count them: a cycle of types still ties two modules into one, so neither can
 * be understood or moved alone. import-x has no option for it, so both places where the rule
 * learns that an import is type-only see a value import instead:
 * - the file being linted: the wrapped rule hands the rule a copy of each import and export statement
 *   with its kinds set to 'value' (ESLint's own tree stays as it is, for every other rule);
 * - the files it walks through: this module is also the parser that the `import-x/parsers`
 *   setting names for them (`parseForESLint`): the TypeScript parser, with the same kinds set
 *   to 'value' in its tree.
 * CommonJS because import-x loads a parser named in its settings with require().
 */
const tseslint = require('typescript-eslint');
const { importX } = require('eslint-plugin-import-x');

const MODULE_STATEMENTS = new Set(['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration', 'TSImportEqualsDeclaration']);

/** A copy of an import or export statement whose kinds (its own and its specifiers') are 'value'. */
function asValue(node) {
  const copy = { ...node };
  for (const key of ['importKind', 'exportKind']) if (copy[key] === 'type' || copy[key] === 'typeof') copy[key] = 'value';
  if (Array.isArray(copy.specifiers)) copy.specifiers = copy.specifiers.map(asValue);
  return copy;
}

function parseForESLint(code, options) {
  const result = tseslint.parser.parseForESLint(code, options);
  result.ast.body = result.ast.body.map((statement) => (MODULE_STATEMENTS.has(statement.type) ? asValue(statement) : statement));
  return result;
}

const cycleRule = importX.rules['no-cycle'];

const noCycle = {
  meta: cycleRule.meta,
  defaultOptions: cycleRule.defaultOptions,
  create(context) {
    const visitors = cycleRule.create(context);
    return Object.fromEntries(
      Object.entries(visitors).map(([selector, visit]) => [selector, MODULE_STATEMENTS.has(selector) ? (node) => visit(asValue(node)) : visit]),
    );
  },
};

/** import-x with its no-cycle rule counting type-only imports; every other rule as it is. */
const importXCountingTypes = { ...importX, rules: { ...importX.rules, 'no-cycle': noCycle } };

module.exports = { parseForESLint, importXCountingTypes };
