import { Router } from 'express';
import { ADMIN_MESSAGES, adminConfigUpdateSchema, type AdminConfigResponse, type AdminConfigUpdateResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import type { Limiter } from '../http/rateLimiter.js';
import { inputOf, validate } from '../http/validate.js';
import { SETTING_DEFINITIONS, SettingValueError, isSettingKey, maskSecret, type SettingDefinition, type SettingKey } from './index.js';
import type { Config } from '../config.js';
import { presentSetting, webhookUrlOf } from './presenter.js';
import { presentPaymentsState } from '../payments/providerStatePresenter.js';
import { adminGuard } from '../http/guards.js';
import { signedInActor } from '../audit/requestActor.js';
import { recordAudit } from '../audit/recorder.js';

/** A setting's value as the audit trail keeps it: a secret only masked, as the settings screen shows it. */
async function auditedValue(ctx: AppContext, key: SettingKey): Promise<unknown> {
  const value = await ctx.settings.get(key);
  return value !== null && SETTING_DEFINITIONS[key].masked ? maskSecret(String(value)) : value;
}


/** Settings that act on this process at once (the others are read where they are used). */
async function applyRuntimeSetting(ctx: AppContext, key: SettingKey): Promise<void> {
  if (key === 'logging.level') {
    const level = await ctx.settings.get('logging.level');
    if (level) ctx.logger.level = level;
  }
  if (key === 'conversions.maxConcurrent' || key === 'queue.broadcastInterval') ctx.queueBroadcaster.changed();
}

/**
 * /api/admin/config:
 *   GET / → { configs: [{ key, value (secrets masked), description, help, recommended, kind, options?, hint?, problem?, updatedAt, … }],
 *     webhookUrl, payments: { provider, label, available, reason, message } }
 *   PUT /{key} { value } → { message, config }; 400 with the key's pt-BR rule ('Valor não pode ser
 *     vazio', 'Valor deve ser um número válido', ranges, levels); 404 for an unknown key.
 */
export function createAdminConfigRouter(ctx: AppContext, limiter: Limiter): Router {
  const router = Router();
  router.use(adminGuard(ctx, limiter));

  router.get('/', async (_req, res) => {
    const url = webhookUrlOf(ctx.config);
    const body: AdminConfigResponse = {
      configs: (await ctx.settings.list()).map((e) => presentSetting(e, url)),
      webhookUrl: url,
      payments: presentPaymentsState(await ctx.payments.state(), await ctx.payments.routes()),
    };
    res.json(body);
  });

  router.put('/:key', validate(adminConfigUpdateSchema), async (req, res) => {
    const key = String(req.params.key);
    if (!isSettingKey(key)) throw ApiError.notFound(ADMIN_MESSAGES.configUnknown, 'CONFIG_NOT_FOUND');
    const { value } = inputOf(req, adminConfigUpdateSchema);
    refuseOnThisServer(key, value, ctx.config);
    const actor = signedInActor(req);
    const before = await auditedValue(ctx, key);
    try {
      await ctx.sequelize.transaction(async (transaction) => {
        const stored = await ctx.settings.set(key, value, { transaction });
        const after = SETTING_DEFINITIONS[key].masked ? maskSecret(String(stored)) : stored;
        await recordAudit(ctx, { action: 'setting.changed', actor, target: { type: 'setting', id: key, label: SETTING_DEFINITIONS[key].title }, before: { value: before }, after: { value: after } }, { transaction });
      });
    } catch (err) {
      if (err instanceof SettingValueError) throw ApiError.validation({ value: err.message }, err.message);
      throw err;
    }
    await applyRuntimeSetting(ctx, key);
    const body: AdminConfigUpdateResponse = { message: ADMIN_MESSAGES.configUpdated, config: presentSetting(await ctx.settings.entry(key), webhookUrlOf(ctx.config)) };
    res.json(body);
  });

  return router;
}

/** A value the running configuration cannot honour: 409 SETTING_REFUSED with the reason on the field. */
function refuseOnThisServer<K extends SettingKey>(key: K, input: unknown, config: Config): void {
  const def: SettingDefinition<K> = SETTING_DEFINITIONS[key];
  let reason: string | undefined;
  try {
    reason = def.refuse?.(def.parse(input), config);
  } catch (err) {
    // An unparsable value is the parse's own error, answered by settings.set below.
    if (err instanceof SettingValueError) return;
    throw err;
  }
  if (reason) throw new ApiError(409, 'SETTING_REFUSED', reason, { fields: { value: reason } });
}
