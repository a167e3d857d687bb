/**
 * Runs a composite GitHub Action (action.yml) the way GitHub's runner does, for tests: each
 * `run` step is a bash script (`bash --noprofile --norc -eo pipefail FILE`) with the step's `env`,
 * `${{ inputs.x }}`, `${{ github.action_path }}` and `${{ steps.ID.outputs.x }}` evaluated, a fresh
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY file per step, and GITHUB_PATH / GITHUB_ENV carried to the
 * steps after. Any other expression, a `uses` step or an unknown input is an error, so the action
 * cannot come to depend on something this runner does not model.
 *
 *   const run = await runCompositeAction(repoRoot, { apk: 'app.apk', local: 'true' }, { workspace, env });
 *   run.outputs.aab; run.summary;
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { parse } from 'yaml';

interface ActionInput {
  required?: boolean;
  default?: string;
}

interface ActionStep {
  id?: string;
  name?: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}

interface ActionFile {
  inputs?: Record<string, ActionInput>;
  outputs?: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface StepRun {
  name: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface ActionRun {
  /** Exit status of the last step run (the first that failed, or the last one). */
  status: number | null;
  outputs: Record<string, string>;
  /** Every step's job summary, in order. */
  summary: string;
  steps: StepRun[];
}

export interface RunnerOptions {
  workspace: string;
  /** The runner's environment (PATH included); GITHUB_* and RUNNER_TEMP are added. */
  env: Record<string, string>;
  runnerTemp: string;
}

/** GitHub's output file: `key=value` lines and `key<<DELIMITER` … `DELIMITER` blocks. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) value.push(lines[i]);
      out[heredoc[1]] = value.join('\n');
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return out;
}

function runBash(script: string, env: Record<string, string>, cwd: string): Promise<StepRun & { name: '' }> {
  return new Promise((resolve, reject) => {
    const file = join(env.RUNNER_TEMP, `step-${Date.now()}-${Math.random().toString(36).slice(2)}.sh`);
    writeFileSync(file, script);
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ name: '', status, stdout, stderr });
    });
  });
}

export async function runCompositeAction(actionDir: string, inputs: Record<string, string>, options: RunnerOptions): Promise<ActionRun> {
  const action = parse(readFileSync(join(actionDir, 'action.yml'), 'utf8')) as ActionFile;
  if (action.runs.using !== 'composite') throw new Error(`not a composite action: ${action.runs.using}`);
  const declared = action.inputs ?? {};
  for (const name of Object.keys(inputs)) if (!(name in declared)) throw new Error(`unknown input: ${name}`);
  for (const [name, spec] of Object.entries(declared)) if (spec.required && !inputs[name]) throw new Error(`required input missing: ${name}`);
  const stepOutputs: Record<string, Record<string, string>> = {};

  const evaluate = (text: string): string =>
    text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_m, expression: string) => {
      let m = /^inputs\.([A-Za-z0-9_-]+)$/.exec(expression);
      if (m) return inputs[m[1]] ?? declared[m[1]]?.default ?? '';
      if (expression === 'github.action_path') return actionDir;
      m = /^steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)$/.exec(expression);
      if (m) return stepOutputs[m[1]]?.[m[2]] ?? '';
      throw new Error(`expression this runner does not evaluate: \${{ ${expression} }}`);
    });

  mkdirSync(options.runnerTemp, { recursive: true });
  const githubPath = join(options.runnerTemp, 'github_path');
  const githubEnv = join(options.runnerTemp, 'github_env');
  writeFileSync(githubPath, '');
  writeFileSync(githubEnv, '');
  const steps: StepRun[] = [];
  let summary = '';
  let status: number | null = 0;
  for (const [index, step] of action.runs.steps.entries()) {
    if (step.uses || step.run === undefined) throw new Error(`step ${index} is not a run step: this runner runs only shell steps`);
    if (step.shell !== 'bash') throw new Error(`step ${index}: shell must be bash (composite steps need one)`);
    const outputFile = join(options.runnerTemp, `output-${index}`);
    const summaryFile = join(options.runnerTemp, `summary-${index}`);
    writeFileSync(outputFile, '');
    writeFileSync(summaryFile, '');
    const added = readFileSync(githubPath, 'utf8').split('\n').filter(Boolean).reverse();
    const env: Record<string, string> = {
      ...options.env,
      ...parseOutputFile(readFileSync(githubEnv, 'utf8')),
      PATH: [...added, options.env.PATH].join(delimiter),
      GITHUB_ACTION_PATH: actionDir,
      GITHUB_WORKSPACE: options.workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_PATH: githubPath,
      GITHUB_ENV: githubEnv,
      RUNNER_TEMP: options.runnerTemp,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = evaluate(String(v));
    const run = await runBash(evaluate(step.run), env, options.workspace);
    steps.push({ ...run, name: step.name ?? `step ${index}` });
    if (step.id) stepOutputs[step.id] = parseOutputFile(readFileSync(outputFile, 'utf8'));
    if (existsSync(summaryFile)) summary += readFileSync(summaryFile, 'utf8');
    status = run.status;
    if (status !== 0) break;
  }
  const outputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.outputs ?? {})) outputs[name] = evaluate(spec.value);
  appendFileSync(join(options.runnerTemp, 'summary-all.md'), summary);
  return { status, outputs, summary, steps };
}
