/**
 * The NFS-e of approved purchases (docs/nfse.md). An approval writes the purchase's note row
 * (processando) in its own transaction when a provider token is configured; the job
 * `fiscal:advance` then does what the note needs next — request it, read its state until the
 * municipality answers, cancel it after a refund — and looks again later while the provider is
 * still working. A failure without an answer is tried again with backoff; after the retry budget
 * the note shows the error. Without a token nothing is written and nothing is requested.
 */
import type { Sequelize, Transaction } from 'sequelize';
import { FISCAL_MESSAGES as M, brasiliaIsoDateTime, fromCents, taxIdKind, type BillingDetails, type FiscalNoteStatus } from '@aabify/shared';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { FiscalNote, Models, Purchase } from '../models/index.js';
import type { SettingsService } from '../settings/index.js';
import type { JobQueue } from '../jobs/queue.js';
import { enqueueFor, itemsWithoutJob } from '../jobs/define.js';
import { JOBS } from '../jobs/names.js';
import { FocusNfeClient, FocusNfeError, providerMessage, type FocusNfseNote, type FocusNfseRequest } from './focusNfe.js';
import { readNfseSettings, type NfseSettings } from './seller.js';

export interface FiscalNotesDeps {
  models: Models;
  sequelize: Sequelize;
  settings: SettingsService;
  config: Pick<Config, 'nfse'>;
  queue: JobQueue;
  logger: Logger;
}

export interface FiscalNotesOptions {
  /** First delay of the retry backoff after a failure without an answer. */
  retryDelayMs?: number;
  /** Runs of a failing request before the note shows the error. */
  maxAttempts?: number;
  /** Shortest wait before reading a note the provider is still working on again. */
  minPollMs?: number;
  timeoutMs?: number;
}

/** The job's data: the note it advances. */
export interface FiscalAdvanceJobData {
  noteId: string;
}

const MAX_POLL_MS = 10 * 60_000;

/** Only BRL sales of a provider with a buyer on record get a note (a manual grant sells nothing). */
function needsNote(purchase: Purchase): purchase is Purchase & { billingSnapshot: BillingDetails } {
  return purchase.currency === 'BRL' && purchase.amountCents > 0 && purchase.provider !== 'manual' && purchase.billingSnapshot !== null;
}

export function nfseRequestOf(purchase: Purchase & { billingSnapshot: BillingDetails }, settings: NfseSettings, now: Date): FocusNfseRequest {
  const buyer = purchase.billingSnapshot;
  const kind = taxIdKind(buyer.document);
  return {
    data_emissao: brasiliaIsoDateTime(purchase.approvedAt ?? now),
    natureza_operacao: 1,
    optante_simples_nacional: settings.simplesNacional,
    prestador: { cnpj: settings.sellerCnpj, inscricao_municipal: settings.municipalRegistration, codigo_municipio: settings.cityCode },
    tomador: {
      ...(kind === 'cnpj' ? { cnpj: buyer.document } : { cpf: buyer.document }),
      razao_social: buyer.name,
      email: buyer.email,
      endereco: {
        logradouro: buyer.street,
        numero: buyer.number,
        ...(buyer.complement ? { complemento: buyer.complement } : {}),
        bairro: buyer.district,
        ...(buyer.cityCode ? { codigo_municipio: buyer.cityCode } : {}),
        uf: buyer.state,
        cep: buyer.cep.replace('-', ''),
      },
    },
    servico: {
      valor_servicos: fromCents(purchase.amountCents),
      aliquota: settings.issRate,
      iss_retido: false,
      item_lista_servico: settings.serviceCode,
      ...(settings.municipalTaxCode ? { codigo_tributario_municipio: settings.municipalTaxCode } : {}),
      discriminacao: `Plano ${purchase.planSnapshot?.name ?? ''} do aabify (conversão de APK em AAB). Compra ${purchase.id}.`,
    },
  };
}

