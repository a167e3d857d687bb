/**
 * `aabify logs ID [--follow]`: the conversion's log entries; with --follow, new ones as they come
 * until the conversion ends — then exit 1 if it failed or was cancelled, as `convert --wait` does.
 */
import type { Command } from 'commander';
import { EXIT_OK, usageError, type ExitCode } from '../api/errors.js';
import { followConversion, formatLog, getLogs } from '../follow.js';
import { Output } from '../output.js';
import { requireToken, runRemote, withRemoteOptions, type RemoteContext, type RemoteFlags } from '../remote.js';
import { conversionFailure } from './convert.js';
import { TIMEOUT_OPTION_HELP, waitTimeoutOf } from '../waitTimeout.js';

interface LogsFlags extends RemoteFlags {
  follow?: boolean;
  /** With --follow: give up waiting after this long (waitTimeout.ts). */
  timeout?: string;
}

export async function runLogs(ctx: RemoteContext, id: string, flags: LogsFlags): Promise<ExitCode> {
  const { api, connection, output } = ctx;
  requireToken(connection);
  const timeout = waitTimeoutOf(flags.timeout);
  if (flags.timeout !== undefined && !flags.follow) throw usageError('--timeout só vale com --follow.', 'INVALID_TIMEOUT');
  if (!flags.follow) {
    const logs = await getLogs(api, id);
    output.result({ conversionId: id, logs }, logs.length === 0 ? 'Sem logs disponíveis' : logs.map(formatLog));
    return EXIT_OK;
  }
  // Followed entries go to stdout as they come (stderr with --json, whose stdout is one document).
  const { conversion, logs } = await followConversion(api, output.json ? output : new Output({ quiet: flags.quiet }, process.stdout, process.stdout), id, { showLogs: true, showProgress: false, ...(timeout ? { timeout } : {}) });
  if (output.json) {
    if (conversion.status !== 'completed') throw conversionFailure(id, conversion.status, conversion.error);
    output.result({ conversionId: id, status: conversion.status, logs }, []);
    return EXIT_OK;
  }
  if (conversion.status !== 'completed') throw conversionFailure(id, conversion.status, conversion.error);
  output.info(`Conversão ${id} concluída.`);
  return EXIT_OK;
}

export function register(program: Command): Command {
  return withRemoteOptions(
    program
      .command('logs')
      .description('mostra os logs de uma conversão (com --follow, acompanha até o fim)')
      .argument('<id>', 'id da conversão')
      .option('-f, --follow', 'acompanha os novos logs até a conversão terminar')
      .option('--timeout <tempo>', `com --follow, ${TIMEOUT_OPTION_HELP}`),
  ).action((id: string, flags: LogsFlags) => runRemote(flags, (ctx) => runLogs(ctx, id, flags)));
}