export class FiscalNotes {
  readonly retryDelayMs: number;
  readonly maxAttempts: number;
  private readonly minPollMs: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly deps: FiscalNotesDeps,
    opts: FiscalNotesOptions = {},
  ) {
    this.retryDelayMs = opts.retryDelayMs ?? 30_000;
    this.maxAttempts = opts.maxAttempts ?? 6;
    this.minPollMs = opts.minPollMs ?? 5_000;
    this.timeoutMs = opts.timeoutMs ?? 15_000;
  }

  /** Whether a provider is configured (its token saved, or NFSE_API_TOKEN). */
  async configured(): Promise<boolean> {
    return !!(await this.deps.settings.get('nfse.token'));
  }

  /** On an approval, in its transaction: the purchase's note, requested once the approval commits. */
  async queueForApproved(purchase: Purchase, transaction: Transaction): Promise<void> {
    if (!needsNote(purchase) || !(await this.configured())) return;
    const [note, created] = await this.deps.models.FiscalNote.findOrCreate({
      where: { purchaseId: purchase.id },
      defaults: { purchaseId: purchase.id, userId: purchase.userId, provider: 'focusnfe', reference: `aabify-${purchase.id}` },
      transaction,
    });
    if (created) transaction.afterCommit(() => void this.schedule(note.id));
  }

  /** On a refund, in its transaction: the note (if any) is cancelled once the refund commits. */
  async cancelForRefund(purchaseId: string, transaction: Transaction): Promise<void> {
    const note = await this.deps.models.FiscalNote.findOne({ where: { purchaseId }, transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
    if (!note || (note.status !== 'processando' && note.status !== 'autorizada')) return;
    await note.update({ status: 'cancelando', cancelRequestedAt: new Date(), errorMessage: null, attempts: 0 }, { transaction });
    transaction.afterCommit(() => void this.schedule(note.id));
  }

  private async schedule(noteId: string): Promise<void> {
    await enqueueFor(this.deps.queue, JOBS.fiscalAdvance, 'noteId', noteId).catch((err: unknown) =>
      this.deps.logger.warn({ err, noteId }, 'NFS-e job not queued; the sweep will queue it'),
    );
  }

  /** Notes under way without a job (a crash between a commit and its enqueue) get one. */
  async sweep(): Promise<number> {
    const ids = await itemsWithoutJob(this.deps.sequelize, { table: 'fiscal_notes', statuses: ['processando', 'cancelando'], name: JOBS.fiscalAdvance, key: 'noteId' });
    for (const id of ids) await this.schedule(id);
    return ids.length;
  }

  /**
   * Does what the note needs next; answers when to look again (the provider still working), or
   * null when the note is settled. Throws on a failure worth retrying (the job's backoff).
   */
  async advance(noteId: string, now: Date = new Date()): Promise<Date | null> {
    const note = await this.deps.models.FiscalNote.findByPk(noteId);
    if (!note) return null;
    if (note.status === 'cancelando' && !note.requestedAt) {
      // Never sent: nothing exists at the municipality to cancel.
      await this.settle(note, 'cancelando', { status: 'cancelada', cancelledAt: now });
      return null;
    }
    if (note.status !== 'processando' && note.status !== 'cancelando') return null;
    const setup = await readNfseSettings(this.deps.settings);
    if (!setup.ok) {
      await this.settle(note, note.status, { status: 'erro', errorMessage: M.nfseMissingSettings(setup.missing.join(', ')) });
      return null;
    }
    const client = new FocusNfeClient({ baseUrl: this.deps.config.nfse.apiUrl, token: setup.value.token, timeoutMs: this.timeoutMs });
    try {
      if (note.status === 'processando') await this.issueOrRead(note, client, setup.value, now);
      else await this.cancelAtProvider(note, client, now);
    } catch (err) {
      if (!(err instanceof FocusNfeError)) throw err;
      if (!err.transient) {
        await this.settle(note, note.status, { status: 'erro', errorMessage: err.message });
        return null;
      }
      const attempts = note.attempts + 1;
      if (attempts >= this.maxAttempts) {
        await this.settle(note, note.status, { status: 'erro', attempts, errorMessage: `${M.nfseGaveUp} ${err.message}` });
        return null;
      }
      await note.update({ attempts, errorMessage: M.nfseProviderUnreachable });
      this.deps.logger.warn({ noteId, attempts, err: err.message }, 'NFS-e provider failed; retrying');
      throw err;
    }
    await note.reload();
    if (note.status === 'cancelando' || (note.status === 'processando' && note.requestedAt)) return new Date(now.getTime() + this.pollDelay(note, now));
    return null;
  }

  /** Waits grow with the note's age: a quarter of the time since it was requested, within bounds. */
  private pollDelay(note: FiscalNote, now: Date): number {
    const since = now.getTime() - (note.cancelRequestedAt ?? note.requestedAt ?? now).getTime();
    return Math.min(MAX_POLL_MS, Math.max(this.minPollMs, Math.floor(since / 4)));
  }

  private async issueOrRead(note: FiscalNote, client: FocusNfeClient, setup: NfseSettings, now: Date): Promise<void> {
    let answer: FocusNfseNote;
    if (!note.requestedAt) {
      const purchase = await this.deps.models.Purchase.findByPk(note.purchaseId);
      if (!purchase || !needsNote(purchase)) {
        await this.settle(note, 'processando', { status: 'erro', errorMessage: M.nfseNoBilling });
        return;
      }
      answer = await client.issue(note.reference, nfseRequestOf(purchase, setup, now));
      // Accepted: from now on the note exists at the provider and is only read (or cancelled).
      await note.update({ requestedAt: now, attempts: 0 });
    } else {
      answer = await client.get(note.reference);
    }
    await this.apply(note, client, answer, now);
  }

  private async cancelAtProvider(note: FiscalNote, client: FocusNfeClient, now: Date): Promise<void> {
    const current = await client.get(note.reference);
    if (current.status === 'processando_autorizacao') {
      // Cannot be cancelled before the municipality answers: looked at again later.
      await note.update({ providerStatus: current.status, lastCheckedAt: now, attempts: 0 });
      return;
    }
    if (current.status === 'erro_autorizacao') {
      // Never issued: there is nothing to cancel; the refusal stays visible.
      await this.settle(note, 'cancelando', { status: 'erro', providerStatus: current.status, errorMessage: providerMessage(current, current.status) });
      return;
    }
    if (current.status === 'cancelado') {
      await this.settle(note, 'cancelando', { status: 'cancelada', providerStatus: current.status, cancelledAt: now, errorMessage: null });
      return;
    }
    const answer = await client.cancel(note.reference, M.nfseCancelJustification);
    if (answer.status === 'cancelado') {
      await this.settle(note, 'cancelando', { status: 'cancelada', providerStatus: answer.status, cancelledAt: now, errorMessage: null });
    } else {
      await this.settle(note, 'cancelando', { status: 'erro', providerStatus: answer.status, errorMessage: `Cancelamento recusado: ${providerMessage(answer, answer.status)}` });
    }
  }

  /** Applies the provider's answer about a note being issued. */
  private async apply(note: FiscalNote, client: FocusNfeClient, answer: FocusNfseNote, now: Date): Promise<void> {
    switch (answer.status) {
      case 'autorizado':
        await this.settle(note, 'processando', {
          status: 'autorizada',
          providerStatus: answer.status,
          number: answer.numero ?? null,
          verificationCode: answer.codigo_verificacao ?? null,
          pdfUrl: client.absolute(answer.url_danfse ?? answer.url),
          xmlUrl: client.absolute(answer.caminho_xml_nota_fiscal),
          authorizedAt: now,
          errorMessage: null,
          lastCheckedAt: now,
        });
        return;
      case 'erro_autorizacao':
        await this.settle(note, 'processando', { status: 'erro', providerStatus: answer.status, errorMessage: providerMessage(answer, 'NFS-e recusada pela prefeitura'), lastCheckedAt: now });
        return;
      case 'cancelado':
        await this.settle(note, 'processando', { status: 'cancelada', providerStatus: answer.status, cancelledAt: now, lastCheckedAt: now });
        return;
      default:
        await note.update({ providerStatus: answer.status.slice(0, 40), lastCheckedAt: now, errorMessage: null, attempts: 0 });
    }
  }

  /**
   * Moves the note out of `from` only if it is still there: a refund that made it `cancelando`
   * meanwhile is not overwritten (its own run follows).
   */
  private async settle(note: FiscalNote, from: FiscalNoteStatus, changes: Partial<Pick<FiscalNote, 'status' | 'providerStatus' | 'number' | 'verificationCode' | 'pdfUrl' | 'xmlUrl' | 'errorMessage' | 'attempts' | 'authorizedAt' | 'cancelledAt' | 'lastCheckedAt'>>): Promise<void> {
    const [count] = await this.deps.models.FiscalNote.update({ ...changes, ...(changes.providerStatus ? { providerStatus: changes.providerStatus.slice(0, 40) } : {}) }, { where: { id: note.id, status: from } });
    if (count) this.deps.logger.info({ noteId: note.id, purchaseId: note.purchaseId, from, to: changes.status }, 'NFS-e state changed');
  }
}
